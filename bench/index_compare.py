#!/usr/bin/env python3
"""Two smfplay binaries' first index side by side: `smfplay index --library LIBRARY --quiet` of
bench/library.sh's 100,000-file library from no database, RUNS times each (default 6), the two
binaries alternating, so that a change is measured against the binary before it in one run on
a host whose speed drifts (bench/library.sh times one first index a run). Prints each binary's
median and best wall time, its files a second at the median, and its median CPU time (user and
system, of the process and its threads).

    bench/index_compare.py BEFORE AFTER [RUNS]

Run bench/library.sh (part index) first: it makes the library in bench/out/library. Each run
indexes into a database of its own under bench/out/index-compare, removed after it. Exit status
1 when the two binaries found different numbers of files.
"""

import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
LIBRARY = os.path.join(OUT, "library", "Library")
WORK = os.path.join(OUT, "index-compare")


def first_index(binary):
    """(wall seconds, CPU seconds, files indexed) of one first index from no database."""
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    env = dict(os.environ, XDG_DATA_HOME=f"{WORK}/data", XDG_STATE_HOME=f"{WORK}/state", XDG_CONFIG_HOME=f"{WORK}/config",
               XDG_CACHE_HOME=f"{WORK}/cache", HOME=f"{WORK}/home")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([binary, "index", "--library", LIBRARY], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(WORK, ignore_errors=True)
    if done.returncode != 0:
        sys.exit(f"{binary} index failed ({done.returncode}): {done.stderr.strip()}")
    count = re.search(r"([0-9]+) MIDI files indexed", done.stdout)
    if not count:
        sys.exit(f"{binary} index says no count of the files indexed:\n{done.stdout}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, int(count.group(1))


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[1].strip())
    binaries = [os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])]
    runs = int(sys.argv[3]) if len(sys.argv) == 4 else 6
    if not os.path.isdir(LIBRARY):
        sys.exit(f"no library at {LIBRARY}: run BENCH_PARTS=index bench/library.sh first")
    results = {binary: [] for binary in binaries}
    for run in range(runs):
        for binary in binaries:
            results[binary].append(first_index(binary))
            wall, cpu, _ = results[binary][-1]
            print(f"run {run + 1}/{runs}  {binary}  {wall:.2f} s wall  {cpu:.2f} s CPU", flush=True)
    print()
    for binary in binaries:
        walls = [wall for wall, _, _ in results[binary]]
        files = results[binary][0][2]
        median = statistics.median(walls)
        print(f"{binary}: wall median {median:.2f} s (best {min(walls):.2f} s), {files / median:,.0f} files/s at the median, "
              f"CPU median {statistics.median(cpu for _, cpu, _ in results[binary]):.2f} s")
    counts = {binary: {count for _, _, count in results[binary]} for binary in binaries}
    if counts[binaries[0]] != counts[binaries[1]]:
        print(f"the binaries found different numbers of files: {counts}")
        sys.exit(1)


if __name__ == "__main__":
    main()
