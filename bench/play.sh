#!/usr/bin/env bash
# The play benchmark: `smfplay play` against `fluidsynth -a pulseaudio`, through a PulseAudio
# null sink, side by side in one run.
#
#   bench/play.sh             # build, play, print the table; non-zero if a target is missed
#   BENCH_PARTS=start bench/play.sh     # only part 2 (parts: cpu start underruns memory)
#
# Builds the release smfplay (in the default .build folder unless BENCH_SCRATCH says otherwise),
# installs what is missing (pulseaudio, pulseaudio-utils, fluidsynth, fluid-soundfont-gm,
# timgm6mb-soundfont, openttd-openmsx, midicsv and GNU time, with apt-get) and starts a private
# PulseAudio server with one null sink at 44100 Hz (no sound card needed; see
# /work/shared/notes/pulseaudio-in-tests.md), which both programs play to through PULSE_SERVER.
# Each program runs with its own defaults but the same SoundFont, 44100 Hz and gain 0.16
# (smfplay's default: `--gain 0.16`, fluidsynth `-g 0.16`). smfplay reads a configuration file
# that says `sample_rate = 44100` and nothing else, and its XDG folders are empty ones of the
# benchmark's own (no user configuration, resume state or lock applies). Before each run that
# starts on an empty sink, the sink is suspended and resumed: it starts afresh, as a desktop's
# sink does when it wakes from idle (alone, the null sink renders 2 s ahead).
#
# 1. CPU. BENCH_CPU_SECONDS (30) of BENCH_CPU_SONG (default keep_on_rolling.mid of openttd-openmsx,
#    the corpus's busiest song), played from its start by
#        smfplay play --latency 50 --gain 0.16 --verbose --soundfont FluidR3_GM.sf2 SONG </dev/null
#    and by
#        fluidsynth -a pulseaudio -ni -o audio.period-size=2205 -r 44100 -g 0.16 FluidR3_GM.sf2 SONG
#    then stopped with SIGINT; the CPU is the process's user + system time 30 s after its launch
#    (/proc/PID/stat: SoundFont loading included). Twice over: with the machine idle, and with
#    one busy loop per core but one (`while :; do :; done`). BENCH_CPU_REPEAT runs (default 3)
#    of each program each time, alternating which goes first; medians. A run fails unless its
#    stream is on the null sink 3 s in and the player still runs at the end. smfplay's own
#    underrun count (what --verbose prints as it stops) is added up over all its runs.
#    Targets (from issue 15): smfplay's median CPU / fluidsynth's <= 1.0, idle and busy; no
#    underrun.
#    Why audio.period-size=2205 (BENCH_FLUIDSYNTH_PERIOD): fluidsynth's pulseaudio driver asks
#    for a buffer of one period, 64 frames (1.45 ms) by default, and the null sink grants down
#    to 0.5 ms. On this 2-core VM that cannot keep up: fluidsynth took 170 s to play a 60 s song
#    (5432gone_redfarn.mid, TimGM6mb), with 72 s of system CPU, so its CPU time says nothing about
#    synthesis. 2205 frames is 50 ms, smfplay's default latency: both streams then ask the
#    server for the same buffer, and the sink wakes as often for each. It also makes
#    fluidsynth cheaper than with its own default, so the comparison does not favour smfplay.
#
# 2. Time to first sound: from the moment the script starts `smfplay play --latency 50 --gain
#    0.16 --soundfont TimGM6mb.sf2 tiny.mid` (the clock is read just before the fork) to the
#    moment the null sink mixes its first non-silent sample. tiny.mid (written with csvmidi) is a piano chord at time 0,
#    0.5 s long. After one launch of each that is not counted (it brings the binaries and
#    libraries into the page cache, as after any earlier use), BENCH_START_REPEAT launches
#    (default 5) of each program, alternating; best, median and worst. fluidsynth is measured
#    the same way (the same command as in part 1, with TimGM6mb), for comparison (no target).
#    Targets: under 300 ms (issue 6), and no more than fluidsynth's own time in the same run
#    (issue 15); both apply to the medians.
#
#    Method. One `parec` records the sink's monitor (raw s16le, 44100 Hz, stereo,
#    --latency-msec BENCH_RECORD_LATENCY, default 10) into a file for the whole of part 2. The
#    null sink runs on the system clock and its monitor delivers frames (silence when nothing
#    plays) at that rate, so byte B of the file is the frame the sink mixed at A0 + B / 176400 s
#    (176400 = bytes a second), for an A0 that stays constant as long as the server neither
#    drops nor repeats frames. From 0.4 s before the launch until 0.3 s after the player has
#    exited, the script looks at the file's length every 5 ms (parec's file offset in
#    /proc/PID/fdinfo/1, read with bash builtins: no process is started, so the looks cost the
#    player next to nothing), and notes the clock right after each look (EPOCHREALTIME). Every
#    byte seen at time T had been delivered by then, so A0 <= T - B / 176400 for each look
#    (T, B). The first non-silent frame after the launch (any sample of magnitude >=
#    BENCH_SILENCE, default 4, about -78 dBFS) at byte F was mixed at A0 + F / 176400, with A0
#    the smallest T - B / 176400 over the LOOKS (20) looks that follow F's arrival in the file
#    (about 100 ms); that minus the launch time is the time to first sound. A0 is taken there,
#    not from the looks before the launch, because the server may add or drop a few ms of the
#    monitor's frames when a stream with another latency comes or goes (up to 18 ms was seen
#    around fluidsynth's streams with its default 64-frame periods, which shrink the sink's
#    blocks to under 1 ms). The "slip" column is the local A0 less the A0 of the looks before
#    the launch: frames added (negative) or dropped (positive) before the first sound, plus
#    the change of block size (A0 reads up to one block early, so a stream that shrinks the
#    blocks shows about +9 ms: fluidsynth with 64-frame periods); beyond +-50 ms the launch
#    fails.
#    Error bound. The sink mixes, and the monitor delivers, blocks of the recorder's latency
#    (10 ms: 441 frames): a frame reaches the file up to one block after the start of its
#    block, plus the server's hold-back for rewinds (up to one block) and the look's own delay
#    (well under 1 ms). So the time to first sound is exact to within about -10/+20 ms of the
#    moment the sink mixed the frame; the "spread" column (the range of T - B / 176400 over
#    the 20 looks, about one block) shows the block size actually seen.
#
# 3. Underruns: BENCH_SECONDS (60) of BENCH_BUSY_SONG (default tttheme2.mid, the corpus's
#    busiest minute: 3013 notes), played by `smfplay play --verbose --repeat one` with
#    FluidR3_GM and --latency 50 (its default) while one busy loop per core but one
#    (`while :; do :; done`) competes for the CPU; then SIGINT (exit status 130 expected). The
#    count is smfplay's own: with stderr not a terminal, --verbose prints a line "smfplay:
#    output underrun at M:SS.S (N so far)" as underruns happen (one line for all those seen
#    since the last look, 25 times a second), and "smfplay: output underruns: N" when done (the
#    count of the server's underflow reports while the stream should be playing). The
#    BUSY_SECONDS count from the line "playing 1/1: ..." that smfplay prints as the song starts.
#    No recorder runs meanwhile (it would shorten the sink's blocks). Target (from the issue):
#    zero.
#
# 4. Memory on a dense file: the 2,000,000-note file of bench/parse.sh (smfplay-parse-bench
#    generate, 14.8 MB), played by each program with FluidR3_GM as in part 1 until its stream
#    has been on the null sink for 5 s (at most 120 s from the launch), then stopped; the peak
#    RSS is the process's VmHWM just before. Target (from issue 15): smfplay's <= fluidsynth's.
#
# Environment: BENCH_OUT (bench/out/play), BENCH_SCRATCH (unset: .build), BENCH_BUILD_FLAGS,
# BENCH_PARTS ("cpu start underruns memory"), BENCH_REPEAT (sets both repeats below),
# BENCH_CPU_REPEAT (3), BENCH_CPU_SECONDS (30), BENCH_START_REPEAT (5), BENCH_SECONDS (60), BENCH_CORPUS
# (/usr/share/games/openttd/baseset/openmsx), BENCH_CPU_SONG, BENCH_BUSY_SONG, BENCH_SOUNDFONT
# (FluidR3_GM.sf2), BENCH_SMALL_SOUNDFONT (TimGM6mb.sf2), BENCH_RECORD_LATENCY (10, ms),
# BENCH_SILENCE (4), BENCH_HOGS (the busy loops of part 3: one per core but one),
# BENCH_FLUIDSYNTH_PERIOD (2205 frames; 64 is fluidsynth's own default), BENCH_LATENCY (smfplay's
# --latency in every part: 50 ms, its default).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/play}
PARTS=" ${BENCH_PARTS:-cpu start underruns memory} "
CORPUS=${BENCH_CORPUS:-/usr/share/games/openttd/baseset/openmsx}
CPU_SONG=${BENCH_CPU_SONG:-$CORPUS/keep_on_rolling.mid}
BUSY_SONG=${BENCH_BUSY_SONG:-$CORPUS/tttheme2.mid}
SOUNDFONT=${BENCH_SOUNDFONT:-/usr/share/sounds/sf2/FluidR3_GM.sf2}
SMALL_SOUNDFONT=${BENCH_SMALL_SOUNDFONT:-/usr/share/sounds/sf2/TimGM6mb.sf2}
CPU_REPEAT=${BENCH_CPU_REPEAT:-${BENCH_REPEAT:-3}}
CPU_SECONDS=${BENCH_CPU_SECONDS:-30}
START_REPEAT=${BENCH_START_REPEAT:-${BENCH_REPEAT:-5}}
BUSY_SECONDS=${BENCH_SECONDS:-60}
RECORD_LATENCY=${BENCH_RECORD_LATENCY:-10}
SILENCE=${BENCH_SILENCE:-4}
FLUIDSYNTH_PERIOD=${BENCH_FLUIDSYNTH_PERIOD:-2205}
LATENCY=${BENCH_LATENCY:-50}
RATE=44100
GAIN=0.16
BYTES_PER_SECOND=$((RATE * 4)) # s16le stereo
LOOKS=20

