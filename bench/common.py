"""Shared by the Python measurers of the benchmarks (bench/play_measure.py,
bench/library_measure.py), as bench/common.sh is by the scripts that call them."""

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path


class RunFailed(Exception):
    """A run that cannot be counted: the benchmark stops (exit status 1)."""


class Children:
    """The processes a benchmark starts, all stopped when it ends, whatever the reason."""

    def __init__(self):
        self.processes = []

    def start(self, command, **options):
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, **options)
        self.processes.append(process)
        return process

    def stop_all(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def arguments(description):
    """The arguments every measurer takes from the script that calls it; a measurer adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bin-dir", required=True, help="the folder of the release binaries")
    parser.add_argument("--work", required=True, help="a private folder for the benchmark's files")
    parser.add_argument("--load-at-start", required=True, help="the load averages before the benchmark")
    return parser


def run(benchmark):
    """Runs benchmark(children) and returns the exit status: its own (0, or 1 when a target is
    missed), 1 when a run fails (RunFailed), 130 on Ctrl-C or SIGTERM."""
    # SIGTERM ends the benchmark as Ctrl-C does: the processes it started are stopped.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    children = Children()
    try:
        return benchmark(children)
    except RunFailed as failure:
        say(str(failure))
        return 1
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    finally:
        children.stop_all()


def wait_player(player, seconds, stop=signal.SIGTERM):
    """Waits at most SECONDS for the player to end, then sends it STOP; returns its exit status."""
    try:
        return player.wait(seconds)
    except subprocess.TimeoutExpired:
        say(f"the player did not end within {seconds} s: {signal.Signals(stop).name}")
        player.send_signal(stop)
        return player.wait()


def say(message):
    print(f"== {message}", file=sys.stderr, flush=True)


def detail(message):
    print(f"   {message}", file=sys.stderr, flush=True)


def setting(name, default):
    """The environment's BENCH_... value, or the default when it is unset or empty."""
    return os.environ.get(name) or default


def reset_sink():
    """Restarts the null sink's clock (suspend and resume): what a desktop's sink does when a stream wakes it."""
    subprocess.run(["pactl", "suspend-sink", "bench_null", "1"], check=True)
    subprocess.run(["pactl", "suspend-sink", "bench_null", "0"], check=True)


def read_into_page_cache(*files):
    for file in files:
        with open(file, "rb") as stream:
            while stream.read(1 << 20):
                pass


def cpu_ticks(pid):
    """User + system time of a process so far, all its threads, in clock ticks (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime and stime, the stat's fields 14 and 15
