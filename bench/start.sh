#!/usr/bin/env bash
# The start benchmark: how long the commands that make no sound take, whole process, against
# /bin/true (the cost of starting any program) and, given BENCH_BASELINE, another smfplay binary
# (say the one before a change), side by side in one run.
#
#   bench/start.sh                                    # build, time, print the table; non-zero if a target is missed
#   BENCH_BASELINE=/tmp/old/smfplay bench/start.sh    # the same, with another binary beside it
#
# bench/start_measure.py runs each command START_REPEAT times (default 101), alternating the
# programs, each started with posix_spawn and reaped with wait4 (its own peak RSS), and prints
# medians and 95th percentiles. The song is the demo library's Invention No. 1 (a typical file).
# Targets (issue 36): `--version` <= 5 ms and its peak RSS <= 10 MB; `info` <= 10 ms;
# `thumbnail` <= 15 ms. bench/library.sh measures search.
#
# Environment: START_REPEAT, BENCH_BASELINE, and common.sh's BENCH_SCRATCH, BENCH_BIN_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing time
build_release smfplay
note_load
exec python3 bench/start_measure.py --smfplay "$BIN_DIR/smfplay" ${BENCH_BASELINE:+--baseline "$BENCH_BASELINE"} \
    --song "Examples/Library/Bach/Inventions/Invention No.1 BWV 772.mid" --repeat "${START_REPEAT:-101}" --load "$load_at_start"
