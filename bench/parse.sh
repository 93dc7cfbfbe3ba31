#!/usr/bin/env bash
# The parse benchmark: smfplay's reader against symusic and midicsv, side by side.
#
#   bench/parse.sh            # build, generate, time, print the table; non-zero if a target is missed
#
# Builds the release bench binary in the default .build folder, installs what is
# missing (symusic with pip, midicsv and GNU time with apt-get), generates the
# deterministic benchmark files into bench/out/ (git-ignored) and times, for a
# 2,000,000-note and a 1,000,000-note file:
#   - smfplay: read + Song(file:).duration, in-process, best of $SMF_REPEAT
#   - symusic: Score(path), in-process in Python, best of $SYMUSIC_REPEAT
#   - midicsv: `midicsv FILE > /dev/null`, the whole process, best of $MIDICSV_REPEAT
#   - peak RSS of the smfplay bench process parsing once, and of the same binary doing nothing
# Targets: symusic / smfplay >= 1, midicsv / smfplay >= 20,
# the reader's peak memory (peak RSS - baseline RSS) under 5 x the file's size.
#
# Environment: SMF_REPEAT (20), SYMUSIC_REPEAT (10), MIDICSV_REPEAT (3),
# BENCH_NOTES ("2000000 1000000"), BENCH_OUT (bench/out), BENCH_SCRATCH (unset: .build).
set -euo pipefail
cd "$(dirname "$0")/.."

SMF_REPEAT=${SMF_REPEAT:-20}
SYMUSIC_REPEAT=${SYMUSIC_REPEAT:-10}
MIDICSV_REPEAT=${MIDICSV_REPEAT:-3}
BENCH_NOTES=${BENCH_NOTES:-"2000000 1000000"}
OUT=${BENCH_OUT:-bench/out}

MIN_SYMUSIC_RATIO=1
MIN_MIDICSV_RATIO=20
MAX_MEMORY_RATIO=5

# shellcheck source=bench/common.sh
source bench/common.sh

# --- Tools: install only what is missing. ---
install_symusic
install_missing midicsv time

# --- Build. ---
build_release smfplay-parse-bench
BIN="$BIN_DIR/smfplay-parse-bench"

mkdir -p "$OUT"
TIMEFORMAT=%3R

# The value of KEY in a line of key=value fields.
field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

# Wall seconds of one whole-process run of "$@" with stdout to /dev/null.
wall() { { time "$@" >/dev/null 2>&1; } 2>&1; }

# Peak RSS in KB of one run of "$@".
peak_rss() {
    local report
    report=$(mktemp)
    /usr/bin/time -f %M -o "$report" "$@" >/dev/null
    cat "$report"
    rm -f "$report"
}

baseline_kb=$(peak_rss "$BIN" baseline)
note_load
failures=()
rows=()

