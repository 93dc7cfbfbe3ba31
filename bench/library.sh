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
# Builds the release smfplay (BENCH_SCRATCH as in bench/common.sh), installs what the parts chosen
# need and is missing (apt-get), then makes BENCH_FILES (100,000) hard links to the openttd-openmsx
# songs and the demo library under BENCH_OUT/Library, named <Composer>/<Category>/<Title> <n>.mid
# with accented and Japanese names (parts index, search, play and resume need it; browse makes its
# own folder). smfplay runs with the benchmark's own XDG folders (BENCH_OUT/data for the index,
# empty ones for the configuration and cache), so no user's configuration, cache or state applies.
#
# (a) index: the first index, from no database, on all cores (wall time, files a second; no target).
# (b) index: index again with nothing changed: median of 5. Target < 5 s.
# (c) search: 100 searches, each a whole `smfplay search` process (folders, names, titles, Japanese
#     parts, two-letter words, two words, filters): p50 and p99. Target p99 < 50 ms. Side by side,
#     the same words with `find LIB -iname '*WORD*'`, which sees names only. (When part index is
#     not chosen, search and play index the library first, unmeasured.)
# (d) play: time to first sound of
#         smfplay play --shuffle --library LIB --soundfont TimGM6mb.sf2 LIB </dev/null
#     (all BENCH_FILES files queued; stdin not a terminal, so no terminal view): from the launch
#     (EPOCHREALTIME, read just before the fork) to the first frame with a sample of magnitude
#     >= BENCH_SILENCE (4, about -78 dBFS) at the monitor of a null sink of a private PulseAudio
#     server (as in bench/play.sh; /work/shared/notes/pulseaudio-in-tests.md). Each launch gets a
#     fresh, empty XDG_STATE_HOME (no resume state, no lock); XDG_DATA_HOME is the benchmark's,
#     with the index of (a) in it, as a real user has one, and --library LIB makes LIB the library
#     (as a user's configuration would), so play's background refresh of the index runs over the
#     queue. Side by side in the same run: the same command on a folder holding ONE file
#     (BENCH_ONE_SONG, default 5432gone_redfarn.mid, whose first note is at 0 s), which shows what
#     the library's size costs, and the peer `fluidsynth -a pulseaudio -ni TimGM6mb.sf2 FILE` on
#     that file. Each is killed (SIGTERM) as soon as its first sound is seen. One launch of each,
#     not counted, brings the binaries into the page cache; then 3 of each, in a rotating order;
#     medians. Target: the median of the library's launches < 2 s.
#     Songs do not all start at once: a few of the corpus rest before their first note (up to
#     2.25 s, tttheme2.mid), and --shuffle picks one at random. So each launch's time is also
#     given less its song's lead-in (the time of the song's first note-on, through its tempo map,
#     from midicsv; the song is the one smfplay names in its "playing 1/N: FILE" line), and the
#     target applies to that: the player's own delay, not the composer's rest. Both medians are
#     printed.
#     Method and precision: one `parec` (raw s16le, 44100 Hz, stereo, --latency-msec 10) per
#     launch records the monitor from before the launch into a small Python reader; once 0.3 s of
#     silence has come, the sink is suspended and resumed (so the recorder's short blocks apply,
#     as play.sh does), then the player is launched. The reader takes the first loud frame's time
#     as the arrival time of its block less the bytes after it in the block (at 176,400 bytes a
#     second). A block reaches the reader up to about one block (10 ms) plus the server's
#     hold-back (up to one block) after the sink mixed it, plus the reader's own wake-up: times
#     are late by 0 to about 25 ms, never early; call it +-30 ms, enough for a 2 s target.
# (e) browse: `smfplay browse FOLDER` of one folder of BENCH_BROWSE_FILES (5,000) hard links, named
#     "<Word> <Word> <nnnnnn>.mid" with the library's accented and Japanese words, in a 120x40
#     tmux pane (a private tmux server, `-f /dev/null`): from the launch to the first capture of
#     the pane (`tmux capture-pane -p`, every ~10 ms) that shows the first file's name in natural
#     order, "Ballade Ballade 000000.mid" (no word sorts before "Ballade", and its number is the
#     lowest). The pane's program waits on a FIFO and is exec'd when the script writes to it;
#     the launch time is read just before that write. Fresh empty XDG_STATE_HOME each launch (the
#     browser opens at FOLDER, not at a file played last); XDG_DATA_HOME is the benchmark's, and
#     FOLDER is indexed there first (unmeasured), so the browser finds every file's length in the
#     index, as in a user's indexed library. One launch not counted, then 5, alternating with
#     `ls FOLDER` in the same kind of pane, measured the same way (its first name in byte order
#     is the same one). `ls` is a floor, not a peer: it lists the names and quits, without
#     natural order, lengths or a full-screen view. smfplay is stopped by closing its pane
#     (SIGHUP). Target: smfplay's median < 0.2 s. Precision: a capture is taken every 10 ms plus
#     its own cost (about 3 ms of smfplay's screen, 7 ms of ls's 1,300 lines of scrollback, which
#     are captured too since the name scrolls out of view), so a time is late by 0 to about 20 ms.
# (f) resume: what the resume state costs with a big queue. `smfplay play --repeat one --library
#     LIB LIB` (the whole library queued; --repeat one keeps its first file playing) against
#     `smfplay play --repeat one --library LIB FILE` with FILE that same first file (so both play
#     the same music and differ only by the queue), each for BENCH_RESUME_SECONDS (60) after its
#     first 5 s (its start-up is left out), with smfplay's default SoundFont, through the null
#     sink. Each run has a fresh private XDG_STATE_HOME under BENCH_OUT (on the disk, not a
#     tmpfs) and XDG_DATA_HOME set to an EMPTY data folder: play refreshes the library index in
#     the background only when an index exists, so that work is not measured here. Readings of
#     the player's /proc/PID/io write_bytes (bytes it sent to the storage layer) and of its CPU
#     time (utime + stime of /proc/PID/stat, all threads) at 5 s after launch and at
#     5 + BENCH_RESUME_SECONDS s; the differences are compared. Targets: whole library / one file
#     <= 1.2 for the bytes written and for the CPU time; the bytes' denominator is
#     max(one file's bytes, 64 KiB), since one file's may be 0 or tiny. The absolute figures are
#     printed too, and write() bytes (wchar, whether they reached the disk or not) for context.
#
# Environment: BENCH_OUT (bench/out/library), BENCH_FILES (100000), BENCH_PARTS ("index search
# play browse resume"), BENCH_RESUME_SECONDS (60), BENCH_BROWSE_FILES (5000), BENCH_ONE_SONG,
# BENCH_SMALL_SOUNDFONT (TimGM6mb.sf2), BENCH_SILENCE (4), BENCH_SCRATCH, BENCH_BUILD_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/library}
FILES=${BENCH_FILES:-100000}
PARTS=" ${BENCH_PARTS:-index search play browse resume} "
RESUME_SECONDS=${BENCH_RESUME_SECONDS:-60}
BROWSE_FILES=${BENCH_BROWSE_FILES:-5000}
CORPUS=/usr/share/games/openttd/baseset/openmsx
ONE_SONG=${BENCH_ONE_SONG:-$CORPUS/5432gone_redfarn.mid}
SMALL_SOUNDFONT=${BENCH_SMALL_SOUNDFONT:-/usr/share/sounds/sf2/TimGM6mb.sf2}
SILENCE=${BENCH_SILENCE:-4}
PLAY_REPEAT=3
BROWSE_REPEAT=5
RESUME_SKIP_SECONDS=5
WRITE_FLOOR=65536 # bytes: the least denominator of the write ratio (64 KiB)
MAX_REINDEX_SECONDS=5
MAX_SEARCH_P99_MS=50
MAX_FIRST_SOUND_MS=2000
MAX_BROWSE_MS=200
MAX_RESUME_RATIO=1.2

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
if part play; then
    for file in "$SMALL_SOUNDFONT" "$ONE_SONG"; do [ -f "$file" ] || { echo "missing: $file" >&2; exit 1; }; done
