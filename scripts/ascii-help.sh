#!/bin/bash
# Stands in for smfplay when generate-manual asks it for its help
# (`ascii-help.sh --experimental-dump-help`, with SMFPLAY=path/to/smfplay): it
# passes the call on with every character beyond ASCII spelled as an ASCII token
# (é as UNICHARxE9x), because generate-manual drops every other character, so that
# "8000–96000" would read "800096000" and "ショパ finds ショパン" " finds ".
# scripts/man-glyphs.pl then turns each token into the glyph escape groff prints
# the character with (\[u00E9]).
set -euo pipefail
"${SMFPLAY:?the smfplay to document}" "$@" \
	| perl -CS -pe 's/([^\x00-\x7F])/sprintf("UNICHARx%04Xx", ord($1))/ge'