MAX_CPU_RATIO=1.0
MAX_MEMORY_RATIO=1.0
MAX_START_MS=300
MAX_UNDERRUNS=0
MAX_CLOCK_SLIP_MS=50

# shellcheck source=bench/common.sh
source bench/common.sh

part() { [[ "$PARTS" == *" $1 "* ]]; }

# --- Tools: install only what is missing. ---
install_missing pulseaudio pulseaudio-utils fluidsynth fluid-soundfont-gm timgm6mb-soundfont openttd-openmsx midicsv time
for file in "$SOUNDFONT" "$SMALL_SOUNDFONT" "$CPU_SONG" "$BUSY_SONG"; do
    [ -f "$file" ] || { echo "missing: $file" >&2; exit 1; }
done

# --- Build. ---
build_release smfplay smfplay-parse-bench
BIN="$BIN_DIR/smfplay"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d /tmp/smfplay-play-bench-XXXXXX)
chmod 700 "$WORK"
HOGS=()
PLAYER=""
RECORDER=""
PULSE_PID=""
POLLER=""
cleanup() {
    if [ -n "$POLLER" ]; then kill "$POLLER" 2>/dev/null || true; fi
    for hog in "${HOGS[@]}"; do kill "$hog" 2>/dev/null || true; done
    # (GNU time's child too: time itself does not pass the signal on.)
    if [ -n "$PLAYER" ]; then pkill -P "$PLAYER" 2>/dev/null || true; kill "$PLAYER" 2>/dev/null || true; fi
    if [ -n "$RECORDER" ]; then kill "$RECORDER" 2>/dev/null || true; fi
    if [ -n "$PULSE_PID" ]; then kill "$PULSE_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# No configuration, resume state or lock of the user's applies: everything is the benchmark's own.
mkdir -p "$WORK/home" "$WORK/config" "$WORK/state" "$WORK/cache" "$WORK/data"
export XDG_CONFIG_HOME="$WORK/config" XDG_STATE_HOME="$WORK/state" XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data"
CONFIG="$WORK/smfplay.toml"
echo "sample_rate = $RATE" >"$CONFIG"
# Both programs run under the same wrapper, with an empty home (no ~/.fluidsynth).
run_env=(env HOME="$WORK/home")
smfplay=("$BIN" play --latency "$LATENCY" --config "$CONFIG" --gain "$GAIN")
fluidsynth=(fluidsynth -a pulseaudio -ni -o audio.period-size="$FLUIDSYNTH_PERIOD" -r "$RATE" -g "$GAIN")

# --- A private PulseAudio server: a null sink, no hardware. ---
start_null_sink "$WORK" "$RATE"
# utime + stime of a process, in clock ticks.
process_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)
# Busy and total jiffies of all cores so far (/proc/stat).
cpu_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
# Waits for PLAYER, at most $1 seconds (then stops it with SIGTERM); sets player_status.
wait_player() {
    local watchdog
    # A watchdog that takes its own sleep with it when it is stopped.
    # shellcheck disable=SC2064 # $sleeper is expanded now, on purpose
    (
        sleep "$1" &
        sleeper=$!
        trap "kill $sleeper 2>/dev/null; exit 0" TERM
        wait "$sleeper"
        say "no end within $1 s: stopping the player"
        pkill -P "$PLAYER" 2>/dev/null || true # GNU time's child: time does not pass the signal on
        kill "$PLAYER" 2>/dev/null || true
    ) &
    watchdog=$!
    player_status=0
    wait "$PLAYER" || player_status=$?
    kill "$watchdog" 2>/dev/null || true
    wait "$watchdog" 2>/dev/null || true
    PLAYER=""
}

