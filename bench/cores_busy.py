#!/usr/bin/env python3
"""Runs a command and says how busy it kept the cores: `cores_busy.py CORES COMMAND...`.

Every 0.1 s it reads the CPU time of the command's process, all its threads together
(/proc/PID/stat, utime + stime), and prints one line when the command ends:

    WALL CPU BUSY BUSY_TO_LAST_SECOND PEAK_KB

WALL and CPU in seconds; PEAK_KB its peak resident set size; BUSY the CPU time over WALL × CORES; BUSY_TO_LAST_SECOND the same over
the run but its last second (the share of the cores working until then: a batch that leaves a core
idle for its last songs shows it, one that ends together does not). The command's output is
thrown away; its exit status is this script's."""
import os
import subprocess
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime: fields 14 and 15


def main():
    cores = int(sys.argv[1])
    started = time.monotonic()
    process = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples = [(0.0, 0.0)]
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        used = cpu_seconds(process.pid)
        if used is not None:
            samples.append((time.monotonic() - started, used))
        time.sleep(0.1)
    wall = time.monotonic() - started
    cpu = usage.ru_utime + usage.ru_stime
    # The CPU time at the last sample no later than a second before the end.
    before_last = max((sample for sample in samples if sample[0] <= wall - 1), default=(0.0, 0.0))
    busy = cpu / (wall * cores) if wall > 0 else 0
    busy_to_last = before_last[1] / (before_last[0] * cores) if before_last[0] > 0 else 0
    print(f"{wall:.3f} {cpu:.2f} {busy:.3f} {busy_to_last:.3f} {usage.ru_maxrss}")
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
