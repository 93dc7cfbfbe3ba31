#!/usr/bin/env bash
# The archives benchmark: songs read out of ZIP and LZH archives against the same files unpacked,
# side by side in one run. (a) `smfplay index` of a library of 1,000 ZIP packs (the demo library
# zipped 1,000 times: 7,000 songs) against the same 7,000 files unpacked, in files a second;
# (b) `smfplay play pack.lzh` (one song in an LZH archive) against `smfplay play` of the unpacked
# file, time to the first sound at a null sink.
#
#   bench/archives.sh        # build, make the archives, time, print the table; non-zero if a target is missed
#
# This script only prepares: it installs what is missing (apt-get), builds the release smfplay
# (see bench/common.sh: BENCH_SCRATCH, BENCH_BUILD_FLAGS, BENCH_BIN_DIR) and starts a private
# PulseAudio server with one null sink at 44100 Hz. bench/archives_measure.py makes the archives
# and measures: its docstrings say how, and its targets.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing openttd-openmsx python3 pulseaudio pulseaudio-utils timgm6mb-soundfont midicsv
build_release smfplay
make_work_folder archives-bench
start_null_sink "$WORK" 44100
note_load
python3 bench/archives_measure.py --bin-dir "$BIN_DIR" --work "$WORK" --load-at-start "$load_at_start"
