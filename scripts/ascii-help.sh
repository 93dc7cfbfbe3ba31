#!/bin/bash
# Stands in for smfplay when generate-manual asks it for its help
# (`ascii-help.sh --experimental-dump-help`, with SMFPLAY=path/to/smfplay): it
# passes the call on and turns the help texts into ASCII, because generate-manual
# drops every other character, so that "8000–96000" would read "800096000".
# Arrows become words; iconv approximates the rest (– as -, é as e, … as ...).
set -euo pipefail
"${SMFPLAY:?the smfplay to document}" "$@" \
	| sed -e 's/←/left/g; s/→/right/g; s/↑/up/g; s/↓/down/g' \
	| LC_ALL=C.UTF-8 iconv -f UTF-8 -t ASCII//TRANSLIT
