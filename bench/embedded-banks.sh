#!/usr/bin/env bash
# The embedded-bank render benchmark: RMID files that carry their own sound bank, rendered by
# `smfplay render` against `fluidsynth -F` given the same bank on its command line, side by side
# in one run.
#
#   bench/embedded-banks.sh   # build, time, print the table; non-zero if a target is missed
#
# Builds the release smfplay (see bench/common.sh: BENCH_SCRATCH, BENCH_BUILD_FLAGS, BENCH_BIN_DIR),
# installs what is missing (fluidsynth, fluid-soundfont-gm, timgm6mb-soundfont, openttd-openmsx,
# GNU time, util-linux's taskset), then wraps BENCH_FILES songs of BENCH_CORPUS (default 8 of
# openttd-openmsx, in name order) each in an RMID file with TimGM6mb (6 MB) embedded at bank
# offset 0 (its presets in place of the stack's: the SF2-RMIDI layout, bench/rmid.py), and
# renders them at 44100 Hz, 16-bit WAV, gain 0.16, with FluidR3_GM as the stack, BENCH_REPEAT
# times (default 3), each round in another order; medians:
#   (1) one song on one core: taskset -c 0 smfplay render SONG.rmi against
#         taskset -c 0 fluidsynth -ni -F OUT.wav -r 44100 -g 0.16 FluidR3_GM.sf2 TimGM6mb.sf2 SONG.mid
#       (fluidsynth searches the last SoundFont loaded first: the same presets play);
#   (2) all the songs on every core: smfplay render FOLDER (its default: one job per core) against
#       the same fluidsynth commands, one per core at a time (xargs -P $(nproc)).
# Wall time is the whole process, SoundFonts loaded included. smfplay loads each song's bank for
# that song (FluidR3_GM's samples come from FluidSynth's cache after the first); fluidsynth loads
# both SoundFonts once per process, as a user of it would run it.
# Targets: fluidsynth / smfplay >= 1.0 in (1) and in (2).
#
# Environment: BENCH_OUT (bench/out/embedded-banks), BENCH_CORPUS, BENCH_FILES (8), BENCH_REPEAT (3).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/embedded-banks}
CORPUS=${BENCH_CORPUS:-/usr/share/games/openttd/baseset/openmsx}
FILES=${BENCH_FILES:-8}
REPEAT=${BENCH_REPEAT:-3}
STACK=/usr/share/sounds/sf2/FluidR3_GM.sf2
BANK=/usr/share/sounds/sf2/TimGM6mb.sf2
RATE=44100
GAIN=0.16
MIN_RATIO=1.0

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing fluidsynth time fluid-soundfont-gm timgm6mb-soundfont openttd-openmsx util-linux
build_release smfplay
BIN="$BIN_DIR/smfplay"

rm -rf "$OUT"
mkdir -p "$OUT/songs" "$OUT/rmid" "$OUT/smfplay" "$OUT/fluidsynth"
export XDG_CONFIG_HOME="$OUT/config"
mkdir -p "$XDG_CONFIG_HOME"
find "$CORPUS" -maxdepth 1 -name '*.mid' | sort | head -n "$FILES" | while read -r song; do cp "$song" "$OUT/songs/"; done
[ "$(find "$OUT/songs" -name '*.mid' | wc -l)" -eq "$FILES" ] || { echo "$CORPUS has fewer than $FILES songs: run \`make deps\` (openttd-openmsx)" >&2; exit 1; }
for song in "$OUT"/songs/*.mid; do
    name=$(basename "$song" .mid)
    python3 bench/rmid.py "$song" "$BANK" 0 "$OUT/rmid/$name.rmi"
done
first=$(find "$OUT/rmid" -name '*.rmi' | sort | head -n 1)
first_song="$OUT/songs/$(basename "$first" .rmi).mid"

smfplay_render=("$BIN" render --soundfont "$STACK" --sample-rate "$RATE" --gain "$GAIN" --bits 16 --quiet --force)
# fluidsynth on every song, one process per core at a time: a script, so that `measure` times the
# whole pipeline.
cat >"$OUT/fluidsynth-all.sh" <<SCRIPT
#!/bin/sh
find "$OUT/songs" -name '*.mid' -print0 | xargs -0 -P $(nproc) -n 1 sh -c \
    'exec fluidsynth -ni -r $RATE -g $GAIN -F "$OUT/fluidsynth/\$(basename "\$0" .mid).wav" "$STACK" "$BANK" "\$0"'
SCRIPT
chmod +x "$OUT/fluidsynth-all.sh"
declare -A commands=(
    [one]="taskset -c 0 ${smfplay_render[*]@Q} ${first@Q} -o $OUT/smfplay/one.wav"
    [fluidsynth_one]="taskset -c 0 fluidsynth -ni -r $RATE -g $GAIN -F $OUT/fluidsynth/one.wav ${STACK@Q} ${BANK@Q} ${first_song@Q}"
    [all]="${smfplay_render[*]@Q} ${OUT@Q}/rmid -o $OUT/smfplay/all"
    [fluidsynth_all]="${OUT@Q}/fluidsynth-all.sh"
)
declare -A times
cat "$STACK" "$BANK" "$OUT"/rmid/* "$OUT"/songs/* >/dev/null # in the page cache for all
note_load

say "$FILES songs with TimGM6mb embedded, over $(basename "$STACK"), $REPEAT rounds"
orders=("one fluidsynth_one all fluidsynth_all" "fluidsynth_all all fluidsynth_one one" "all one fluidsynth_all fluidsynth_one")
for ((round = 0; round < REPEAT; round++)); do
    for name in ${orders[round % 3]}; do
        read -r seconds _ <<<"$(eval "measure ${commands[$name]}")"
        times[$name]+="$seconds "
        printf '   round %d  %-16s %7.3f s\n' $((round + 1)) "$name" "$seconds" >&2
    done
done

declare -A medians
for name in "${!times[@]}"; do medians[$name]=$(tr ' ' '\n' <<<"${times[$name]}" | grep . | median); done
ratio_one=$(ratio fluidsynth_one one)
ratio_all=$(ratio fluidsynth_all all)
failures=()
check "$ratio_one" "$MIN_RATIO" "(1) one song, one core: fluidsynth / smfplay"
check "$ratio_all" "$MIN_RATIO" "(2) $FILES songs, every core: fluidsynth / smfplay"

echo
echo "smfplay embedded-bank render benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(fluidsynth --version | sed -n 's/^FluidSynth runtime version /FluidSynth /p')"
echo "$FILES songs of $(basename "$CORPUS") as RMID files with $(basename "$BANK") embedded (offset 0), over $(basename "$STACK"); $RATE Hz, 16-bit WAV, gain $GAIN; medians of $REPEAT."
echo "load average at start: $load_at_start, at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
echo "| run | smfplay s | fluidsynth s | fluidsynth's / smfplay's | target |"
echo "|---|---:|---:|---:|---:|"
echo "| (1) $(basename "$first"), one core | ${medians[one]} | ${medians[fluidsynth_one]} | $ratio_one | >= $MIN_RATIO |"
echo "| (2) $FILES songs, $(nproc) cores | ${medians[all]} | ${medians[fluidsynth_all]} | $ratio_all | >= $MIN_RATIO |"
echo
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "all targets met"
