#!/usr/bin/env bash
# The limiter's cost: what the look-ahead peak limiter adds to rendering, per second of audio, counted
# in instructions (valgrind's callgrind: the same count for the same binary and input, whatever else
# the machine is doing, so a fraction of a percent is measurable on a busy machine).
#
#   bench/limiter.sh       # build, count, print the table; non-zero if the limiter costs 1% or more
#
# Builds the release smfplay (BENCH_SCRATCH as in bench/common.sh) and renders one song of the
# openttd-openmsx corpus (BENCH_SONG, ultimate_run.mid) with TimGM6mb at 44100 Hz, 16-bit WAV, at
# the default gain (0.16: the limiter only watches) and at a gain that makes it work (BENCH_GAIN, 2),
# with and without --no-limiter, each under callgrind; the limiter's cost is the difference, per
# second of audio and as a part of the render. Target: under 3 % of the render at the default gain
# (the bound for the whole change to rendering), on TimGM6mb, the lightest SoundFont to render.
# Environment: BENCH_OUT (bench/out/limiter), BENCH_SONG, BENCH_GAIN, BENCH_SCRATCH, BENCH_BUILD_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/limiter}
SONG=${BENCH_SONG:-/usr/share/games/openttd/baseset/openmsx/ultimate_run.mid}
GAIN=${BENCH_GAIN:-2}
# Rendering may become at most 3 % slower with the sound module and the limiter.
MAX_SHARE_PERCENT=3

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing valgrind binutils timgm6mb-soundfont openttd-openmsx
build_release smfplay

rm -rf "$OUT"
mkdir -p "$OUT/config"
# Valgrind 3.19 cannot read the debug information of Swift 6's binaries: count a copy without it.
BIN="$OUT/smfplay"
strip --strip-debug -o "$BIN" "$BIN_DIR/smfplay"
export XDG_CONFIG_HOME="$(cd "$OUT" && pwd)/config"

count() {  # the instructions of one render, with the options given
    valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" "$BIN" render "$SONG" -o "$OUT/song.wav" \
        --soundfont /usr/share/sounds/sf2/TimGM6mb.sf2 --force --quiet "$@" >/dev/null 2>"$OUT/valgrind.log"
    grep -o 'Collected : [0-9]*' "$OUT/valgrind.log" | grep -o '[0-9]*'
}

# At the default gain the song stays under the ceiling (the limiter only watches); at BENCH_GAIN it
# is turned down (the limiter works).
echo
echo "limiter benchmark, $(date -u +%Y-%m-%d): $(basename "$SONG") at 44100 Hz, TimGM6mb, instructions counted by callgrind"
echo
echo "| gain | limited by | render | render, --no-limiter | the limiter | per second of audio | per frame | part of the render |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
status=0
for gain in 0.16 "$GAIN"; do
    say "rendering $(basename "$SONG") at gain $gain under callgrind, with and without the limiter"
    report=$("$BIN" render "$SONG" -o "$OUT/song.wav" --soundfont /usr/share/sounds/sf2/TimGM6mb.sf2 --gain "$gain" --force --json 2>/dev/null)
    reduction=$(grep -o '"limiterReductionDecibels":[0-9.]*' <<< "$report" | cut -d : -f 2)
    seconds=$(grep -o '"seconds":[0-9.]*' <<< "$report" | cut -d : -f 2)
    with=$(count --gain "$gain")
    without=$(count --gain "$gain" --no-limiter)
    awk -v gain="$gain" -v reduction="$reduction" -v with="$with" -v without="$without" -v seconds="$seconds" -v max="$MAX_SHARE_PERCENT" \
        -v check="$([ "$gain" = 0.16 ] && echo 1 || echo 0)" 'BEGIN {
        cost = with - without
        share = 100 * cost / without
        printf "| %s | %s dB | %.0f | %.0f | %.0f | %.0f | %.1f | %.2f %% |\n", gain, reduction, with, without, cost, cost / seconds, cost / seconds / 44100, share
        if (check && share >= max) { print "MISSED: at the default gain the limiter costs " share " % of the render (target < " max " %)" > "/dev/stderr"; exit 1 }
    }' || status=1
done
exit $status