for notes in $BENCH_NOTES; do
    file="$OUT/parse-$notes.mid"
    say "generating $file"
    "$BIN" generate "$file" --notes "$notes" >&2
    bytes=$(stat -c %s "$file")
    echo "   sha256 $(sha256sum "$file" | cut -d ' ' -f 1)" >&2
    cat "$file" >/dev/null # in the page cache for everyone

    say "timing smfplay on $file (best of $SMF_REPEAT)"
    smf=$("$BIN" time "$file" --repeat "$SMF_REPEAT")
    echo "   smfplay: $smf" >&2
    say "timing symusic on $file (best of $SYMUSIC_REPEAT)"
    sym=$(python3 bench/symusic_parse.py "$file" --repeat "$SYMUSIC_REPEAT")
    echo "   symusic: $sym" >&2
    say "timing midicsv on $file (best of $MIDICSV_REPEAT)"
    csv_best=""
    for _ in $(seq "$MIDICSV_REPEAT"); do
        seconds=$(wall midicsv "$file")
        csv_best=$(awk -v a="$seconds" -v b="$csv_best" 'BEGIN { a *= 1000; print (b == "" || a < b) ? a : b }')
    done
    echo "   midicsv: best_ms=$csv_best" >&2
    say "smfplay whole process parsing once: wall time and peak RSS (best of $MIDICSV_REPEAT)"
    once_best=""
    peak_kb=0
    for _ in $(seq "$MIDICSV_REPEAT"); do
        rss_report=$(mktemp)
        seconds=$(wall /usr/bin/time -f %M -o "$rss_report" "$BIN" time "$file" --repeat 1)
        once_best=$(awk -v a="$seconds" -v b="$once_best" 'BEGIN { a *= 1000; print (b == "" || a < b) ? a : b }')
        peak_kb=$(awk -v a="$(cat "$rss_report")" -v b="$peak_kb" 'BEGIN { print (a > b) ? a : b }')
        rm -f "$rss_report"
    done
    echo "   smfplay once: best_ms=$once_best peak_rss_kb=$peak_kb (baseline $baseline_kb)" >&2

    smf_notes=$(field notes "$smf")
    sym_notes=$(field notes "$sym")
    [ "$smf_notes" = "$notes" ] || failures+=("smfplay read $smf_notes notes from $file, expected $notes")
    [ "$sym_notes" = "$notes" ] || failures+=("symusic read $sym_notes notes from $file, expected $notes")
    [ "$(field warnings "$smf")" = 0 ] || failures+=("smfplay gave warnings on $file")

    row=$(awk -v notes="$notes" -v bytes="$bytes" \
        -v smf="$(field best_ms "$smf")" -v smfmed="$(field median_ms "$smf")" \
        -v sym="$(field best_ms "$sym")" -v symmed="$(field median_ms "$sym")" \
        -v csv="$csv_best" -v once="$once_best" -v peak="$peak_kb" -v base="$baseline_kb" '
        BEGIN {
            mb = bytes / 1048576
            printf "%s|%.1f|%.1f (%.1f)|%.1f (%.1f)|%.0f|%.0f|%.2f|%.1f|%.1f (%.1f)|%.2f|%.2f",
                notes, mb, smf, smfmed, sym, symmed, csv, once,
                sym / smf, csv / smf, peak / 1024, base / 1024,
                (peak - base) * 1024 / bytes, peak * 1024 / bytes
        }')
    rows+=("$row")
    IFS='|' read -r _ _ _ _ _ _ sym_ratio csv_ratio _ mem_ratio _ <<<"$row"
    awk -v r="$sym_ratio" -v m="$MIN_SYMUSIC_RATIO" 'BEGIN { exit !(r >= m) }' ||
        failures+=("$notes notes: symusic / smfplay = $sym_ratio, target >= $MIN_SYMUSIC_RATIO")
    awk -v r="$csv_ratio" -v m="$MIN_MIDICSV_RATIO" 'BEGIN { exit !(r >= m) }' ||
        failures+=("$notes notes: midicsv / smfplay = $csv_ratio, target >= $MIN_MIDICSV_RATIO")
    awk -v r="$mem_ratio" -v m="$MAX_MEMORY_RATIO" 'BEGIN { exit !(r < m) }' ||
        failures+=("$notes notes: reader memory / file size = $mem_ratio, target < $MAX_MEMORY_RATIO")
done

echo
echo "smfplay parse benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "smfplay: read + Song.duration in-process, best (median) of $SMF_REPEAT; symusic $(python3 -c 'import symusic; print(symusic.__version__)'): Score(path) in-process, best (median) of $SYMUSIC_REPEAT;"
echo "midicsv: whole process to /dev/null, best of $MIDICSV_REPEAT; smfplay 1 run: the bench process parsing once, whole process, best of $MIDICSV_REPEAT."
echo "load average at start: $load_at_start"
echo
echo "| notes | file MB | smfplay ms | symusic ms | midicsv ms | smfplay 1 run, whole process ms | symusic / smfplay | midicsv / smfplay | peak RSS MB (baseline) | (peak - baseline) / file | peak / file |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in "${rows[@]}"; do echo "| ${row//|/ | } |"; done
echo
echo "targets: symusic / smfplay >= $MIN_SYMUSIC_RATIO, midicsv / smfplay >= $MIN_MIDICSV_RATIO, (peak - baseline) / file < $MAX_MEMORY_RATIO"
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "all targets met"