note_load
failures=()
cpu_rows=()
start_rows=()

# Starts the program named ($1: smfplay or fluidsynth) on a song ($2) with a SoundFont ($3), its
# output in $4; sets PLAYER.
launch_player() {
    local command
    if [ "$1" = smfplay ]; then
        command=("${smfplay[@]}" --verbose --soundfont "$3" "$2")
    else
        command=("${fluidsynth[@]}" "$3" "$2")
    fi
    reset_sink
    # (env execs the program: PLAYER is its process.)
    "${run_env[@]}" "${command[@]}" </dev/null >"$4" 2>&1 &
    PLAYER=$!
}

# Stops PLAYER, the program named ($1): smfplay with SIGINT, as a user's Ctrl-C (it prints its
# underrun count and exits 130); fluidsynth with SIGTERM (it does not stop on SIGINT without a
# shell). Sets player_status.
stop_player() {
    kill "-$([ "$1" = smfplay ] && echo INT || echo TERM)" "$PLAYER" 2>/dev/null || true
    wait_player 20
}

# --- 1. CPU: 30 s of play, each program, the machine idle, then one core busy. ---
if part cpu; then
    cat "$SOUNDFONT" "$CPU_SONG" >/dev/null # in the page cache for both
    # One run; sets run_cpu_seconds, run_server_seconds and run_underruns (smfplay's count; 0
    # for fluidsynth, which has none).
    run_cpu() {
        local program=$1 log=$2 server_before ticks server_after
        server_before=$(process_ticks "$PULSE_PID")
        launch_player "$program" "$CPU_SONG" "$SOUNDFONT" "$log"
        sleep 3
        pactl list short sink-inputs >"$WORK/inputs"
        sleep $((CPU_SECONDS - 3))
        kill -0 "$PLAYER" 2>/dev/null || { say "$program stopped before $CPU_SECONDS s (see $log)"; return 1; }
        ticks=$(process_ticks "$PLAYER")
        server_after=$(process_ticks "$PULSE_PID")
        stop_player "$program"
        grep -q . "$WORK/inputs" || { say "$program had no stream on the null sink 3 s in (see $log)"; return 1; }
        run_cpu_seconds=$(awk -v t="$ticks" -v hz="$HZ" 'BEGIN { printf "%.2f", t / hz }')
        run_server_seconds=$(awk -v t=$((server_after - server_before)) -v hz="$HZ" 'BEGIN { printf "%.2f", t / hz }')
        run_underruns=0
        if [ "$program" = smfplay ]; then
            [ "$player_status" -eq 130 ] || { say "smfplay exited with status $player_status after SIGINT, expected 130 (see $log)"; return 1; }
            run_underruns=$(sed -n 's/^\(smfplay: \)\{0,1\}output underruns: \([0-9][0-9]*\)$/\2/p' "$log" | tail -n 1)
            [ -n "$run_underruns" ] || { say "no underrun count from smfplay (see $log)"; return 1; }
        fi
    }
    median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    cpu_underruns=0
    for load in idle busy; do
        hogs=0
        if [ "$load" = busy ]; then
            hogs=${BENCH_HOGS:-$(($(nproc) - 1))}
            for _ in $(seq "$hogs"); do (while :; do :; done) & HOGS+=($!); done
        fi
        smf_runs=() fs_runs=() smf_servers=() fs_servers=()
        for repeat in $(seq "$CPU_REPEAT"); do
            if ((repeat % 2 == 1)); then order=(smfplay fluidsynth); else order=(fluidsynth smfplay); fi
            for program in "${order[@]}"; do
                say "1. CPU, $load ($hogs busy loops), run $repeat: $program plays $CPU_SECONDS s of $(basename "$CPU_SONG")"
                run_cpu "$program" "$OUT/cpu-$load-$program-$repeat.log"
                echo "   CPU $run_cpu_seconds s, server CPU $run_server_seconds s, underruns $run_underruns" >&2
                if [ "$program" = smfplay ]; then
                    smf_runs+=("$run_cpu_seconds")
                    smf_servers+=("$run_server_seconds")
                    cpu_underruns=$((cpu_underruns + run_underruns))
                else
                    fs_runs+=("$run_cpu_seconds")
                    fs_servers+=("$run_server_seconds")
                fi
            done
        done
        for hog in "${HOGS[@]}"; do kill "$hog" 2>/dev/null || true; done
        HOGS=()
        smf_median=$(median "${smf_runs[@]}")
        fs_median=$(median "${fs_runs[@]}")
        ratio=$(awk -v s="$smf_median" -v f="$fs_median" 'BEGIN { printf "%.3f", s / f }')
        met=$(awk -v r="$ratio" -v m="$MAX_CPU_RATIO" 'BEGIN { print (r <= m ? "yes" : "**no**") }')
        cpu_rows+=("1. CPU s over $CPU_SECONDS s of $(basename "$CPU_SONG") (user + system), median of $CPU_REPEAT, $load ($hogs busy loops)|$smf_median|$fs_median|$ratio|<= $MAX_CPU_RATIO|$met")
        cpu_rows+=("1. its runs, $load|${smf_runs[*]}|${fs_runs[*]}||||")
        cpu_rows+=("1. PulseAudio server CPU s, median, $load|$(median "${smf_servers[@]}")|$(median "${fs_servers[@]}")||||")
        [ "$met" = yes ] || failures+=("1. CPU smfplay / fluidsynth, $load = $ratio, target <= $MAX_CPU_RATIO")
    done
    met=$([ "$cpu_underruns" -le "$MAX_UNDERRUNS" ] && echo yes || echo "**no**")
    cpu_rows+=("1. smfplay's underruns, all its runs|$cpu_underruns|||$MAX_UNDERRUNS|$met")
    [ "$met" = yes ] || failures+=("1. $cpu_underruns underruns in smfplay's CPU runs, target $MAX_UNDERRUNS")
