#!/usr/bin/env bash
# The library benchmark: what a library of 100,000 MIDI files costs smfplay. `smfplay index` and
# `smfplay search` (with `find -iname` side by side), `smfplay play LIBRARY --shuffle` (with one
# file and fluidsynth side by side), `smfplay browse` of a 5,000-file folder (with `ls` side by
# side), and what the resume state costs while the whole library is queued.
#
#   bench/library.sh                                  # build, generate, time, print the tables
#   BENCH_PARTS="play resume" bench/library.sh        # only some parts (index search play browse resume)
#
# The exit status is non-zero, and a line "MISSED: ..." says why, when a target is missed.
#
# This script only prepares: it installs what the parts chosen need and is missing (apt-get),
# builds the release smfplay (see bench/common.sh: BENCH_SCRATCH, BENCH_BUILD_FLAGS,
# BENCH_BIN_DIR) and, for parts play and resume, starts a private PulseAudio server with one null
# sink at 44100 Hz. bench/library_measure.py makes the library and measures: its docstrings say
# what is measured and how in each part ((a) and (b) index, (c) search, (d) play, (e) browse,
# (f) resume), its targets, and the BENCH_* settings it reads.
set -euo pipefail
cd "$(dirname "$0")/.."

PARTS=" ${BENCH_PARTS:-index search play browse resume} "

# shellcheck source=bench/common.sh
source bench/common.sh

for name in $PARTS; do
    case $name in
        index | search | play | browse | resume) ;;
        *) echo "unknown part in BENCH_PARTS: $name (parts: index search play browse resume)" >&2; exit 2 ;;
    esac
done
part() { [[ "$PARTS" == *" $1 "* ]]; }

packages=(openttd-openmsx python3)
if part play || part resume; then packages+=(pulseaudio pulseaudio-utils); fi
if part play; then packages+=(fluidsynth timgm6mb-soundfont midicsv); fi
if part browse; then packages+=(tmux); fi
install_missing "${packages[@]}"
build_release smfplay

make_work_folder library-bench

# (44100 Hz: the rate bench/library_measure.py records the sink's monitor at.)
if part play || part resume; then start_null_sink "$WORK" 44100; fi
note_load
python3 bench/library_measure.py --bin-dir "$BIN_DIR" --work "$WORK" --load-at-start "$load_at_start"
