#!/usr/bin/env bash
# The playback benchmark: what the play view's piano keyboard costs the audio.
#
#   bench/playback.sh         # build, play, print the table; non-zero if a target is missed
#
# Builds the release smfplay (in the default .build folder unless BENCH_SCRATCH says otherwise),
# installs what is missing (pulseaudio, pulseaudio-utils, tmux, midicsv, fluid-soundfont-gm and GNU
# time with apt-get), writes a busy song (bench/out/playback/busy.mid, from CSV with csvmidi) and
# starts a private PulseAudio server with a null sink (no sound card needed; see
# docs/testing.md). Then it plays the song with `smfplay play --verbose`
# on a terminal (a tmux pane, 160 columns: the whole keyboard, redrawn as on a real terminal),
# with the keyboard and with --no-keyboard, in turns, BENCH_REPEAT times each, first on an idle
# machine, then with one busy loop per core competing for the CPU. For each run: the output
# underruns smfplay counted, the frames the view wrote to the terminal per second of song (each
# redraw starts by moving the cursor to the screen's top left, ESC [ H), the bytes written per second, smfplay's CPU time (GNU
# time) and the tmux server's (reading and parsing that output) as a share of the song's length,
# and how busy all cores were meanwhile (/proc/stat: on a shared machine, what else ran).
# The terminal output of each run is kept in BENCH_OUT/screen-<view>-<machine>-<run>.txt.
#
# The song (BENCH_SECONDS long, 120 bpm): eight channels of four-note chords changing every half
# second across the keyboard (piano, strings, organ, guitar, choir, bass, clarinet, pad), a run of
# 15 ms notes every 20 ms on a ninth channel (a different key lit at every frame: the view must
# redraw the keyboard each time it looks), and drums.
#
# Targets: the keyboard adds no underrun (the runs with it have no more
# underruns in all than the runs without, on the idle machine and on the busy one), and the view
# redraws at least 20 times a second with the keyboard on.
#
# Environment: BENCH_SECONDS (30), BENCH_REPEAT (2), BENCH_LATENCY (50, ms: smfplay's default),
# BENCH_OUT (bench/out/playback), BENCH_SCRATCH (unset: .build), BENCH_SOUNDFONT (FluidR3_GM.sf2).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_LONG=${BENCH_SECONDS:-30}
REPEAT=${BENCH_REPEAT:-2}
LATENCY=${BENCH_LATENCY:-50}
OUT=${BENCH_OUT:-bench/out/playback}
SOUNDFONT=${BENCH_SOUNDFONT:-/usr/share/sounds/sf2/FluidR3_GM.sf2}
COLUMNS_WIDE=160
MIN_FRAMES_PER_SECOND=20

# shellcheck source=bench/common.sh
source bench/common.sh

# --- Tools: install only what is missing. ---
install_missing pulseaudio pulseaudio-utils tmux midicsv time fluid-soundfont-gm

