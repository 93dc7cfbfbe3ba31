#!/bin/sh
# Names each subcommand's man page as man-db can index it (make release, after generate-manual).
# generate-manual writes `.Nm "smfplay render"` in the NAME section, a name with a space that
# lexgrog cannot parse: mandb left the page out of whatis and apropos, and lintian reported
# bad-whatis-entry. The NAME becomes the page's own name, smfplay.render (what `man` is given),
# and the SYNOPSIS, which repeated the NAME's, still shows the command: smfplay render.
set -eu
for page in "$@"; do
	awk '
		/^\.Sh / { section = $0 }
		section == ".Sh NAME" && !command && /^\.Nm "smfplay [^"]*"$/ {
			command = substr($0, 6, length($0) - 6)
			name = command
			gsub(/ /, ".", name)
			print ".Nm " name
			next
		}
		section == ".Sh SYNOPSIS" && command && /^\.Nm$/ { print ".Nm \"" command "\""; next }
		{ print }
	' "$page" >"$page.new"
	mv "$page.new" "$page"
done
