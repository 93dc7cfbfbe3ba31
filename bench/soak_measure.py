#!/usr/bin/env python3
"""The measuring half of bench/soak.sh: `smfplay play --shuffle --repeat all` for a given time
through a PulseAudio null sink, `fluidsynth -a pulseaudio` beside it on the same songs, each
sampled as it plays.

What is sampled, and how:
- every SOAK_SAMPLE_SECONDS (10), each player's resident memory (VmRSS), threads (/proc/PID/status)
  and open file descriptors (/proc/PID/fd);
- every second, smfplay's heard position and song, through MPRIS (a private D-Bus session bus,
  `playerctl metadata --format '{{mpris:trackid}} {{position}}'`);
- all the time, the null sink's monitor (`parec`): the frames it has played, and when. This is the
  clock of what is heard: a sound card's runs a little fast or slow against the system's (its own
  crystal), and so does the null sink's (it counts its time in whole microseconds per block it
  plays: measured at +38 to +57 ppm, varying with the streams' buffer sizes). A player's position
  follows the sound it plays, so its drift is judged against this clock, not the system's.

What is judged (smfplay only; fluidsynth's figures are for comparison):
- memory: RSS at the end less RSS after the warm-up (the first tenth of the run, 2 minutes at
  least; the SoundFont's samples, FluidSynth's voices, SQLite's pages are in by then): at most 5
  MB. Each is the median of the samples of a window (2 minutes, or a third of the time after
  warm-up when that is shorter): a leak keeps what it took, and shows whole; a song that needs
  more for a while (a long one split over cores) gives it back, and is not growth. The most RSS
  seen is shown beside it;
- descriptors and threads: the median of the last third of the run no more than the median of
  the first third after warm-up. A thread or a descriptor that comes and goes (a measurement's
  between songs, a split's worker while a heavy song plays) is no leak, and shows in the most,
  shown beside; one that stays is, and lifts the median;
- drift: within each song, the slope of the heard position against the sound's clock, less the
  tempo, times the time sampled: the position's slope against the system clock (a least-squares
  line over the song's samples, its first and last 2 seconds left out, and its tail, where the
  position stays at the song's length; a sample whose answer took over three times the median
  left out, as its moment is uncertain) over the sound's (a line over the monitor's reads in the
  same time); summed over the songs and scaled to an hour: under 50 ms an hour. Songs sampled over less than 20 seconds are left out: at --tempo 4
  (SOAK_FAST) no song is, and the drift is not judged. The drift against the system clock and
  the sink's rate against it are shown beside it.

Environment: see bench/soak.sh. Writes bench/out/soak/samples.csv (time, program, rss_kb,
threads, fds), positions.csv (time, trackid, position, the seconds MPRIS took to answer) and
sound.csv (the sound's clock against the system's, about a read a second).
"""

import os
import random
import statistics
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from common import RunFailed, arguments, detail, run, say, setting

RSS_GROWTH_LIMIT_KB = 5 * 1024
RSS_WINDOW_SECONDS = 120
DRIFT_LIMIT_MS_PER_HOUR = 50
SONG_EDGE_SECONDS = 2
SHORTEST_SLOPE_SECONDS = 20


def short_song(path, seconds, rng):
    """A format 0 MIDI file of `seconds` at 120 bpm: a melody and a chord a beat, on a random
    program, with drums on channel 10."""
    events = bytearray()

    def event(delta, data):
        value = delta
        encoded = [value & 0x7F]
        while value > 0x7F:
            value >>= 7
            encoded.insert(0, (value & 0x7F) | 0x80)
        events.extend(bytes(encoded) + bytes(data))

    event(0, [0xFF, 0x51, 3, 0x07, 0xA1, 0x20])
    event(0, [0xC0, rng.randrange(0, 96)])
    for beat in range(seconds * 2):
        key = rng.randrange(55, 80)
        event(0, [0x90, key, 90])
        event(0, [0x99, 36 if beat % 2 == 0 else 38, 100])
        event(220, [0x89, 36 if beat % 2 == 0 else 38, 0])
        event(220, [0x80, key, 0])
    event(0, [0xFF, 0x2F, 0])
    header = b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480)
    path.write_bytes(header + b"MTrk" + struct.pack(">I", len(events)) + events)


