#!/usr/bin/env bash
# The thumbnail benchmark: `smfplay thumbnail` run as a file manager runs it, timed and weighed.
#
#   bench/thumbnail.sh        # build, generate, time, print the table; non-zero if a target is missed
#
# Builds the release smfplay with the Swift runtime linked in (as `make release` builds it; in the
# default .build folder unless BENCH_SCRATCH says otherwise) and smfplay-parse-bench, which writes
# the parse benchmark's deterministic files (see bench/parse.sh). Then, for every song of the
# openttd-openmsx corpus, a file of about 1 MB (142,000 notes) and one of 2,000,000 notes (14 MB),
# runs `env -i smfplay thumbnail --size 256 FILE OUT.png` (an empty environment: no home, no
# configuration, as in a file manager's sandbox) $THUMB_REPEAT times, and reports the best and
# median wall time and the peak RSS (GNU time's %M, the largest of the runs) of the whole process.
# Targets: under 200 ms and 50 MB for the corpus and the 1 MB file; under 2 s and
# 50 MB for the 2,000,000-note file.
#
# Environment: THUMB_REPEAT (5), THUMB_SIZE (256), BENCH_OUT (bench/out), BENCH_SCRATCH (unset: .build),
# BENCH_CORPUS (/usr/share/games/openttd/baseset/openmsx).
set -euo pipefail
cd "$(dirname "$0")/.."

REPEAT=${THUMB_REPEAT:-5}
SIZE=${THUMB_SIZE:-256}
OUT=${BENCH_OUT:-bench/out}
CORPUS=${BENCH_CORPUS:-/usr/share/games/openttd/baseset/openmsx}
MEDIUM_NOTES=142000
LARGE_NOTES=2000000

MAX_MS=200
MAX_MS_LARGE=2000
MAX_MB=50

# shellcheck source=bench/common.sh
source bench/common.sh

# --- Tools: install only what is missing. ---
install_missing time openttd-openmsx libpng-dev

# --- Build. ---
build_release smfplay smfplay-parse-bench
SMFPLAY="$BIN_DIR/smfplay"

mkdir -p "$OUT/thumbnails"
medium="$OUT/thumbnail-$MEDIUM_NOTES.mid"
large="$OUT/thumbnail-$LARGE_NOTES.mid"
for notes in $MEDIUM_NOTES $LARGE_NOTES; do
    say "generating $OUT/thumbnail-$notes.mid"
    "$BIN_DIR/smfplay-parse-bench" generate "$OUT/thumbnail-$notes.mid" --notes "$notes" >&2
done

TIMEFORMAT=%3R
note_load
failures=()
rows=()

# One file: $REPEAT runs; appends a table row and any missed target.
measure() {
    local file=$1 max_ms=$2 name times=() peak_kb=0 png report seconds
    name=$(basename "$file")
    png="$OUT/thumbnails/${name%.*}.png"
    cat "$file" >/dev/null # in the page cache
    report=$(mktemp)
    for _ in $(seq "$REPEAT"); do
        rm -f "$png"
        seconds=$({ time /usr/bin/time -f %M -o "$report" env -i "$SMFPLAY" thumbnail --size "$SIZE" "$file" "$png" >/dev/null 2>&1; } 2>&1) ||
            { failures+=("$name: smfplay thumbnail failed"); rm -f "$report"; return; }
        times+=("$seconds")
        peak_kb=$(awk -v a="$(tail -n 1 "$report")" -v b="$peak_kb" 'BEGIN { print (a > b) ? a : b }')
    done
    rm -f "$report"
    [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || failures+=("$name: the output is not a PNG file")
    local row
    row=$(printf '%s\n' "${times[@]}" | sort -n | awk -v name="$name" -v bytes="$(stat -c %s "$file")" \
        -v peak="$peak_kb" -v max_ms="$max_ms" -v max_mb="$MAX_MB" '
        { t[NR] = $1 * 1000 }
        END {
            median = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
            ok = (t[1] < max_ms && peak / 1024 < max_mb) ? "yes" : "NO"
            printf "%s|%.2f|%.0f|%.0f|%.1f|< %d ms, < %d MB|%s", name, bytes / 1048576, t[1], median, peak / 1024, max_ms, max_mb, ok
        }')
    rows+=("$row")
    [ "${row##*|}" = yes ] || failures+=("$name: ${row#*|}")
}

say "timing smfplay thumbnail --size $SIZE, best of $REPEAT runs each"
for file in "$CORPUS"/*.mid; do measure "$file" "$MAX_MS"; done
measure "$medium" "$MAX_MS"
measure "$large" "$MAX_MS_LARGE"

echo
echo "smfplay thumbnail benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "env -i smfplay thumbnail --size $SIZE FILE OUT.png, whole process: best (median) wall time of $REPEAT runs, and the largest peak RSS."
echo "load average at start: $load_at_start"
echo
echo "| file | MB | best ms | median ms | peak RSS MB | target | met |"
echo "|---|---:|---:|---:|---:|---|---|"
for row in "${rows[@]}"; do echo "| ${row//|/ | } |"; done
echo
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "all targets met"
