#!/usr/bin/env bash
# The one-song benchmark: one long song rendered by `smfplay render`, split across the cores by
# channel, against `fluidsynth -F` and `fluidsynth -o synth.cpu-cores=2 -F`, side by side in one run.
#
#   bench/one-song.sh         # build, time, print the table; non-zero if a target is missed
#
# Builds the release smfplay (in the default .build folder unless BENCH_SCRATCH says otherwise),
# installs what is missing (fluidsynth, fluid-soundfont-gm, openttd-openmsx, GNU time, util-linux's
# taskset), then renders BENCH_SONG (default keep_on_rolling.mid of openttd-openmsx: 196 s, the
# corpus's busiest) with FluidR3_GM at 44100 Hz, 16-bit WAV, gain 0.16 (smfplay's default) and
# each program's default effects (the same: reverb and chorus on), BENCH_REPEAT times (default 3),
# each round in another order, and takes medians:
#   (1) on every core: smfplay render SONG --jobs 2 (the song split across 2 synthesizers) against
#         fluidsynth -ni -F OUT.wav -r 44100 -g 0.16 FluidR3_GM.sf2 SONG                 and
#         fluidsynth -ni -o synth.cpu-cores=2 -F OUT.wav -r 44100 -g 0.16 FluidR3_GM.sf2 SONG;
#   (2) on one core (taskset -c 0): smfplay render SONG (its default, one job per core it may use,
#       so one synthesizer) against fluidsynth -ni -F as in (1).
# Wall time is the whole process, SoundFont loading included; peak RSS from GNU time.
# Targets: (1) fluidsynth / smfplay >= 1.8 and fluidsynth cpu-cores=2 / smfplay
# >= 1.3 (on 2 cores); (2) fluidsynth / smfplay >= 1.0; and the split's memory: smfplay --jobs 2's
# peak RSS less smfplay's on one core < 25% of the SoundFont's size (the samples are shared by
# the synthesizers, not loaded twice).
#
# Environment: BENCH_OUT (bench/out/one-song), BENCH_SCRATCH (unset: .build), BENCH_BUILD_FLAGS,
# BENCH_SONG, BENCH_SOUNDFONT (FluidR3_GM.sf2), BENCH_REPEAT (3).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/one-song}
SONG=${BENCH_SONG:-/usr/share/games/openttd/baseset/openmsx/keep_on_rolling.mid}
SOUNDFONT=${BENCH_SOUNDFONT:-/usr/share/sounds/sf2/FluidR3_GM.sf2}
REPEAT=${BENCH_REPEAT:-3}
RATE=44100
GAIN=0.16

MIN_RATIO_FLUIDSYNTH=1.8
MIN_RATIO_FLUIDSYNTH_CORES=1.3
MIN_RATIO_ONE_CORE=1.0
MAX_SPLIT_MEMORY_SHARE=0.25

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing fluidsynth time fluid-soundfont-gm openttd-openmsx util-linux
build_release smfplay
BIN="$BIN_DIR/smfplay"
[ -f "$SONG" ] || { echo "$SONG is missing: run \`make deps\` (openttd-openmsx)" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "this benchmark needs 2 cores, the machine has $(nproc)" >&2; exit 1; }

rm -rf "$OUT"
mkdir -p "$OUT"
export XDG_CONFIG_HOME="$OUT/config"
mkdir -p "$XDG_CONFIG_HOME"


smfplay_render=("$BIN" render --soundfont "$SOUNDFONT" --sample-rate "$RATE" --gain "$GAIN" --bits 16 --quiet --force "$SONG")
fluidsynth_render=(fluidsynth -ni -r "$RATE" -g "$GAIN")
declare -A commands=(
    [split]="${smfplay_render[*]@Q} --jobs 2 -o $OUT/split.wav"
    [fluidsynth]="${fluidsynth_render[*]@Q} -F $OUT/fluidsynth.wav ${SOUNDFONT@Q} ${SONG@Q}"
    [fluidsynth_cores]="${fluidsynth_render[*]@Q} -o synth.cpu-cores=2 -F $OUT/fluidsynth-cores.wav ${SOUNDFONT@Q} ${SONG@Q}"
    [one_core]="taskset -c 0 ${smfplay_render[*]@Q} -o $OUT/one-core.wav"
    [fluidsynth_one_core]="taskset -c 0 ${fluidsynth_render[*]@Q} -F $OUT/fluidsynth-one-core.wav ${SOUNDFONT@Q} ${SONG@Q}"
)
declare -A times memory
cat "$SOUNDFONT" "$SONG" >/dev/null # in the page cache for all
note_load

