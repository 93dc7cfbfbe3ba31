#!/usr/bin/env python3
"""bench/start.sh's measurement: the commands that make no sound, whole process, medians.

Each command is started with posix_spawn (standard output and error to /dev/null) and reaped
with wait4; the wall time runs from just before the spawn to the reaping, so it includes what
starting any program costs here: /bin/true shows how much. The programs alternate, run by run,
so that a busy moment falls on all of them alike. The peak RSS is GNU time's (%M), in runs of
its own: a child posix_spawn makes shares Python's memory until it execs, and its peak counts
Python's; GNU time's child starts from GNU time's, about 2 MB.
"""
import subprocess
import argparse
import os
import statistics
import sys
import tempfile
import time

TARGETS = {"--version": 5.0, "info": 10.0, "thumbnail": 15.0}
VERSION_RSS_TARGET_MB = 10.0


def run(argv):
    devnull = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status, _ = os.wait4(pid, 0)
    elapsed = (time.perf_counter() - start) * 1000
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"start: {' '.join(argv)} failed (status {os.waitstatus_to_exitcode(status)})")
    return elapsed


def peak_rss_mb(argv):
    """The median of five GNU time measurements of `argv`'s peak RSS."""
    values = []
    for _ in range(5):
        done = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
        values.append(int(done.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--smfplay", required=True)
    parser.add_argument("--baseline")
    parser.add_argument("--song", required=True)
    parser.add_argument("--repeat", type=int, default=101)
    parser.add_argument("--load", default="")
    options = parser.parse_args()

    programs = [("smfplay", os.path.abspath(options.smfplay))]
    if options.baseline:
        programs.append(("baseline", os.path.abspath(options.baseline)))
    folder = tempfile.mkdtemp(prefix="smfplay-start-")
    song = os.path.abspath(options.song)
    commands = {
        "--version": lambda binary: [binary, "--version"],
        "info": lambda binary: [binary, "info", song],
        "thumbnail": lambda binary: [binary, "thumbnail", song, os.path.join(folder, "song.png")],
    }
    rows = [("/bin/true", "", lambda _: ["/bin/true"])]
    for name, build in commands.items():
        rows += [(label, name, build) for label, _ in programs]

    samples = {(label, name): [] for label, name, _ in rows}
    binaries = dict(programs)
    for _ in range(options.repeat):
        for label, name, build in rows:
            samples[(label, name)].append(run(build(binaries.get(label, ""))))

    print(f"smfplay start benchmark: {os.cpu_count()} cores, {options.repeat} runs of each, "
          f"load average at start {options.load}, at end {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print()
    print("| command | program | median ms | p95 ms | peak RSS MB (median) | target | met |")
    print("|---|---|---:|---:|---:|---|---|")
    missed = []
    for label, name, _ in rows:
        times = sorted(samples[(label, name)])
        rss = peak_rss_mb(next(build for l, n, build in rows if (l, n) == (label, name))(binaries.get(label, "")))
        median = statistics.median(times)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        target = ""
        met = ""
        if label == "smfplay" and name in TARGETS:
            target = f"<= {TARGETS[name]:g} ms"
            ok = median <= TARGETS[name]
            if name == "--version":
                target += f", RSS <= {VERSION_RSS_TARGET_MB:g} MB"
                ok = ok and rss <= VERSION_RSS_TARGET_MB
            met = "yes" if ok else "**no**"
            if not ok:
                missed.append(f"{name}: {median:.2f} ms, {rss:.1f} MB")
        shown = name or "(nothing)"
        print(f"| {shown} | {label} | {median:.2f} | {p95:.2f} | {rss:.1f} | {target} | {met} |")
    print()
    if missed:
        print("MISSED: " + "; ".join(missed))
        sys.exit(1)
    print("all targets met")


if __name__ == "__main__":
    main()