fi
build_release smfplay
BIN="$BIN_DIR/smfplay"

rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
LIBRARY="$OUT/Library"
# The benchmark's own folders: an old cache of the user's would otherwise be taken into (and
# deleted by) the benchmark's index.
export XDG_DATA_HOME="$OUT/data" XDG_CONFIG_HOME="$OUT/config" XDG_CACHE_HOME="$OUT/cache" XDG_STATE_HOME="$OUT/state"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" "$OUT/home" "$OUT/runs"
# Players run with an empty home too (no ~/.fluidsynth, no ~/Music/MIDI).
run_env=(env HOME="$OUT/home")

WORK=$(mktemp -d /tmp/smfplay-library-bench-XXXXXX)
chmod 700 "$WORK"
PLAYER=""
DETECTOR=""
PULSE_PID=""
TMUX_SOCKET=""
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    if [ -n "$DETECTOR" ]; then kill "$DETECTOR" 2>/dev/null || true; fi
    if [ -n "$PLAYER" ]; then kill "$PLAYER" 2>/dev/null || true; fi
    if [ -n "$TMUX_SOCKET" ]; then tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null || true; fi
    if [ -n "$PULSE_PID" ]; then kill "$PULSE_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

if part index || part search || part play || part resume; then
    say "making $FILES hard links in $LIBRARY"
    python3 - "$LIBRARY" "$FILES" "$CORPUS" Examples/Library <<'PY'