say "$(basename "$SONG"), $REPEAT rounds"
orders=("split fluidsynth fluidsynth_cores one_core fluidsynth_one_core" "fluidsynth_cores fluidsynth_one_core split fluidsynth one_core"
        "fluidsynth one_core fluidsynth_one_core fluidsynth_cores split")
for ((round = 0; round < REPEAT; round++)); do
    for name in ${orders[round % 3]}; do
        read -r seconds kb _ <<<"$(eval "measure ${commands[$name]}")"
        times[$name]+="$seconds "
        memory[$name]=$kb
        printf '   round %d  %-20s %7.3f s %7.1f MB\n' $((round + 1)) "$name" "$seconds" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" >&2
    done
done

declare -A medians
for name in "${!times[@]}"; do medians[$name]=$(tr ' ' '\n' <<<"${times[$name]}" | grep . | median); done
ratio_fluidsynth=$(ratio fluidsynth split)
ratio_cores=$(ratio fluidsynth_cores split)
ratio_one_core=$(ratio fluidsynth_one_core one_core)
soundfont_kb=$(($(stat -c %s "$SOUNDFONT") / 1024))
split_extra_kb=$((memory[split] - memory[one_core]))
memory_share=$(awk -v e="$split_extra_kb" -v s="$soundfont_kb" 'BEGIN { printf "%.2f", e / s }')

failures=()
check "$ratio_fluidsynth" "$MIN_RATIO_FLUIDSYNTH" "(1) fluidsynth / smfplay"
check "$ratio_cores" "$MIN_RATIO_FLUIDSYNTH_CORES" "(1) fluidsynth cpu-cores=2 / smfplay"
check "$ratio_one_core" "$MIN_RATIO_ONE_CORE" "(2) one core: fluidsynth / smfplay"
awk -v r="$memory_share" -v m="$MAX_SPLIT_MEMORY_SHARE" 'BEGIN { exit !(r < m) }' ||
    failures+=("the split's extra memory = $memory_share of the SoundFont, target < $MAX_SPLIT_MEMORY_SHARE")

mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
echo
echo "smfplay one-song benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(fluidsynth --version | sed -n 's/^FluidSynth runtime version /FluidSynth /p')"
echo "$(basename "$SONG"), $(basename "$SOUNDFONT") ($(mb "$soundfont_kb") MB), $RATE Hz, 16-bit WAV, gain $GAIN, default reverb and chorus; medians of $REPEAT."
echo "load average at start: $load_at_start, at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
echo "| run | wall s (median) | peak RSS MB | fluidsynth's / smfplay's | target |"
echo "|---|---:|---:|---:|---:|"
echo "| (1) smfplay render --jobs 2 (split) | ${medians[split]} | $(mb "${memory[split]}") | | |"
echo "| (1) fluidsynth -F | ${medians[fluidsynth]} | $(mb "${memory[fluidsynth]}") | $ratio_fluidsynth | >= $MIN_RATIO_FLUIDSYNTH |"
echo "| (1) fluidsynth -o synth.cpu-cores=2 -F | ${medians[fluidsynth_cores]} | $(mb "${memory[fluidsynth_cores]}") | $ratio_cores | >= $MIN_RATIO_FLUIDSYNTH_CORES |"
echo "| (2) taskset -c 0 smfplay render | ${medians[one_core]} | $(mb "${memory[one_core]}") | | |"
echo "| (2) taskset -c 0 fluidsynth -F | ${medians[fluidsynth_one_core]} | $(mb "${memory[fluidsynth_one_core]}") | $ratio_one_core | >= $MIN_RATIO_ONE_CORE |"
echo
echo "the split's extra memory: $(mb "$split_extra_kb") MB, $memory_share of the SoundFont (target < $MAX_SPLIT_MEMORY_SHARE)"
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "all targets met"