# --- Build. ---
build_release smfplay
BIN="$BIN_DIR/smfplay"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d /tmp/smfplay-bench-XXXXXX)
chmod 700 "$WORK"
HOGS=()
cleanup() {
    for hog in "${HOGS[@]}"; do kill "$hog" 2>/dev/null || true; done
    tmux -S "$WORK/tmux" kill-server 2>/dev/null || true
    [ -n "${KEEP_ALIVE:-}" ] && kill "$KEEP_ALIVE" 2>/dev/null || true
    [ -f "$WORK/pulse/pid" ] && kill "$(cat "$WORK/pulse/pid")" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# --- The song. ---
SONG="$OUT/busy.mid"
say "writing $SONG ($SECONDS_LONG s)"
awk -v seconds="$SECONDS_LONG" '
    function note(track, tick, order, channel, key, velocity, kind) {
        printf "%d, %d, %d, %s, %d, %d, %d\n", track, tick, order, kind, channel, key, velocity
    }
    BEGIN {
        end = seconds * 960
        print "0, 0, 0, Header, 1, 11, 480"
        print "1, 0, 0, Start_track"; print "1, 0, 1, Tempo, 500000"; printf "1, %d, 9, End_track\n", end
        split("0 48 19 24 52 33 71 89", programs, " ")
        for (channel = 0; channel < 8; channel++) {
            track = channel + 2
            printf "%d, 0, 0, Start_track\n", track
            printf "%d, 0, 1, Program_c, %d, %d\n", track, channel, programs[channel + 1]
            for (tick = 0; tick < end; tick += 480) {
                root = 33 + (tick / 480 * 5 + channel * 7) % 48
                for (step = 0; step < 4; step++) {
                    key = root + (step == 0 ? 0 : step == 1 ? 4 : step == 2 ? 7 : 12)
                    note(track, tick, 3, channel, key, 70, "Note_on_c")
                    note(track, tick + 480, 2, channel, key, 0, "Note_off_c")
                }
            }
            printf "%d, %d, 9, End_track\n", track, end
        }
        print "10, 0, 0, Start_track"; print "10, 0, 1, Program_c, 8, 11"
        for (tick = 0; tick + 19 <= end; tick += 19) {
            position = int(tick / 19) % 120
            key = 36 + (position < 60 ? position : 120 - position)
            note(10, tick, 3, 8, key, 80, "Note_on_c")
            note(10, tick + 14, 2, 8, key, 0, "Note_off_c")
        }
        printf "10, %d, 9, End_track\n", end
        print "11, 0, 0, Start_track"
        for (tick = 0; tick < end; tick += 120) {
            key = tick % 480 == 0 ? 36 : tick % 480 == 240 ? 38 : 42
            note(11, tick, 3, 9, key, 90, "Note_on_c")
            note(11, tick + 60, 2, 9, key, 0, "Note_off_c")
        }
        printf "11, %d, 9, End_track\n", end
    }' | sort -t, -k1,1n -k2,2n -k3,3n | cut -d, -f1,2,4- >"$WORK/busy.csv"
echo "0, 0, End_of_file" >>"$WORK/busy.csv"
csvmidi "$WORK/busy.csv" "$SONG"

# --- A private PulseAudio server: a null sink, no hardware. ---
start_null_sink "$WORK" 48000
# Alone, the null sink renders 2 s at a time; a recorder asking for 20 ms sets a short block.
parec -d bench_null.monitor --raw --latency-msec=20 >/dev/null 2>&1 &
KEEP_ALIVE=$!
sleep 0.5
reset_sink

# --- Runs. ---
# Busy and total jiffies of all cores so far (/proc/stat).
cpu_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

# One run: "keyboard" or "no-keyboard"; prints "underruns frames_per_second bytes_per_second
# smfplay_cpu_percent tmux_cpu_percent machine_busy_percent".
run() {
    local mode=$1 tag=$2 flags=()
    [ "$mode" = no-keyboard ] && flags=(--no-keyboard)
    rm -f "$WORK/done" "$WORK/screen" "$WORK/time" "$WORK/errors"
    tmux -S "$WORK/tmux" -f /dev/null new-session -d -x "$COLUMNS_WIDE" -y 30 \
        "/usr/bin/time -f '%U %S %e' -o '$WORK/time' '$BIN' play '$SONG' --soundfont '$SOUNDFONT' --latency $LATENCY --verbose ${flags[*]} 2> '$WORK/errors'; touch '$WORK/done'"
    tmux -S "$WORK/tmux" pipe-pane -t 0 -o "cat > '$WORK/screen'"
    local server before after
    server=$(tmux -S "$WORK/tmux" display-message -p '#{pid}')
    before=$(cpu_jiffies)
    local waited=0
    while [ ! -f "$WORK/done" ]; do
        sleep 0.5
        waited=$((waited + 1))
        if [ "$waited" -gt $((4 * SECONDS_LONG + 120)) ]; then say "smfplay did not finish"; exit 1; fi
    done
    after=$(cpu_jiffies)
    # The terminal's share: tmux reading and parsing what the view writes (utime + stime, in ticks).
    local tmux_ticks
    tmux_ticks=$(awk '{ print $14 + $15 }' "/proc/$server/stat")
    tmux -S "$WORK/tmux" kill-server 2>/dev/null || true
    cp "$WORK/screen" "$OUT/screen-$mode-$tag.txt"
    local underruns frames bytes
    underruns=$(sed -n 's/.*output underruns: \([0-9]*\).*/\1/p' "$WORK/errors" | tail -n 1)
    [ -n "$underruns" ] || { say "no underrun count from smfplay:"; cat "$WORK/errors" >&2; exit 1; }
    frames=$(grep -ao $'\e\\[H' "$WORK/screen" | wc -l)
    bytes=$(stat -c %s "$WORK/screen")
    # The last line: GNU time writes a line before it when the status is not 0.
    read -r user system _ < <(tail -n 1 "$WORK/time")
    awk -v u="$underruns" -v f="$frames" -v b="$bytes" -v cpu="$(awk -v a="$user" -v b="$system" 'BEGIN { print a + b }')" -v s="$SECONDS_LONG" \
        -v t="$tmux_ticks" -v hz="$(getconf CLK_TCK)" -v before="$before" -v after="$after" '
        BEGIN {
            split(before, b0, " "); split(after, b1, " ")
            printf "%d %.1f %.0f %.1f %.1f %.0f\n", u, f / s, b / s, 100 * cpu / s, 100 * t / hz / s, 100 * (b1[1] - b0[1]) / (b1[2] - b0[2])
        }'
}

load_at_start=$(cut -d ' ' -f 1-3 /proc/loadavg)
rows=()
failures=()
for condition in idle busy; do
    if [ "$condition" = busy ]; then
        say "starting $(nproc) busy loops"
        for _ in $(seq "$(nproc)"); do (while :; do :; done) & HOGS+=($!); done
    fi
    total_keyboard=0
    total_plain=0
    for repeat in $(seq "$REPEAT"); do
        for mode in keyboard no-keyboard; do
            say "$condition machine, run $repeat, $mode"
            result=$(run "$mode" "$condition-$repeat")
            echo "   $result (underruns, frames/s, bytes/s, smfplay CPU %, tmux CPU %, machine busy %)" >&2
            read -r underruns fps bps cpu tmux_cpu busy <<<"$result"
            rows+=("$condition|$mode|$repeat|$underruns|$fps|$bps|$cpu|$tmux_cpu|$busy")
            if [ "$mode" = keyboard ]; then
                total_keyboard=$((total_keyboard + underruns))
                awk -v f="$fps" -v m="$MIN_FRAMES_PER_SECOND" 'BEGIN { exit !(f >= m) }' ||
                    failures+=("$condition machine, run $repeat: the keyboard was redrawn $fps times a second, target >= $MIN_FRAMES_PER_SECOND")
            else
                total_plain=$((total_plain + underruns))
            fi
        done
    done
    [ "$total_keyboard" -le "$total_plain" ] ||
        failures+=("$condition machine: $total_keyboard underruns with the keyboard, $total_plain without")
    for hog in "${HOGS[@]}"; do kill "$hog" 2>/dev/null || true; done
    HOGS=()
done

echo
echo "smfplay playback benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "song: $SECONDS_LONG s, 8 channels of 4-note chords, a 50-notes-a-second run, drums; $(basename "$SOUNDFONT"); latency $LATENCY ms;"
echo "terminal: tmux, $COLUMNS_WIDE columns (the whole keyboard); busy: $(nproc) busy loops; load average at start: $load_at_start"
echo
echo "| machine | view | run | underruns | frames written / s | bytes written / s | smfplay CPU % | tmux CPU % | all cores busy % |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for row in "${rows[@]}"; do
    IFS='|' read -r condition mode repeat underruns fps bps cpu tmux_cpu busy <<<"$row"
    echo "| $condition | $mode | $repeat | $underruns | $fps | $bps | $cpu | $tmux_cpu | $busy |"
done
echo
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "All targets met: no underrun added by the keyboard, and at least $MIN_FRAMES_PER_SECOND frames a second with it."
