#!/usr/bin/env python3
"""The measuring half of bench/archives.sh: songs read out of archives against the same files
unpacked, side by side in one run.

(a) index: BENCH_PACKS (1,000) ZIP archives, each the demo library (Examples/Library, 7 songs in
its folders, deflated by Python's zipfile), under Zipped/Packs/, against the same files unpacked
under Unpacked/Packs/pack-NNNN/ (hard links). Each run is a whole `smfplay index --library
FOLDER` from no database (its count of files indexed checked) (a fresh XDG_DATA_HOME), on all cores; 1 + 3 runs of each in
turn, the first not counted (the page cache), medians; files a second = files indexed / seconds.
Target: the archives at least half the unpacked files' rate (an archive is read whole in one
pass and kept while its songs are read, so that its songs cost one decompression each).

(b) first sound: `smfplay play --soundfont TimGM6mb.sf2 pack.lzh` (an LZH archive, level-0
headers, `-lh0-`, holding BENCH_ONE_SONG, whose first note is at 0 s, in a Shift-JIS folder)
against `smfplay play` of the same song unpacked: from the launch to the first frame with a
sample of magnitude >= BENCH_SILENCE at the null sink's monitor (bench/library_measure.py's
Monitor, its precision: late by 0 to about 25 ms, never early). 1 + BENCH_LAUNCHES (5) launches
of each in turn, the first not counted; medians. Target: the archive's median within 50 ms of
the unpacked file's.

Environment: BENCH_OUT (bench/out/archives; emptied first), BENCH_PACKS (1000), BENCH_LAUNCHES
(5), BENCH_ONE_SONG (openmsx's 5432gone_redfarn.mid), BENCH_SMALL_SOUNDFONT (TimGM6mb.sf2),
BENCH_SILENCE (4).
"""

import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from statistics import median_low
from types import SimpleNamespace

from common import RunFailed, arguments, read_into_page_cache, reset_sink, run, say, setting, wait_player
from library_measure import Monitor, lead_in_seconds

DEMO_LIBRARY = Path("Examples/Library")
INDEX_REPEAT = 3
MIN_INDEX_RATIO = 0.5
MAX_FIRST_SOUND_EXTRA_MS = 50


def crc16(data):
    """LHA's CRC-16 (the ARC one: polynomial 0xA001, reflected, from 0)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def lzh_stored(name, data):
    """An LZH archive of one member stored as it is (-lh0-), with a level-0 header, as LHA for DOS
    wrote them: NAME's folders parted by a backslash."""
    body = (b"-lh0-" + len(data).to_bytes(4, "little") + len(data).to_bytes(4, "little") + (0x2D6A6000).to_bytes(4, "little")
            + bytes([0x20, 0, len(name)]) + name + crc16(data).to_bytes(2, "little"))
    return bytes([len(body), sum(body) % 256]) + body + data + b"\0"


def make_libraries(out, packs):
    """The zipped and the unpacked library; returns the number of songs in each."""
    songs = sorted(path for path in DEMO_LIBRARY.rglob("*.mid"))
    zipped, unpacked = out / "Zipped" / "Packs", out / "Unpacked" / "Packs"
    zipped.mkdir(parents=True)
    template = out / "pack.zip"
    with zipfile.ZipFile(template, "w", zipfile.ZIP_DEFLATED) as archive:
        for song in songs:
            archive.write(song, song.relative_to(DEMO_LIBRARY))
    for number in range(packs):
        os.link(template, zipped / f"pack-{number:04}.zip")
        for song in songs:
            target = unpacked / f"pack-{number:04}" / song.relative_to(DEMO_LIBRARY)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(song, target)
    return packs * len(songs)


