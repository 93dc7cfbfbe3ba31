#!/usr/bin/env bash
# The loudness benchmark: how far apart real songs are as they render, how close `render
# --normalize` brings them, and what measuring costs, in one run.
#
#   bench/loudness.sh   # build, render, measure, print the table; non-zero if a target is missed
#
# Builds the release smfplay (see bench/common.sh: BENCH_SCRATCH, BENCH_BUILD_FLAGS, BENCH_BIN_DIR),
# installs what is missing (ffmpeg, fluid-soundfont-gm, openttd-openmsx, GNU time), copies the
# collection (Debian's openttd-openmsx songs and the demo library, Examples/Library) into a
# library folder, and with FluidR3_GM at the default gain:
#   (1) spread: `smfplay render LIBRARY --json`, each file's integrated loudness as smfplay reports
#       it; then `smfplay render LIBRARY --normalize` (target -18 LUFS), each written file measured
#       by ffmpeg's ebur128 filter (an independent meter). Spread = loudest - quietest, in LU.
#   (2) cost, all cores, BENCH_REPEAT rounds (default 3), medians: `smfplay index --loudness` on
#       the library (an empty index each time: every song measured) against `smfplay render` of
#       the same library into WAV files (--force), both on every core, in alternating order.
# Targets: spread with --normalize <= 1 LU, its true peaks <= -1 dBTP; measuring costs no more than rendering
# (render's seconds / index --loudness's seconds >= 1.0).
#
# Environment: BENCH_OUT (bench/out/loudness), BENCH_REPEAT (3).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/loudness}
REPEAT=${BENCH_REPEAT:-3}
CORPUS=/usr/share/games/openttd/baseset/openmsx
SOUNDFONT=/usr/share/sounds/sf2/FluidR3_GM.sf2
MAX_SPREAD=1.0
MIN_RATIO=1.0

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing ffmpeg time fluid-soundfont-gm openttd-openmsx
build_release smfplay
BIN="$BIN_DIR/smfplay"

rm -rf "$OUT"
mkdir -p "$OUT/library/openmsx" "$OUT/config/smfplay"
# Absolute: the XDG folders below must be (a relative one is ignored, as the XDG spec says).
OUT="$(cd "$OUT" && pwd)"
cp "$CORPUS"/*.mid "$OUT/library/openmsx/"
cp -r Examples/Library "$OUT/library/demo"
LIBRARY="$(cd "$OUT/library" && pwd)"
songs=$(find "$LIBRARY" -name '*.mid' | wc -l)
export XDG_CONFIG_HOME="$OUT/config" XDG_DATA_HOME="$OUT/data" XDG_CACHE_HOME="$OUT/cache"
printf 'soundfont = "%s"\n' "$SOUNDFONT" >"$XDG_CONFIG_HOME/smfplay/config.toml"
cat "$SOUNDFONT" >/dev/null # in the page cache

# The spread of the numbers on standard input (one a line): max - min, to 2 places.
spread() { sort -g | awk 'NR == 1 { low = $1 } { high = $1 } END { printf "%.2f", high - low }'; }

say "(1) $songs songs rendered as they are, then with --normalize"
"$BIN" render "$LIBRARY" -o "$OUT/plain" --json --quiet >"$OUT/plain.jsonl"
plain_spread=$(python3 -c 'import json,sys; [print(json.loads(l)["loudnessLUFS"]) for l in open(sys.argv[1])]' "$OUT/plain.jsonl" | spread)
"$BIN" render "$LIBRARY" -o "$OUT/normalized" --normalize --quiet
find "$OUT/normalized" -name '*.wav' | sort | while read -r file; do
    ffmpeg -nostdin -hide_banner -nostats -i "$file" -af ebur128=peak=true -f null - 2>&1 |
        awk '/Summary:/ { s = 1 } s && $1 == "I:" { i = $2 } s && $1 == "Peak:" { p = $2 } END { print i, p }'
done >"$OUT/normalized.txt"
normalized_spread=$(cut -d ' ' -f 1 "$OUT/normalized.txt" | spread)
highest_peak=$(cut -d ' ' -f 2 "$OUT/normalized.txt" | sort -g | tail -n 1)

say "(2) measuring against rendering, $REPEAT rounds"
declare -A times
for ((round = 0; round < REPEAT; round++)); do
    order=("measure" "render")
    if ((round % 2)); then order=("render" "measure"); fi
    for name in "${order[@]}"; do
        rm -rf "$XDG_DATA_HOME" "$OUT/rendered"
        if [ "$name" = measure ]; then
            read -r seconds _ <<<"$(measure "$BIN" index --library "$LIBRARY" --loudness --quiet)"
        else
            read -r seconds _ <<<"$(measure "$BIN" render "$LIBRARY" -o "$OUT/rendered" --force --quiet)"
        fi
        times[$name]+="$seconds "
        printf '   round %d  %-8s %7.3f s\n' $((round + 1)) "$name" "$seconds" >&2
    done
done
declare -A medians
for name in "${!times[@]}"; do medians[$name]=$(tr ' ' '\n' <<<"${times[$name]}" | grep . | median); done
cost_ratio=$(ratio render measure)

failures=()
awk -v s="$normalized_spread" -v m="$MAX_SPREAD" 'BEGIN { exit !(s <= m) }' || failures+=("(1) spread with --normalize = $normalized_spread LU, target <= $MAX_SPREAD")
awk -v p="$highest_peak" 'BEGIN { exit !(p <= -1.0) }' || failures+=("(1) highest true peak with --normalize = $highest_peak dBTP, target <= -1.0")
check "$cost_ratio" "$MIN_RATIO" "(2) render s / index --loudness s"

echo
echo "smfplay loudness benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); $(ffmpeg -version | head -n 1 | cut -d ' ' -f 1-3)"
echo "$songs songs: $(basename "$CORPUS") and the demo library; $(basename "$SOUNDFONT"), default gain; medians of $REPEAT."
echo
echo "| measure | value | target |"
echo "|---|---:|---:|"
echo "| (1) loudness spread as rendered (smfplay's meter) | $plain_spread LU | |"
echo "| (1) loudness spread with --normalize (ffmpeg's meter) | $normalized_spread LU | <= $MAX_SPREAD |"
echo "| (1) highest true peak with --normalize (ffmpeg) | $highest_peak dBTP | <= -1.0 |"
echo "| (2) index --loudness, $songs songs | ${medians[measure]} s | |"
echo "| (2) render to WAV, $songs songs | ${medians[render]} s | |"
echo "| (2) render s / index --loudness s | $cost_ratio | >= $MIN_RATIO |"
echo
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "all targets met"
