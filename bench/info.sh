#!/usr/bin/env bash
# The info benchmark: `smfplay info` on a dense file against symusic's Score(path), side by side.
#
#   bench/info.sh            # build, generate, time, print the table; non-zero if a target is missed
#
# Builds the release smfplay and bench binary, installs what is missing (symusic with pip, GNU
# time with apt-get), generates the 2,000,000-note benchmark file of bench/parse.sh into
# bench/out/ and times, alternating, $INFO_REPEAT runs of each:
#   - smfplay: `smfplay info FILE > /dev/null`, the whole process (read, summary, lyrics, report)
#   - symusic: Score(path) in-process in Python (bench/symusic_parse.py --repeat 1), which leaves
#     out Python's start and symusic's import: the stricter comparison for smfplay
# and the peak RSS of `smfplay info FILE`. Medians.
# Targets: smfplay / symusic <= 1.0 in time; peak RSS < 5 x the file's size.
#
# Environment: INFO_REPEAT (5), BENCH_NOTES (2000000), BENCH_OUT (bench/out), BENCH_SCRATCH (unset: .build).
set -euo pipefail
cd "$(dirname "$0")/.."

INFO_REPEAT=${INFO_REPEAT:-5}
NOTES=${BENCH_NOTES:-2000000}
OUT=${BENCH_OUT:-bench/out}
MAX_TIME_RATIO=1.0
MAX_MEMORY_RATIO=5

# shellcheck source=bench/common.sh
source bench/common.sh

install_symusic
install_missing time

build_release smfplay smfplay-parse-bench
SMFPLAY="$BIN_DIR/smfplay"
GENERATOR="$BIN_DIR/smfplay-parse-bench"

mkdir -p "$OUT"
file="$OUT/parse-$NOTES.mid"
say "generating $file"
"$GENERATOR" generate "$file" --notes "$NOTES" >&2
bytes=$(stat -c %s "$file")
cat "$file" >/dev/null # in the page cache for both
"$SMFPLAY" info "$file" >/dev/null || { echo "smfplay info failed on $file" >&2; exit 1; }
note_load

field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

smf_times=()
sym_times=()
peaks=()
for run in $(seq "$INFO_REPEAT"); do
    say "run $run of $INFO_REPEAT"
    report=$(mktemp)
    start=$(date +%s%N)
    /usr/bin/time -f %M -o "$report" "$SMFPLAY" info "$file" >/dev/null
    end=$(date +%s%N)
    smf_times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')")
    peaks+=("$(cat "$report")")
    rm -f "$report"
    sym=$(python3 bench/symusic_parse.py "$file" --repeat 1)
    sym_times+=("$(field best_ms "$sym")")
done

smf=$(printf '%s\n' "${smf_times[@]}" | median)
sym=$(printf '%s\n' "${sym_times[@]}" | median)
peak_kb=$(printf '%s\n' "${peaks[@]}" | median)
ratio=$(awk -v a="$smf" -v b="$sym" 'BEGIN { printf "%.2f", a / b }')
memory=$(awk -v p="$peak_kb" -v f="$bytes" 'BEGIN { printf "%.2f", p * 1024 / f }')

echo
echo "smfplay info benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); load average at start: $load_at_start"
echo "smfplay: \`smfplay info FILE\`, whole process; symusic $(python3 -c 'import symusic; print(symusic.__version__)'): Score(path) in-process; medians of $INFO_REPEAT, alternating."
echo
echo "| notes | file MB | smfplay info ms (runs) | symusic Score ms (runs) | smfplay / symusic | smfplay peak RSS MB | peak / file |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
printf '| %s | %.1f | %s (%s) | %s (%s) | %s | %.1f | %s |\n' "$NOTES" "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')" \
    "$smf" "${smf_times[*]}" "$sym" "${sym_times[*]}" "$ratio" "$(awk -v p="$peak_kb" 'BEGIN { print p / 1024 }')" "$memory"
echo
echo "targets: smfplay / symusic <= $MAX_TIME_RATIO, peak / file < $MAX_MEMORY_RATIO"
failures=()
awk -v r="$ratio" -v m="$MAX_TIME_RATIO" 'BEGIN { exit !(r <= m) }' || failures+=("smfplay info takes $ratio x symusic's Score(path), target <= $MAX_TIME_RATIO")
awk -v r="$memory" -v m="$MAX_MEMORY_RATIO" 'BEGIN { exit !(r < m) }' || failures+=("smfplay info's peak RSS is $memory x the file, target < $MAX_MEMORY_RATIO")
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "all targets met"
