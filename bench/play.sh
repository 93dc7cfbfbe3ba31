#!/usr/bin/env bash
# The play benchmark: `smfplay play` against `fluidsynth -a pulseaudio`, through a PulseAudio
# null sink, side by side in one run.
#
#   bench/play.sh             # build, play, print the table; non-zero if a target is missed
#   BENCH_PARTS=start bench/play.sh     # only part 2 (parts: cpu start underruns memory dense bank)
#
# This script only prepares: it installs what is missing (pulseaudio, pulseaudio-utils,
# fluidsynth, fluid-soundfont-gm, timgm6mb-soundfont, openttd-openmsx and midicsv, with
# apt-get), builds the release smfplay (see bench/common.sh: BENCH_SCRATCH, BENCH_BUILD_FLAGS,
# BENCH_BIN_DIR) and starts a private PulseAudio server with one null sink at 44100 Hz, which
# both programs play to through PULSE_SERVER. bench/play_measure.py plays and measures: its
# docstrings say what is measured and how (1. CPU, 2. time to first sound, 3. underruns,
# 4. memory on a dense file, 5. a song too dense for one core, 6. first sound of a song with its
# own sound bank), its targets, and the BENCH_*
# settings it reads.
set -euo pipefail
cd "$(dirname "$0")/.."

RATE=44100

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing pulseaudio pulseaudio-utils fluidsynth fluid-soundfont-gm timgm6mb-soundfont openttd-openmsx midicsv
build_release smfplay smfplay-parse-bench

make_work_folder play-bench

start_null_sink "$WORK" "$RATE"
note_load
python3 bench/play_measure.py --bin-dir "$BIN_DIR" --work "$WORK" --pulse-pid "$PULSE_PID" --rate "$RATE" \
    --load-at-start "$load_at_start"