def index_seconds(smfplay, library, data, songs):
    """One whole `smfplay index` from no database, its wall time; fails unless it indexed SONGS."""
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    started = time.monotonic()
    done = subprocess.run([smfplay, "index", "--library", library], env=dict(os.environ, XDG_DATA_HOME=str(data)),
                          capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise RunFailed(f"(a) smfplay index --library {library} failed ({done.returncode}): {done.stderr}")
    if f": {songs} MIDI files indexed" not in done.stdout:
        raise RunFailed(f"(a) smfplay index --library {library} did not index the {songs} songs: {done.stdout}")
    return seconds


def measure_index(lib, results):
    say(f"(a) index of {lib.songs} songs in {lib.packs} ZIP packs and unpacked; 1 + {INDEX_REPEAT} runs each")
    times = {"zipped": [], "unpacked": []}
    for repeat in range(INDEX_REPEAT + 1):
        for what in ("zipped", "unpacked") if repeat % 2 == 0 else ("unpacked", "zipped"):
            seconds = index_seconds(lib.smfplay, lib.out / what.capitalize(), lib.out / f"data-{what}", lib.songs)
            say(f"(a) {'warm-up' if repeat == 0 else repeat}, {what}: {seconds:.2f} s")
            if repeat > 0:
                times[what].append(seconds)
    results.index = {what: median_low(values) for what, values in times.items()}
    results.rate = {what: lib.songs / seconds for what, seconds in results.index.items()}
    if results.rate["zipped"] < MIN_INDEX_RATIO * results.rate["unpacked"]:
        results.missed.append(f"(a) index of the ZIP packs {results.rate['zipped']:.0f} files/s, "
                              f"target >= {MIN_INDEX_RATIO} x unpacked ({results.rate['unpacked']:.0f})")


def first_sound_ms(lib, tag, command):
    """One launch: ms from the launch to the first sound at the sink."""
    state = lib.runs / f"state-{tag}"
    shutil.rmtree(state, ignore_errors=True)
    state.mkdir()
    monitor = Monitor(lib)
    try:
        monitor.wait_for_silence(0.3, at_most=5)
        reset_sink()
        settled = time.monotonic() + 0.3
        if monitor.first_sound(lambda: time.monotonic() >= settled) is not None:
            raise RunFailed("(b) sound before the launch: something else plays to the sink")
        with open(lib.runs / f"{tag}.log", "wb") as log:
            launched = time.monotonic()
            player = lib.children.start(command, stdout=log, stderr=subprocess.STDOUT,
                                        env=dict(lib.player_environment, XDG_STATE_HOME=str(state)))
        deadline = launched + 30
        sound = monitor.first_sound(lambda: player.poll() is not None or time.monotonic() > deadline)
    finally:
        monitor.close()
    player.terminate()
    status = wait_player(player, 30)
    if sound is None:
        raise RunFailed(f"(b) {tag}: no sound reached the sink (exit status {status}; see {lib.runs / tag}.log)")
    time.sleep(0.3)
    return round((sound - launched) * 1000)


def measure_first_sound(lib, results):
    if lead_in_seconds(lib.one_song) > 0.01:
        raise RunFailed(f"(b) {lib.one_song} does not start at once: choose a song whose first note is at 0 s")
    song = lib.one_song.read_bytes()
    lzh = lib.out / "pack.lzh"
    lzh.write_bytes(lzh_stored("ゲーム".encode("shift_jis") + b"\\stage1.mid", song))
    unpacked = lib.out / "stage1.mid"
    unpacked.write_bytes(song)
    read_into_page_cache(lib.small_soundfont, lzh, unpacked, lib.smfplay)
    commands = {what: [lib.smfplay, "play", "--soundfont", lib.small_soundfont, "--no-mpris", path]
                for what, path in (("archive", lzh), ("unpacked", unpacked))}
    say(f"(b) first sound of play pack.lzh and of the unpacked file; 1 + {lib.launches} launches each")
    heard = {what: [] for what in commands}
    for repeat in range(lib.launches + 1):
        for what in ("archive", "unpacked") if repeat % 2 == 0 else ("unpacked", "archive"):
            ms = first_sound_ms(lib, f"{what}-{repeat}", commands[what])
            say(f"(b) {'warm-up' if repeat == 0 else repeat}, {what}: {ms} ms")
            if repeat > 0:
                heard[what].append(ms)
    results.first_sound = {what: median_low(values) for what, values in heard.items()}
    extra = results.first_sound["archive"] - results.first_sound["unpacked"]
    if extra > MAX_FIRST_SOUND_EXTRA_MS:
        results.missed.append(f"(b) first sound of play pack.lzh {extra} ms after the unpacked file's, "
                              f"target <= {MAX_FIRST_SOUND_EXTRA_MS} ms")


def archives_benchmark(args, children):
    out = Path(setting("BENCH_OUT", "bench/out/archives")).resolve()
    shutil.rmtree(out, ignore_errors=True)
    (out / "runs").mkdir(parents=True)
    for name in ("CONFIG", "CACHE", "STATE"):
        (out / name.lower()).mkdir()
        os.environ[f"XDG_{name}_HOME"] = str(out / name.lower())
    (out / "home").mkdir()
    lib = SimpleNamespace(
        children=children, out=out, runs=out / "runs", smfplay=Path(args.bin_dir) / "smfplay",
        packs=int(setting("BENCH_PACKS", 1000)), launches=int(setting("BENCH_LAUNCHES", 5)),
        one_song=Path(setting("BENCH_ONE_SONG", "/usr/share/games/openttd/baseset/openmsx/5432gone_redfarn.mid")),
        small_soundfont=Path(setting("BENCH_SMALL_SOUNDFONT", "/usr/share/sounds/sf2/TimGM6mb.sf2")),
        silence=int(setting("BENCH_SILENCE", 4)), player_environment=dict(os.environ, HOME=str(out / "home")))
    say(f"making {lib.packs} ZIP packs and the same files unpacked")
    lib.songs = make_libraries(out, lib.packs)
    results = SimpleNamespace(missed=[])
    measure_index(lib, results)
    measure_first_sound(lib, results)

    print()
    print(f"smfplay archives benchmark: {os.cpu_count()} cores; load average at start: {args.load_at_start}")
    print()
    print("| measure | in archives | unpacked | target | met |")
    print("|---|---:|---:|---|---|")
    met = results.rate["zipped"] >= MIN_INDEX_RATIO * results.rate["unpacked"]
    print(f"| (a) index of {lib.songs} songs ({lib.packs} ZIP packs): files/s (median s) | "
          f"{results.rate['zipped']:.0f} ({results.index['zipped']:.2f}) | {results.rate['unpacked']:.0f} "
          f"({results.index['unpacked']:.2f}) | >= {MIN_INDEX_RATIO} x unpacked | {'yes' if met else 'NO'} |")
    extra = results.first_sound["archive"] - results.first_sound["unpacked"]
    print(f"| (b) play: first sound, median ms | {results.first_sound['archive']} (pack.lzh) | "
          f"{results.first_sound['unpacked']} | <= unpacked + {MAX_FIRST_SOUND_EXTRA_MS} | "
          f"{'yes' if extra <= MAX_FIRST_SOUND_EXTRA_MS else 'NO'} |")
    print()
    for missed in results.missed:
        print(f"MISSED: {missed}")
    if not results.missed:
        print("all targets met")
    return 1 if results.missed else 0


if __name__ == "__main__":
    sys.exit(run(lambda children: archives_benchmark(arguments(__doc__).parse_args(), children)))
