#!/usr/bin/env bash
# The soak benchmark: a day of play, measured. `smfplay play --shuffle --repeat all` plays a
# library for a given time through a PulseAudio null sink at real time, `fluidsynth -a
# pulseaudio` plays the same songs beside it, and every process is sampled as it goes: memory
# (RSS), open file descriptors and threads; for smfplay also the drift of the heard position
# (MPRIS, through a private D-Bus session and playerctl) against the clock of the sound played
# (the null sink's monitor, recorded: it runs some tens of ppm off the system clock, as a sound
# card's does).
#
#   bench/soak.sh                          # 60 minutes of Debian's openmsx songs at real time
#   SOAK_MINUTES=5 bench/soak.sh           # shorter
#   SOAK_FAST=1 SOAK_MINUTES=10 bench/soak.sh   # 200 songs of 6-12 s at --tempo 4: a song change every 2-3 s
#
# Targets (bench/soak_measure.py): smfplay's RSS grows by at most 5 MB after the warm-up (the
# first tenth of the run, 2 minutes at least; medians of 2-minute windows), its descriptors and
# threads not at all (the median of the last third is no more than that of the first third after
# warm-up: what comes and goes with a song is no leak), and the heard
# position drifts from the sound by less than 50 ms an hour (real-time runs only: at
# --tempo 4 songs last too little for a slope). Exit status 1 when one is missed. fluidsynth's
# figures are for comparison, with no target.
#
# Environment: SOAK_MINUTES (60), SOAK_FAST (unset), SOAK_SAMPLE_SECONDS (every metric: 10;
# the position is read every second), SOAK_PEER (1: fluidsynth beside it; 0: smfplay alone, as
# `make test` runs the fast variant), BENCH_SOUNDFONT (FluidR3_GM.sf2), BENCH_BIN_DIR (see
# bench/common.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

RATE=44100

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing pulseaudio pulseaudio-utils fluidsynth fluid-soundfont-gm openttd-openmsx dbus-daemon dbus-bin playerctl
build_release smfplay

make_work_folder soak

start_null_sink "$WORK" "$RATE"
note_load
python3 bench/soak_measure.py --bin-dir "$BIN_DIR" --work "$WORK" --load-at-start "$load_at_start" --rate "$RATE" --monitor bench_null.monitor