def library(work, fast):
    """The songs: Debian's openmsx set, or (fast) 200 short ones made here."""
    if not fast:
        corpus = Path(setting("BENCH_CORPUS", "/usr/share/games/openttd/baseset/openmsx"))
        songs = sorted(corpus.glob("*.mid"))
        if not songs:
            raise RunFailed(f"no MIDI files in {corpus}")
        return corpus, songs
    folder = work / "short"
    folder.mkdir()
    rng = random.Random(20261128)
    songs = []
    for number in range(200):
        song = folder / f"{number:03}.mid"
        short_song(song, rng.randrange(6, 13), rng)
        songs.append(song)
    return folder, songs


def process_sample(pid):
    """(rss_kb, threads, fds) of a running process; None once it has ended."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]), int(fields["Threads"]), fds


def session_bus(work):
    """A private D-Bus session bus: (address, pid)."""
    started = subprocess.run(
        ["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1", f"--address=unix:path={work}/bus"],
        capture_output=True, text=True, check=True)
    address, pid = started.stdout.split()[:2]
    return address, int(pid)


def heard(environment):
    """(trackid, seconds) of what smfplay plays, through MPRIS; None when it does not answer."""
    answer = subprocess.run(
        ["playerctl", "-p", "smfplay", "metadata", "--format", "{{mpris:trackid}} {{position}}"],
        capture_output=True, text=True, env=environment, timeout=5)
    parts = answer.stdout.split()
    if answer.returncode != 0 or len(parts) != 2 or not parts[1].isdigit():
        return None
    return parts[0], int(parts[1]) / 1e6


class SoundClock:
    """The frames a PulseAudio sink has played, read from its monitor by `parec` on a thread of
    its own: `reads` holds (system seconds, sound seconds played so far) at every read, some 40 a
    second; `rate(start, end)` is how many seconds of sound the sink played a second of the system
    clock between two moments (a least-squares line over the reads between them: one read is late
    by up to a block, hundreds together are not)."""

    def __init__(self, monitor, rate, origin):
        self.sample_rate = rate
        self.origin = origin
        self.frames = 0
        self.reads = []
        self.recorder = subprocess.Popen(
            ["parec", "-d", monitor, "--raw", "--format=s16le", f"--rate={rate}", "--channels=2", "--latency-msec=20"],
            stdout=subprocess.PIPE)
        threading.Thread(target=self.follow, daemon=True).start()

    def follow(self):
        descriptor = self.recorder.stdout.fileno()
        while chunk := os.read(descriptor, 4096):
            self.frames += len(chunk) // 4
            self.reads.append((time.monotonic() - self.origin, self.frames / self.sample_rate))

    def rate(self, start, end):
        return slope([read for read in self.reads if start <= read[0] <= end])

    def stop(self):
        self.recorder.kill()
        self.recorder.wait()


def slope(points):
    """The slope of a least-squares line through (x, y) points; None for fewer than two x."""
    if len(points) < 2:
        return None
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread > 0 else None


def drift_ms_per_hour(positions, tempo, clock_rate=lambda start, end: 1.0):
    """The drift of the heard position against a clock, from (system seconds, trackid, position)
    samples, in ms an hour; the seconds it was measured over; and the most the position wandered
    from a line of the tempo's slope within one song, in ms (what a listener watching the time
    would see). `clock_rate(start, end)` is the clock's seconds a system second between two
    moments (the system clock's own: 1). None when no song was sampled long enough."""
    runs, current = [], []
    for sample in positions:
        if current and (sample[1] != current[-1][1] or sample[2] < current[-1][2]):
            runs.append(current)
            current = []
        current.append(sample)
    runs.append(current)
    drift, span, wander = 0.0, 0.0, 0.0
    for samples in runs:
        # At its end a song's position stays at its length while its tail sounds: that plateau
        # is no drift.
        top = max(p for _, _, p in samples)
        samples = [s for s in samples if s[2] < top - 0.001]
        if len(samples) < 2:
            continue
        start, end = samples[0][0] + SONG_EDGE_SECONDS, samples[-1][0] - SONG_EDGE_SECONDS
        inner = [(t, p) for t, _, p in samples if start <= t <= end]
        if len(inner) < 10 or inner[-1][0] - inner[0][0] < SHORTEST_SLOPE_SECONDS:
            continue
        rate = clock_rate(inner[0][0], inner[-1][0])
        if not rate:
            continue
        seconds = inner[-1][0] - inner[0][0]
        drift += (slope(inner) / rate - tempo) * seconds
        span += seconds
        off = [p - tempo * rate * t for t, p in inner]
        wander = max(wander, (max(off) - min(off)) * 1000)
    if span == 0:
        return None, 0, 0
    return drift * 1000 / span * 3600, span, wander


def sink_rate_ppm(sound):
    """How much faster the sink played than the system clock ran, in parts per million, over the
    run, its first 10 seconds left out (the sink starts when smfplay's stream does); None for a
    run too short to tell."""
    if not sound.reads or sound.reads[-1][0] - sound.reads[0][0] < 70:
        return None
    rate = sound.rate(sound.reads[0][0] + 10, sound.reads[-1][0])
    return (rate - 1) * 1e6 if rate else None


def judge(samples, seconds):
    """(rss growth kb after warm-up, threads first/last third, fds first/last third) of one program's samples."""
    warm_up = max(seconds / 10, 120)
    after = [s for s in samples if s[0] >= warm_up]
    if len(after) < 3:
        raise RunFailed(f"too few samples after the warm-up ({warm_up:.0f} s): run longer (SOAK_MINUTES)")
    third = (seconds - warm_up) / 3
    first = [s for s in after if s[0] < warm_up + third]
    last = [s for s in after if s[0] >= seconds - third]
    window = min(RSS_WINDOW_SECONDS, third)
    # A window holds one sample at least, however seldom they are taken.
    rss_start = statistics.median([s[1] for s in after if s[0] < warm_up + window] or [after[0][1]])
    rss_end = statistics.median([s[1] for s in after if s[0] >= seconds - window] or [after[-1][1]])
    growth = rss_end - rss_start
    return {
        "rss after warm-up (MB)": rss_start / 1024, "rss at the end (MB)": rss_end / 1024,
        "rss most (MB)": max(s[1] for s in after) / 1024,
        "rss growth after warm-up (MB)": growth / 1024,
        "threads, first third (median)": statistics.median(s[2] for s in first),
        "threads, last third (median)": statistics.median(s[2] for s in last),
        "threads (most)": max(s[2] for s in after),
        "fds, first third (median)": statistics.median(s[3] for s in first),
        "fds, last third (median)": statistics.median(s[3] for s in last),
        "fds (most)": max(s[3] for s in after),
    }


def benchmark(children):
    options = arguments(__doc__.splitlines()[0])
    options.add_argument("--rate", required=True)
    options.add_argument("--monitor", required=True, help="the null sink's monitor source, whose clock is the sound's")
    options = options.parse_args()
    work = Path(options.work)
    fast = bool(os.environ.get("SOAK_FAST"))
    minutes = float(os.environ.get("SOAK_MINUTES") or 60)
    every = float(os.environ.get("SOAK_SAMPLE_SECONDS") or 10)
    peer = (os.environ.get("SOAK_PEER") or "1") != "0"
    tempo = 4.0 if fast else 1.0
    soundfont = setting("BENCH_SOUNDFONT", "/usr/share/sounds/sf2/FluidR3_GM.sf2")
    out = Path(setting("BENCH_OUT", "bench/out/soak"))
    out.mkdir(parents=True, exist_ok=True)
    folder, songs = library(work, fast)
    say(f"soak: {minutes:g} minutes, {len(songs)} songs in {folder}, tempo {tempo:g}, load at start {options.load_at_start}")

    address, bus_pid = session_bus(work)
    environment = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, HOME=str(work))
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        path = work / name.lower()
        path.mkdir()
        environment[f"XDG_{name}_HOME"] = str(path)
    (work / "config" / "smfplay").mkdir()
    (work / "config" / "smfplay" / "config.toml").write_text(f"sample_rate = {options.rate}\n")
    try:
        smfplay = children.start(
            [f"{options.bin_dir}/smfplay", "play", str(folder), "--shuffle", "--repeat", "all", "--soundfont", soundfont,
             "--tempo", f"{tempo:g}"],
            env=environment, stdout=open(out / "smfplay.log", "w"), stderr=subprocess.STDOUT)
        players = {"smfplay": smfplay}
        if peer:
            # The same songs, over and over as needed, in one list (fluidsynth has no repeat).
            listed = [str(song) for song in songs] * (1 + int(minutes * 60 / (len(songs) * 2)))
            players["fluidsynth"] = children.start(
                ["fluidsynth", "-ni", "-a", "pulseaudio", "-g", "0.16", "-r", options.rate, "-o", "audio.period-size=2205",
                 soundfont] + listed,
                env=dict(os.environ, HOME=str(work)), stdout=subprocess.DEVNULL, stderr=open(out / "fluidsynth.log", "w"))
        start = time.monotonic()
        sound = SoundClock(options.monitor, int(options.rate), start)
        end = start + minutes * 60
        samples = {name: [] for name in players}
        positions = []
        next_sample = start
        while time.monotonic() < end:
            now = time.monotonic()
            if now >= next_sample:
                for name, player in players.items():
                    sample = process_sample(player.pid)
                    if sample is None:
                        raise RunFailed(f"{name} ended after {now - start:.0f} s (status {player.wait()}); see {out}")
                    samples[name].append((now - start,) + sample)
                next_sample += every
            asked = time.monotonic()
            position = heard(environment)
            if position is not None:
                # Between asking and the answer: the moment MPRIS answered is not known closer.
                answered = time.monotonic()
                positions.append(((asked + answered) / 2 - start, position[0], position[1], answered - asked))
            time.sleep(max(0.0, 1 - (time.monotonic() - now)))
        seconds = time.monotonic() - start
        sound.stop()
    finally:
        subprocess.run(["kill", str(bus_pid)], check=False)

    with open(out / "samples.csv", "w") as table:
        table.write("seconds,program,rss_kb,threads,fds\n")
        for name, rows in samples.items():
            for row in rows:
                table.write(f"{row[0]:.1f},{name},{row[1]},{row[2]},{row[3]}\n")
    with open(out / "positions.csv", "w") as table:
        table.write("seconds,trackid,position,answer_seconds\n")
        for row in positions:
            table.write(f"{row[0]:.3f},{row[1]},{row[2]:.6f},{row[3]:.4f}\n")
    with open(out / "sound.csv", "w") as table:
        table.write("seconds,sound_seconds\n")
        for row in sound.reads[::40]:
            table.write(f"{row[0]:.3f},{row[1]:.6f}\n")

    judged = {name: judge(rows, seconds) for name, rows in samples.items()}
    # An answer that took long (a busy moment) says little of when it was given.
    quick = statistics.median(rtt for *_, rtt in positions) * 3 if positions else 0
    timed = [(t, trackid, p) for t, trackid, p, rtt in positions if rtt <= quick]
    drift, drift_span, wander = drift_ms_per_hour(timed, tempo, sound.rate)
    system_drift, _, _ = drift_ms_per_hour(timed, tempo)
    sink_ppm = sink_rate_ppm(sound)
    changes = len({trackid for _, trackid, _, _ in positions}) if positions else 0
    print(f"\nsoak: {seconds / 60:.1f} minutes, tempo {tempo:g}, {len(songs)} songs, samples every {every:g} s")
    names = list(players)
    print("| measure | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for key in judged["smfplay"]:
        print(f"| {key} | " + " | ".join(f"{judged[name][key]:.1f}" if isinstance(judged[name][key], float) else str(judged[name][key])
                                        for name in names) + " |")
    drift_text = f"{drift:.1f} over {drift_span / 60:.1f} min" if drift is not None else "not measured (songs too short)"
    print(f"| drift against the sound (ms an hour) | {drift_text} |" + " n/a |" * (len(names) - 1))
    if drift is not None:
        print(f"| drift against the system clock (ms an hour) | {system_drift:.1f} |" + " n/a |" * (len(names) - 1))
        print(f"| wander within a song (ms, most) | {wander:.1f} |" + " n/a |" * (len(names) - 1))
    if sink_ppm is not None:
        print(f"| the sink's clock against the system's (ppm) | {sink_ppm:+.1f} |" + " n/a |" * (len(names) - 1))
    print(f"| songs heard (MPRIS track ids) | {changes} |" + " n/a |" * (len(names) - 1))

    mine = judged["smfplay"]
    failures = []
    if mine["rss growth after warm-up (MB)"] * 1024 > RSS_GROWTH_LIMIT_KB:
        failures.append(f"smfplay's RSS grew {mine['rss growth after warm-up (MB)']:.1f} MB after warm-up, target <= 5")
    for what in ("threads", "fds"):
        if mine[f"{what}, last third (median)"] > mine[f"{what}, first third (median)"]:
            failures.append(f"smfplay's {what} grew: {mine[f'{what}, first third (median)']:g} -> {mine[f'{what}, last third (median)']:g}")
    if drift is not None and abs(drift) >= DRIFT_LIMIT_MS_PER_HOUR:
        failures.append(f"drift {drift:.1f} ms an hour, target < {DRIFT_LIMIT_MS_PER_HOUR}")
    if not positions:
        failures.append("smfplay never answered over MPRIS: no position sampled")
    for failure in failures:
        say(f"target missed: {failure}")
    for name, player in players.items():
        if player.poll() is not None:
            failures.append(f"{name} ended early (status {player.returncode})")
    detail(f"samples in {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(run(benchmark))