import os, sys, random
library, count, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
songs = [os.path.join(folder, name) for source in sources for folder, _, names in os.walk(source) for name in names if name.endswith(".mid")]
composers = ["Chopin", "Dvořák", "Fauré", "Satie", "Bach", "Beethoven", "Debussy", "Schubert", "Liszt", "Mozart",
             "ショパン", "久石譲", "すぎやまこういち", "植松伸夫", "Game Music", "Karaoke", "Joplin", "Grieg", "Ravel", "Händel"]
categories = ["Ballades", "Études", "Preludes", "Nocturnes", "Sonatas", "交響曲", "ドラゴンクエスト", "ファイナルファンタジー", "Waltzes", "Misc"]
words = ["Ballade", "Prélude", "Nocturne", "Sonate", "Walzer", "序曲", "戦闘", "フィールド", "Rhapsody", "Lullaby", "Mazurka", "Polonaise", "Fantaisie", "夜想曲", "Impromptu"]
random.seed(7)
for number in range(count):
    composer = composers[number % len(composers)]
    category = categories[(number // len(composers)) % len(categories)]
    folder = os.path.join(library, f"{composer} {number % 500:03d}", category)
    os.makedirs(folder, exist_ok=True)
    title = f"{random.choice(words)} {random.choice(words)} {number:06d}.mid"
    os.link(songs[number % len(songs)], os.path.join(folder, title))
PY
fi

TIMEFORMAT=%3R
# The wall time of a command; a search that finds nothing (status 1) is timed as any other.
seconds() { { time { "$@" >/dev/null 2>&1 || true; }; } 2>&1; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
percentile() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { i = int(NR * p / 100 + 0.999); if (i < 1) i = 1; print v[i] }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1000 }'; }
# Milliseconds from $1 to $2 (EPOCHREALTIME values).
elapsed_ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
# Sleeps until $1 (an EPOCHREALTIME value); at once if that is past.
sleep_until() { sleep "$(awk -v t="$1" -v now="$EPOCHREALTIME" 'BEGIN { d = t - now; printf "%.3f", (d > 0 ? d : 0) }')"; }
# A pause of $1 seconds without starting a process: a `read -t` on a FIFO that nobody writes.
mkfifo "$WORK/never"
exec 9<>"$WORK/never"
pause() { read -r -t "$1" -u 9 _ || true; }

note_load
status=0
missed() { echo "MISSED: $*" >&2; status=1; }

indexed=$FILES
if part index; then
    say "(a) indexing from nothing"
    cold=$(seconds "$BIN" index --library "$LIBRARY" --quiet)
    indexed=$("$BIN" index --library "$LIBRARY" | grep -o '[0-9]* MIDI files indexed' | cut -d ' ' -f 1)
    say "(b) indexing again, nothing changed (5 times)"
    reindex=$(for _ in 1 2 3 4 5; do seconds "$BIN" index --library "$LIBRARY" --quiet; done | median)
    database_size=$(du -k "$XDG_DATA_HOME/smfplay/library.sqlite" | cut -f 1)
elif part search || part play; then
    say "indexing the library (not measured: part index not chosen)"
    "$BIN" index --library "$LIBRARY" --quiet
fi

if part search; then
    queries=(chopin frederic dvorak faure ショパン ショパ 久石 序曲 戦闘 バトル nocturne prelude "prélude" walzer mazurka polonaise
             fantaisie impromptu 夜想曲 ドラゴン ファイナル "ballade chopin" "nocturne 042" "sonate beethoven" lullaby rhapsody
             ravel grieg joplin satie bach liszt debussy schubert mozart händel haendel karaoke "game music" études etudes waltzes
             preludes nocturnes sonatas 交響曲 クエスト ファンタジー "012345" "000777" "099999" xx zz "nothing like this" "fi" ba
             "ballade 0001" "序曲 戦闘" "chopin ballades" "dvořák nocturne" "fauré sonate" 003 042 499 "bach 123" "mozart 456"
             植松 すぎやま こういち "伸夫" "久石譲" walz noct prel sona rhap lull maz pol fant impr "op.28" "bwv" "no.1" tt
             "ballade ballade" "序曲 序曲" "nocturne nocturne" ショ パン ド ラ "chopin 000" "satie 001" "grieg 002" "ravel 003"
             "joplin 004" "liszt 005" "debussy 006" "schubert 007" "beethoven 008" "händel 009")
    queries=("${queries[@]:0:100}")
    say "(c) searching ${#queries[@]} times, and find -iname with the same words"
    ours=(); theirs=()
    for query in "${queries[@]}"; do
        # shellcheck disable=SC2086 # the query's words are separate arguments
        ours+=("$(seconds "$BIN" search $query --library "$LIBRARY")")
        theirs+=("$(seconds find "$LIBRARY" -iname "*${query%% *}*")")
    done
    p50=$(printf '%s\n' "${ours[@]}" | percentile 50); p99=$(printf '%s\n' "${ours[@]}" | percentile 99)
    find50=$(printf '%s\n' "${theirs[@]}" | percentile 50); find99=$(printf '%s\n' "${theirs[@]}" | percentile 99)
fi

# --- A private PulseAudio server with a null sink (parts play and resume), as bench/play.sh. ---
if part play || part resume; then
    start_null_sink "$WORK" 44100
fi
# Waits at most $1 seconds for PLAYER to end (then SIGKILL); sets player_status.
wait_player() {
    local _
    for _ in $(seq $(($1 * 20))); do kill -0 "$PLAYER" 2>/dev/null || break; pause 0.05; done
    kill -0 "$PLAYER" 2>/dev/null && { say "the player did not end within $1 s: SIGKILL"; kill -KILL "$PLAYER" 2>/dev/null || true; }
    player_status=0
    wait "$PLAYER" || player_status=$?
    PLAYER=""
}
# The file of smfplay's first "playing 1/N: FILE (M:SS.S)" line in log $1.
played_file() { sed -n 's/^playing 1\/[0-9]*: \(.*\) ([0-9:.]*)$/\1/p' "$1" | head -n 1; }

# --- (d) Time to first sound of play --shuffle. ---
if part play; then
    ONE_FOLDER="$OUT/One file"
    mkdir -p "$ONE_FOLDER"
    ln "$ONE_SONG" "$ONE_FOLDER/Ballade Prélude 000000.mid"
    cat "$SMALL_SOUNDFONT" "$ONE_SONG" "$BIN" "$(command -v fluidsynth)" >/dev/null
    # Seconds from a MIDI file's start to its first note-on (velocity > 0), through its tempo map.
    cat >"$WORK/lead_in.py" <<'PY'
import subprocess, sys
rows = subprocess.run(["midicsv", sys.argv[1]], capture_output=True, check=True).stdout.decode("utf-8", "replace").splitlines()
division, tempos, first = 480, [], None
for row in rows:
    field = [part.strip() for part in row.split(",")]
    if len(field) < 3:
        continue
    if field[2] == "Header":
        division = int(field[5])
    elif field[2] == "Tempo":
        tempos.append((int(field[1]), int(field[3])))
    elif field[2] == "Note_on_c" and int(field[5]) > 0 and (first is None or int(field[1]) < first):
        first = int(field[1])
seconds, at, tempo = 0.0, 0, 500000
for tick, value in sorted(tempos):
    if first is None or tick > first:
        break
    seconds += (tick - at) * tempo / division / 1e6
    at, tempo = tick, value
print("%.3f" % (seconds + ((first or 0) - at) * tempo / division / 1e6))
PY
    # Records the sink's monitor; touches $2 after 0.3 s of silence, then prints the time
    # (time.time()) of the first frame with a sample of magnitude >= $1: its block's arrival less
    # the bytes after it. Prints "none" if nothing comes within $3 s after that.
    cat >"$WORK/first_sound.py" <<'PY'
import array, os, subprocess, sys, time
silence, ready_path, timeout = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
bytes_per_second = 44100 * 4
parec = subprocess.Popen(["parec", "-d", "bench_null.monitor", "--raw", "--format=s16le", "--rate=44100", "--channels=2",
                          "--latency-msec=10"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
fd = parec.stdout.fileno()
quiet, deadline, rest, result = 0, None, b"", "none"
try:
    while True:
        block = os.read(fd, 65536)
        arrived = time.time()
        if not block:
            break
        block = rest + block
        whole = len(block) - len(block) % 4
        block, rest = block[:whole], block[whole:]
        samples = array.array("h", block)
        loud = next((index for index, sample in enumerate(samples) if sample >= silence or -sample >= silence), None)
        if deadline is None:
            quiet = 0 if loud is not None else quiet + len(block)
            if quiet >= 0.3 * bytes_per_second:
                deadline = arrived + timeout
                open(ready_path, "w").close()
        elif loud is not None:
            result = "%.6f" % (arrived - (len(block) - 4 * (loud // 2)) / bytes_per_second)
            break
        elif arrived > deadline:
            break
finally:
    parec.terminate()
print(result, flush=True)
PY

    # One launch of $1 (library, one or fluidsynth); sets sound_ms (launch to first sound),
    # lead_in_ms (its song's) and song.
    first_sound() {
        local what=$1 tag=$2 state="$OUT/runs/play-$1-$2" log="$OUT/runs/play-$1-$2.log" command launched heard
        rm -rf "$state"
        mkdir -p "$state"
        case $what in
            library | one)
                command=("${run_env[@]}" XDG_STATE_HOME="$state" "$BIN" play --shuffle --library "$LIBRARY"
                         --soundfont "$SMALL_SOUNDFONT")
                if [ "$what" = library ]; then command+=("$LIBRARY"); else command+=("$ONE_FOLDER"); fi ;;
            fluidsynth) command=("${run_env[@]}" fluidsynth -a pulseaudio -ni "$SMALL_SOUNDFONT" "$ONE_SONG") ;;
        esac
        rm -f "$WORK/ready"
        python3 "$WORK/first_sound.py" "$SILENCE" "$WORK/ready" 60 >"$WORK/heard" &
        DETECTOR=$!
        for _ in $(seq 100); do [ -e "$WORK/ready" ] && break; pause 0.05; done
        [ -e "$WORK/ready" ] || { say "the monitor delivers no silence to start from"; return 1; }
        # The recorder's short blocks apply from a fresh start of the sink's clock.
        reset_sink
        pause 0.3
        launched=$EPOCHREALTIME
        "${command[@]}" </dev/null >"$log" 2>&1 &
        PLAYER=$!
        while kill -0 "$DETECTOR" 2>/dev/null && kill -0 "$PLAYER" 2>/dev/null; do pause 0.02; done
        # smfplay names the file on its next look at the player (25 a second), maybe just after the
        # sound: that line is waited for (2 s at most) before it is stopped.
        if [ "$what" != fluidsynth ]; then
            for _ in $(seq 100); do grep -q '^playing ' "$log" && break; kill -0 "$PLAYER" 2>/dev/null || break; pause 0.02; done
        fi
        kill -TERM "$PLAYER" 2>/dev/null || true
        wait_player 30
        kill "$DETECTOR" 2>/dev/null || true
        wait "$DETECTOR" || true
        DETECTOR=""
        heard=$(cat "$WORK/heard")
        if [ -z "$heard" ] || [ "$heard" = none ]; then
            say "(d) $what: no sound reached the sink (exit status $player_status; see $log)"
            return 1
        fi
        sound_ms=$(elapsed_ms "$launched" "$heard")
        [ "$sound_ms" -gt 0 ] || { say "(d) sound before the launch of $what: something else plays to the sink"; return 1; }
        if [ "$what" = fluidsynth ]; then song=$ONE_SONG; else song=$(played_file "$log"); fi
        [ -n "$song" ] || { say "(d) $what: no \"playing 1/N:\" line (see $log)"; return 1; }
        lead_in_ms=$(ms "$(python3 "$WORK/lead_in.py" "$song")")
        echo "   (d) $tag, $what: first sound after $sound_ms ms; the song's first note at $lead_in_ms ms ($(basename "$song"))" >&2
        sleep 0.3
    }
    say "(d) time to first sound: play --shuffle of $FILES files, of one file, and fluidsynth; 1 + $PLAY_REPEAT launches each"
    for what in library one fluidsynth; do first_sound "$what" warm-up; done
    play_library=(); play_one=(); play_fluidsynth=(); raw_library=(); raw_one=(); raw_fluidsynth=()
    orders=("library one fluidsynth" "one fluidsynth library" "fluidsynth library one")
    for repeat in $(seq "$PLAY_REPEAT"); do
        for what in ${orders[$(((repeat - 1) % 3))]}; do
            first_sound "$what" "$repeat"
            eval "play_$what+=(\$((sound_ms - lead_in_ms))); raw_$what+=(\$sound_ms)"
        done
    done
    play_median() { printf '%s\n' "$@" | median; }
    first_library=$(play_median "${play_library[@]}"); first_one=$(play_median "${play_one[@]}")
    first_fluidsynth=$(play_median "${play_fluidsynth[@]}")
    raw_first_library=$(play_median "${raw_library[@]}"); raw_first_one=$(play_median "${raw_one[@]}")
    raw_first_fluidsynth=$(play_median "${raw_fluidsynth[@]}")
fi

# --- (e) Browse a folder of 5,000 files. ---
if part browse; then
    BROWSE="$OUT/Browse/$BROWSE_FILES files"
    FIRST_NAME="Ballade Ballade 000000.mid"
    say "(e) making $BROWSE_FILES hard links in $BROWSE"
    python3 - "$BROWSE" "$BROWSE_FILES" "$CORPUS" Examples/Library <<'PY'
import os, sys
folder, count, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
songs = sorted(os.path.join(top, name) for source in sources for top, _, names in os.walk(source) for name in names if name.endswith(".mid"))
words = ["Ballade", "Prélude", "Nocturne", "Sonate", "Walzer", "序曲", "戦闘", "フィールド", "Rhapsody", "Lullaby", "Mazurka", "Polonaise", "Fantaisie", "夜想曲", "Impromptu"]
os.makedirs(folder)
for number in range(count):
    # Number 0 is "Ballade Ballade 000000.mid": first in natural order and in byte order.
    name = f"{words[number % len(words)]} {words[(number // len(words)) % len(words)]} {number:06d}.mid"
    os.link(songs[number % len(songs)], os.path.join(folder, name))
PY
    say "(e) indexing the folder (not measured), so that the browser finds every file in the index"
    "$BIN" index --library "$BROWSE" --quiet
    TMUX_SOCKET="$WORK/tmux.socket"
    tmux -S "$TMUX_SOCKET" -f /dev/null new-session -d -s keep -x 120 -y 40 sleep 1000000
    tmux -S "$TMUX_SOCKET" set-option -g remain-on-exit on
    tmux -S "$TMUX_SOCKET" set-option -g history-limit 20000
    # The pane's program: waits for a line on the FIFO $1, then becomes the rest of its arguments.
    # shellcheck disable=SC2016 # the script's own expansions
    printf '%s\n' '#!/bin/sh' 'fifo=$1' 'shift' 'read -r _ <"$fifo"' 'exec "$@"' >"$WORK/pane.sh"
    chmod +x "$WORK/pane.sh"
    # One launch of $1 (smfplay or ls); sets shown_ms.
    browse_once() {
        local what=$1 tag=$2 state="$OUT/runs/browse-$1-$2" session="$1-$2" command launched screen pid
        rm -rf "$state" "$WORK/go"
        mkfifo "$WORK/go"
        if [ "$what" = smfplay ]; then
            mkdir -p "$state"
            command=("${run_env[@]}" XDG_STATE_HOME="$state" "$BIN" browse "$BROWSE")
        else
            command=(ls "$BROWSE")
        fi
        tmux -S "$TMUX_SOCKET" new-session -d -s "$session" -x 120 -y 40 "$WORK/pane.sh" "$WORK/go" "${command[@]}"
        pid=$(tmux -S "$TMUX_SOCKET" display-message -p -t "$session" '#{pane_pid}')
        pause 0.3
        launched=$EPOCHREALTIME
        echo go >"$WORK/go"
        shown_ms=""
        while :; do
            screen=$(tmux -S "$TMUX_SOCKET" capture-pane -p -S - -t "$session")
            if [[ "$screen" == *"$FIRST_NAME"* ]]; then shown_ms=$(elapsed_ms "$launched" "$EPOCHREALTIME"); break; fi
            [ "$(elapsed_ms "$launched" "$EPOCHREALTIME")" -lt 10000 ] || break
            pause 0.01
        done
        tmux -S "$TMUX_SOCKET" capture-pane -p -t "$session" >"$OUT/runs/browse-$what-$tag.screen"
        tmux -S "$TMUX_SOCKET" kill-session -t "$session"
        for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; pause 0.05; done
        [ -n "$shown_ms" ] || { say "(e) $what never showed \"$FIRST_NAME\" (see $OUT/runs/browse-$what-$tag.screen)"; return 1; }
        echo "   (e) $tag, $what: \"$FIRST_NAME\" shown after $shown_ms ms" >&2
    }
    say "(e) browse of $BROWSE_FILES files in a 120x40 tmux pane, and ls; 1 + $BROWSE_REPEAT launches each"
    browse_smfplay=(); browse_ls=()
    for tag in warm-up $(seq "$BROWSE_REPEAT"); do
        if [ "$tag" != warm-up ] && ((tag % 2 == 0)); then order=(ls smfplay); else order=(smfplay ls); fi
        for what in "${order[@]}"; do
            browse_once "$what" "$tag"
            if [ "$tag" != warm-up ]; then eval "browse_$what+=(\$shown_ms)"; fi
        done
    done
    tmux -S "$TMUX_SOCKET" kill-server
    TMUX_SOCKET=""
    shown_smfplay=$(printf '%s\n' "${browse_smfplay[@]}" | median)
    shown_ls=$(printf '%s\n' "${browse_ls[@]}" | median)
fi

# --- (f) Resume state: the whole library queued against one file. ---
if part resume; then
    mkdir -p "$OUT/runs/empty-data"
    # "write_bytes wchar ticks" of process $1.
    io_and_cpu() {
        local key value written="" passed=""
        while read -r key value; do
            case $key in
                write_bytes:) written=$value ;;
                wchar:) passed=$value ;;
            esac
        done <"/proc/$1/io"
        echo "$written $passed $(awk '{ print $14 + $15 }' "/proc/$1/stat")"
    }
    HZ=$(getconf CLK_TCK)
    # One run of $1 (library or one) playing $2; sets resume_written, resume_passed (bytes) and
    # resume_cpu (s) over the measured window, and resume_first (the file it played first).
    resume_run() {
        local what=$1 target=$2 state="$OUT/runs/resume-$1" log="$OUT/runs/resume-$1.log" launched w0 p0 t0 w1 p1 t1
        rm -rf "$state"
        mkdir -p "$state"
        reset_sink
        say "(f) $what: playing for $RESUME_SKIP_SECONDS + $RESUME_SECONDS s"
        launched=$EPOCHREALTIME
        "${run_env[@]}" XDG_STATE_HOME="$state" XDG_DATA_HOME="$OUT/runs/empty-data" "$BIN" play --repeat one \
            --library "$LIBRARY" "$target" </dev/null >"$log" 2>&1 &
        PLAYER=$!
        sleep_until "$(awk -v t="$launched" -v s="$RESUME_SKIP_SECONDS" 'BEGIN { printf "%.6f", t + s }')"
        kill -0 "$PLAYER" 2>/dev/null || { say "(f) $what: smfplay ended before $RESUME_SKIP_SECONDS s (see $log)"; return 1; }
        read -r w0 p0 t0 < <(io_and_cpu "$PLAYER")
        grep -q '^playing ' "$log" || say "(f) warning: $what had not started playing $RESUME_SKIP_SECONDS s after its launch"
        sleep_until "$(awk -v t="$launched" -v s=$((RESUME_SKIP_SECONDS + RESUME_SECONDS)) 'BEGIN { printf "%.6f", t + s }')"
        kill -0 "$PLAYER" 2>/dev/null || { say "(f) $what: smfplay ended before $((RESUME_SKIP_SECONDS + RESUME_SECONDS)) s (see $log)"; return 1; }
        read -r w1 p1 t1 < <(io_and_cpu "$PLAYER")
        kill -INT "$PLAYER"
        wait_player 60
        [ "$player_status" -eq 130 ] || say "(f) warning: $what exited with status $player_status after SIGINT, 130 expected (see $log)"
        resume_written=$((w1 - w0))
        resume_passed=$((p1 - p0))
        resume_cpu=$(awk -v t=$((t1 - t0)) -v hz="$HZ" 'BEGIN { printf "%.2f", t / hz }')
        resume_first=$(played_file "$log")
        echo "   (f) $what: $resume_written bytes written, $resume_passed bytes passed to write(), CPU $resume_cpu s; first file: $resume_first" >&2
        sleep 1
    }
    resume_run library "$LIBRARY"
    written_library=$resume_written passed_library=$resume_passed cpu_library=$resume_cpu
    [ -n "$resume_first" ] || { say "(f) the library's run named no file (see $OUT/runs/resume-library.log)"; exit 1; }
    resume_run one "$resume_first"
    written_one=$resume_written passed_one=$resume_passed cpu_one=$resume_cpu
    write_ratio=$(awk -v a="$written_library" -v b="$written_one" -v f="$WRITE_FLOOR" 'BEGIN { printf "%.2f", a / (b > f ? b : f) }')
    cpu_ratio=$(awk -v a="$cpu_library" -v b="$cpu_one" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 999) }')
fi

kib() { awk -v b="$1" 'BEGIN { printf "%.0f KiB", b / 1024 }'; }
row() { printf '%-56s %14s %14s %14s %s\n' "$@"; }
echo
if part index || part search || part play || part resume; then library_text="$indexed files"; else library_text="no library (part browse only)"; fi
echo "library benchmark, $(date -u +%Y-%m-%d), $library_text, load at start $load_at_start, at end $(cut -d ' ' -f 1-3 /proc/loadavg), $(nproc) cores"
if part index || part search; then
    echo
    row "" smfplay "find -iname" "" target
    if part index; then
        row "(a) first index, from no database" "${cold} s" "" "" "($(awk -v n="$indexed" -v s="$cold" 'BEGIN { printf "%.0f", n / s }') files/s, ${database_size} KB)"
        row "(b) index again, nothing changed (median of 5)" "${reindex} s" "" "" "< ${MAX_REINDEX_SECONDS} s"
    fi
    if part search; then
        row "(c) search p50, 100 queries (whole process)" "$(ms "$p50") ms" "$(ms "$find50") ms" "" ""
        row "(c) search p99" "$(ms "$p99") ms" "$(ms "$find99") ms" "" "< ${MAX_SEARCH_P99_MS} ms"
    fi
fi
if part play; then
    echo
    row "" "$FILES files" "1 file" "fluidsynth" target
    row "(d) first sound, play --shuffle, less the song's lead-in" "$first_library ms" "$first_one ms" "$first_fluidsynth ms" "< $MAX_FIRST_SOUND_MS ms ($FILES files; median of $PLAY_REPEAT)"
    row "(d) first sound, as heard (the song's lead-in included)" "$raw_first_library ms" "$raw_first_one ms" "$raw_first_fluidsynth ms" "(median of $PLAY_REPEAT; late by 0-30 ms)"
fi
if part browse; then
    echo
    row "" smfplay "ls (a floor)" "" target
    row "(e) browse $BROWSE_FILES files: first name shown (median of $BROWSE_REPEAT)" "$shown_smfplay ms" "$shown_ls ms" "" "< $MAX_BROWSE_MS ms (late by 0-20 ms)"
fi
if part resume; then
    echo
    row "" "whole library" "1 file" ratio target
    row "(f) bytes written in ${RESUME_SECONDS} s (write_bytes)" "$(kib "$written_library")" "$(kib "$written_one")" "$write_ratio" "<= $MAX_RESUME_RATIO (1 file: max(x, 64 KiB))"
    row "(f) CPU s in ${RESUME_SECONDS} s (user + system)" "$cpu_library s" "$cpu_one s" "$cpu_ratio" "<= $MAX_RESUME_RATIO"
    row "(f) bytes passed to write() (wchar, context)" "$(kib "$passed_library")" "$(kib "$passed_one")" "" ""
fi
echo

if part index && awk -v r="$reindex" -v t="$MAX_REINDEX_SECONDS" 'BEGIN { exit !(r >= t) }'; then missed "re-index ${reindex} s"; fi
if part search && awk -v p="$p99" -v t="$MAX_SEARCH_P99_MS" 'BEGIN { exit !(p * 1000 >= t) }'; then missed "search p99 $(ms "$p99") ms"; fi
if part play && [ "$first_library" -ge "$MAX_FIRST_SOUND_MS" ]; then
    missed "(d) first sound of play --shuffle of $FILES files $first_library ms (less the song's lead-in), target < $MAX_FIRST_SOUND_MS ms"
fi
if part browse && [ "$shown_smfplay" -ge "$MAX_BROWSE_MS" ]; then
    missed "(e) browse of $BROWSE_FILES files: first name after $shown_smfplay ms, target < $MAX_BROWSE_MS ms"
fi
if part resume; then
    if awk -v r="$write_ratio" -v m="$MAX_RESUME_RATIO" 'BEGIN { exit !(r > m) }'; then
        missed "(f) resume state: bytes written whole library / one file = $write_ratio ($(kib "$written_library") / $(kib "$written_one")), target <= $MAX_RESUME_RATIO"
    fi
    if awk -v r="$cpu_ratio" -v m="$MAX_RESUME_RATIO" 'BEGIN { exit !(r > m) }'; then
        missed "(f) resume state: CPU whole library / one file = $cpu_ratio ($cpu_library s / $cpu_one s), target <= $MAX_RESUME_RATIO"
    fi
fi
exit $status
