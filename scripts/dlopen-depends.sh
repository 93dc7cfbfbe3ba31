#!/bin/sh
# make deb: fails when the binary names a shared library (libNAME.so.N) that it does not link,
# one it opens with dlopen, and no package that holds it is in the package's Depends or
# Recommends. dpkg-shlibdeps sees only the libraries linked (NEEDED): the others are listed by
# hand on debian/control's Depends line.
#
# scripts/dlopen-depends.sh BINARY DEBIAN/control
set -eu
binary=$1
control=$2

needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
# Package names of a Depends or Recommends field, alternatives included, without versions or :any.
names() { sed 's/[,|]/\n/g' | sed 's/^ *//; s/[ :(].*//' | grep -v '^$' | sort -u; }
# Those of the package's Depends and Recommends, and what they depend on as installed here (one
# step: libtag1v5, say, is the package to name for libtag.so.1, which libtag1v5-vanilla holds).
direct=$(sed -n 's/^\(Depends\|Recommends\): //p' "$control" | names)
listed=$(
	printf '%s\n' "$direct"
	for package in $direct; do dpkg-query -W -f='${Depends}\n' "$package" 2>/dev/null | names || true; done
)

missing=""
for soname in $(strings -a -n 6 "$binary" | grep -oE 'lib[A-Za-z0-9_+-]+\.so\.[0-9]+' | sort -u); do
	if printf '%s\n' "$needed" | grep -qxF "$soname"; then continue; fi
	packages=$(dpkg-query -S "*/$soname" 2>/dev/null | grep ': /' | sed 's/: \/.*//' | tr ',' '\n' |
		sed 's/^ *//; s/:.*//' | sort -u)
	if [ -z "$packages" ]; then
		echo "$binary names $soname, which it does not link and no installed package holds:" \
			"if smfplay opens it with dlopen, install its package and name it on debian/control's Depends line" >&2
		missing="$missing $soname"
		continue
	fi
	found=""
	for package in $packages; do
		if printf '%s\n' "$listed" | grep -qxF "$package"; then found=$package; fi
	done
	if [ -z "$found" ]; then
		echo "$binary opens $soname without linking it (dlopen): name its package," \
			"$(echo "$packages" | tr '\n' ' ')on debian/control's Depends line" >&2
		missing="$missing $soname"
	fi
done
[ -z "$missing" ]