fi

# --- 2. Time to first sound. ---
if part start; then
    say "writing tiny.mid (a piano chord at time 0, 0.5 s)"
    TINY="$OUT/tiny.mid"
    cat >"$WORK/tiny.csv" <<'EOF'
0, 0, Header, 1, 2, 480
1, 0, Start_track
1, 0, Tempo, 500000
1, 480, End_track
2, 0, Start_track
2, 0, Program_c, 0, 0
2, 0, Note_on_c, 0, 60, 100
2, 0, Note_on_c, 0, 64, 100
2, 0, Note_on_c, 0, 67, 100
2, 480, Note_off_c, 0, 60, 0
2, 480, Note_off_c, 0, 64, 0
2, 480, Note_off_c, 0, 67, 0
2, 480, End_track
0, 0, End_of_file
EOF
    csvmidi "$WORK/tiny.csv" "$TINY"
    cat "$SMALL_SOUNDFONT" "$TINY" "$BIN" "$(command -v fluidsynth)" >/dev/null

    RECORDING="$WORK/monitor.raw"
    say "recording the null sink's monitor (s16le, $RATE Hz, stereo, ${RECORD_LATENCY} ms blocks)"
    parec -d bench_null.monitor --raw --format=s16le --rate="$RATE" --channels=2 --latency-msec="$RECORD_LATENCY" \
        >"$RECORDING" 2>"$WORK/parec.log" &
    RECORDER=$!
    sleep 0.3
    # The recorder's short blocks apply from a fresh start of the sink's clock.
    reset_sink
    for _ in $(seq 50); do [ -s "$RECORDING" ] && break; sleep 0.1; done
    [ -s "$RECORDING" ] || { echo "the monitor delivers nothing:" >&2; cat "$WORK/parec.log" >&2; exit 1; }
    sleep 0.5

    # Looks at the recording's length every 5 ms until $WORK/stop exists, writing "clock bytes"
    # lines to $1. No process is started: the length is parec's file offset (/proc/PID/fdinfo/1,
    # read with a builtin), the clock is EPOCHREALTIME, read right after, and the pause is a
    # `read -t` on a FIFO that nobody writes.
    poll_recording() {
        local key value size=0
        exec 9<>"$WORK/never"
        while [ ! -e "$WORK/stop" ]; do
            while read -r key value; do
                if [ "$key" = pos: ]; then size=$value; break; fi
            done <"/proc/$RECORDER/fdinfo/1"
            echo "$EPOCHREALTIME $size"
            read -r -t 0.005 -u 9 _ || true
        done >"$1"
    }
    mkfifo "$WORK/never"

    # One launch; sets launch_ms, launch_spread (ms) and launch_slip (ms).
    launch() {
        local program=$1 tag=$2 command launched from frame
        if [ "$program" = smfplay ]; then
            command=("${smfplay[@]}" --soundfont "$SMALL_SOUNDFONT" "$TINY")
        else
            command=("${fluidsynth[@]}" "$SMALL_SOUNDFONT" "$TINY")
        fi
        rm -f "$WORK/stop"
        poll_recording "$WORK/looks" &
        POLLER=$!
        sleep 0.4
        launched=$EPOCHREALTIME
        "${run_env[@]}" "${command[@]}" </dev/null >"$OUT/start-$program-$tag.log" 2>&1 &
        PLAYER=$!
        wait_player 30
        [ "$player_status" -eq 0 ] || { say "$program exited with status $player_status (see $OUT/start-$program-$tag.log)"; return 1; }
        sleep 0.3
        touch "$WORK/stop"
        wait "$POLLER" || true
        POLLER=""
        # The recording's length at the launch: everything before it is older than the launch.
        from=$(awk -v at="$launched" '$1 < at { size = $2 } END { print size - size % 4 }' "$WORK/looks")
        # The first frame after it with a sample at least SILENCE in magnitude.
        frame=$(od -An -v -t d2 -w4 -j "$from" "$RECORDING" | awk -v t="$SILENCE" '
            !found && ($1 >= t || -$1 >= t || $2 >= t || -$2 >= t) { print NR - 1; found = 1 }
            END { if (!found) print -1 }')
        [ "$frame" -ge 0 ] || { say "$program: no sound reached the sink"; return 1; }
        # A0 from the LOOKS looks that follow the frame's arrival (local: frames the server added
        # or dropped earlier do not matter), and from the looks before the launch, for the check.
        read -r launch_ms launch_spread launch_slip < <(awk -v at="$launched" -v byte=$((from + 4 * frame)) -v bps="$BYTES_PER_SECOND" \
            -v looks="$LOOKS" '
            { o = $1 - $2 / bps }
            $1 < at && (before == "" || o < before) { before = o }
            $2 > byte && seen < looks {
                seen++
                if (seen == 1 || o < a0) a0 = o
                if (seen == 1 || o > high) high = o
            }
            END {
                if (seen < looks) exit 1
                printf "%.1f %.1f %.1f\n", (a0 + byte / bps - at) * 1000, (high - a0) * 1000, (a0 - before) * 1000
            }' "$WORK/looks")
        [ -n "${launch_ms:-}" ] || { say "too few looks at the recording after the first sound of $program"; return 1; }
        echo "   2. launch $tag, $program: first sound after $launch_ms ms (looks spread $launch_spread ms, slip since the launch $launch_slip ms)" >&2
        awk -v s="$launch_slip" -v m="$MAX_CLOCK_SLIP_MS" 'BEGIN { exit !(s <= m && -s <= m) }' ||
            { say "the recording lost or repeated $launch_slip ms between the launch of $program and its first sound (launch $tag)"; return 1; }
        awk -v t="$launch_ms" 'BEGIN { exit !(t > 0) }' || { say "sound before the launch: something else plays to the sink"; return 1; }
        sleep 0.3
    }

    # A launch of each first, not counted: the binaries and libraries come into the page cache.
    for program in smfplay fluidsynth; do
        launch_ms=""
        launch "$program" warm-up
        start_rows+=("warm-up, not counted|$([ $program = smfplay ] && echo "$launch_ms" || echo "")|$([ $program = fluidsynth ] && echo "$launch_ms" || echo "")|$launch_spread|$launch_slip")
    done
    smf_starts=()
    fs_starts=()
    for repeat in $(seq "$START_REPEAT"); do
        if ((repeat % 2 == 1)); then order=(smfplay fluidsynth); else order=(fluidsynth smfplay); fi
        for program in "${order[@]}"; do
            launch_ms=""
            launch "$program" "$repeat"
            if [ "$program" = smfplay ]; then
                smf_starts+=("$launch_ms")
                smf_spread=$launch_spread
                smf_slip=$launch_slip
            else
                fs_starts+=("$launch_ms")
                fs_spread=$launch_spread
                fs_slip=$launch_slip
            fi
        done
        start_rows+=("$repeat|${smf_starts[-1]}|${fs_starts[-1]}|$smf_spread / $fs_spread|$smf_slip / $fs_slip")
    done
    kill "$RECORDER" 2>/dev/null || true
    wait "$RECORDER" 2>/dev/null || true
    RECORDER=""
    # "best median worst" of the numbers given.
    stats() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.0f %.0f %.0f\n", v[1], m, v[NR] }'; }
    read -r smf_best smf_median smf_worst <<<"$(stats "${smf_starts[@]}")"
    read -r fs_best fs_median fs_worst <<<"$(stats "${fs_starts[@]}")"
    awk -v t="$smf_median" -v m="$MAX_START_MS" 'BEGIN { exit !(t < m) }' ||
        failures+=("2. time to first sound, smfplay median = $smf_median ms, target < $MAX_START_MS ms")
    awk -v t="$smf_median" -v f="$fs_median" 'BEGIN { exit !(t <= f) }' ||
        failures+=("2. time to first sound, smfplay median = $smf_median ms, target <= fluidsynth's $fs_median ms")
fi

# --- 3. Underruns with the other core(s) busy. ---
if part underruns; then
    hog_count=${BENCH_HOGS:-$(($(nproc) - 1))}
    cat "$SOUNDFONT" "$BUSY_SONG" >/dev/null
    say "3. underruns: $BUSY_SECONDS s of $(basename "$BUSY_SONG") with $hog_count busy loop(s)"
    for _ in $(seq "$hog_count"); do (while :; do :; done) & HOGS+=($!); done
    reset_sink
    before=$(cpu_jiffies)
    "${run_env[@]}" "${smfplay[@]}" --repeat one --verbose --soundfont "$SOUNDFONT" "$BUSY_SONG" \
        </dev/null >"$OUT/underruns.out" 2>"$OUT/underruns.err" &
    PLAYER=$!
    # The BUSY_SECONDS count from the song's start: smfplay says "playing 1/1: ..." then.
    for _ in $(seq 200); do grep -q '^playing ' "$OUT/underruns.out" 2>/dev/null && break; sleep 0.1; done
    grep -q '^playing ' "$OUT/underruns.out" || { say "smfplay did not start playing:"; cat "$OUT/underruns.err" >&2; exit 1; }
    sleep "$BUSY_SECONDS"
    kill -0 "$PLAYER" 2>/dev/null || { say "smfplay stopped before $BUSY_SECONDS s:"; cat "$OUT/underruns.err" >&2; exit 1; }
    busy_ticks=$(process_ticks "$PLAYER")
    kill -INT "$PLAYER"
    wait_player 20
    after=$(cpu_jiffies)
    for hog in "${HOGS[@]}"; do kill "$hog" 2>/dev/null || true; done
    HOGS=()
    [ "$player_status" -eq 130 ] || { say "smfplay exited with status $player_status after SIGINT, expected 130:"; cat "$OUT/underruns.err" >&2; exit 1; }
    # "smfplay: output underruns: N", the last line.
    underruns=$(sed -n 's/^\(smfplay: \)\{0,1\}output underruns: \([0-9][0-9]*\)$/\2/p' "$OUT/underruns.err" | tail -n 1)
    [ -n "$underruns" ] || { say "no underrun count from smfplay:"; cat "$OUT/underruns.err" >&2; exit 1; }
    underrun_lines=$(grep -c '^\(smfplay: \)\{0,1\}output underrun at ' "$OUT/underruns.err" || true)
    busy_cpu=$(awk -v t="$busy_ticks" -v hz="$HZ" -v s="$BUSY_SECONDS" 'BEGIN { printf "%.1f", 100 * t / hz / s }')
    machine_busy=$(awk -v before="$before" -v after="$after" 'BEGIN { split(before, b0, " "); split(after, b1, " "); printf "%.0f", 100 * (b1[1] - b0[1]) / (b1[2] - b0[2]) }')
    echo "   $underruns underruns ($underrun_lines report lines), smfplay CPU $busy_cpu % of a core, all cores busy $machine_busy %" >&2
    [ "$underruns" -le "$MAX_UNDERRUNS" ] ||
        failures+=("3. $underruns underruns in $BUSY_SECONDS s with $hog_count busy loop(s), target $MAX_UNDERRUNS")
fi

# --- 4. Memory on a dense file. ---
if part memory; then
    DENSE="$OUT/dense-2000000.mid"
    [ -f "$DENSE" ] || "$BIN_DIR/smfplay-parse-bench" generate "$DENSE" --notes 2000000 >&2
    # Peak RSS in kB of the program ($1) playing the dense file, once its stream has been on the sink for 5 s.
    peak_memory() {
        local log="$OUT/memory-$1.log" kb=""
        launch_player "$1" "$DENSE" "$SOUNDFONT" "$log"
        for _ in $(seq 1200); do
            pactl list short sink-inputs | grep -q . && break
            kill -0 "$PLAYER" 2>/dev/null || break
            sleep 0.1
        done
        pactl list short sink-inputs | grep -q . || { say "$1 had no stream on the null sink within 120 s (see $log)"; return 1; }
        sleep 5
        kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$PLAYER/status" 2>/dev/null || true)
        stop_player "$1"
        [ -n "$kb" ] || { say "$1 stopped before its memory was read (see $log)"; return 1; }
        echo "$kb"
    }
    say "4. memory: smfplay and fluidsynth play $(basename "$DENSE")"
    smf_memory_kb=$(peak_memory smfplay)
    fs_memory_kb=$(peak_memory fluidsynth)
    memory_ratio=$(awk -v s="$smf_memory_kb" -v f="$fs_memory_kb" 'BEGIN { printf "%.3f", s / f }')
    echo "   smfplay $((smf_memory_kb / 1024)) MB, fluidsynth $((fs_memory_kb / 1024)) MB" >&2
    awk -v r="$memory_ratio" -v m="$MAX_MEMORY_RATIO" 'BEGIN { exit !(r <= m) }' ||
        failures+=("4. peak RSS smfplay / fluidsynth on the dense file = $memory_ratio, target <= $MAX_MEMORY_RATIO")
fi

echo
echo "smfplay play benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(fluidsynth --version | sed -n 's/^FluidSynth runtime version /FluidSynth /p'), $(pulseaudio --version)"
echo "a private PulseAudio server, one null sink at $RATE Hz; both programs at $RATE Hz, gain $GAIN, their default effects;"
echo "smfplay --latency $LATENCY (ms; 50 is its default), fluidsynth -o audio.period-size=$FLUIDSYNTH_PERIOD ($(awk -v p="$FLUIDSYNTH_PERIOD" -v r="$RATE" 'BEGIN { printf "%.1f", 1000 * p / r }') ms)."
echo "load average at start: $load_at_start, at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
echo "| measure | smfplay | fluidsynth | ratio | target | met |"
echo "|---|---:|---:|---:|---:|---|"
if part cpu; then
    for row in "${cpu_rows[@]}"; do
        IFS='|' read -r measure smf fs ratio target met <<<"$row"
        echo "| $measure | $smf | $fs | $ratio | $target | $met |"
    done
fi
if part start; then
    met=$(awk -v t="$smf_median" -v m="$MAX_START_MS" -v f="$fs_median" 'BEGIN { print (t < m && t <= f ? "yes" : "**no**") }')
    echo "| 2. time to first sound ms, median of $START_REPEAT (TimGM6mb, a chord at 0 s) | $smf_median | $fs_median | | < $MAX_START_MS and <= fluidsynth's | $met |"
    echo "| 2. time to first sound ms, best | $smf_best | $fs_best | | | |"
    echo "| 2. time to first sound ms, worst | $smf_worst | $fs_worst | | | |"
fi
if part underruns; then
    met=$([ "$underruns" -le "$MAX_UNDERRUNS" ] && echo yes || echo "**no**")
    echo "| 3. underruns, $BUSY_SECONDS s of $(basename "$BUSY_SONG"), $hog_count busy loop(s), FluidR3_GM | $underruns | | | $MAX_UNDERRUNS | $met |"
    echo "| 3. smfplay CPU % of one core; all cores busy % | $busy_cpu; $machine_busy | | | | |"
fi
if part memory; then
    met=$(awk -v r="$memory_ratio" -v m="$MAX_MEMORY_RATIO" 'BEGIN { print (r <= m ? "yes" : "**no**") }')
    echo "| 4. peak RSS MB playing the 2,000,000-note file (14.8 MB), FluidR3_GM | $(awk -v k="$smf_memory_kb" 'BEGIN { printf "%.1f", k / 1024 }') | $(awk -v k="$fs_memory_kb" 'BEGIN { printf "%.1f", k / 1024 }') | $memory_ratio | <= $MAX_MEMORY_RATIO | $met |"
fi
if part start; then
    echo
    echo "Time to first sound, each launch (ms; the error bound is about -10/+20 ms, see the script's header):"
    echo
    echo "| launch | smfplay ms | fluidsynth ms | looks spread ms (smfplay / fluidsynth) | slip ms (smfplay / fluidsynth) |"
    echo "|---:|---:|---:|---|---|"
    for row in "${start_rows[@]}"; do
        IFS='|' read -r repeat smf fs spread slip <<<"$row"
        echo "| $repeat | $smf | $fs | $spread | $slip |"
    done
fi
echo
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "all targets met"
