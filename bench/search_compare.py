#!/usr/bin/env python3
"""Two smfplay binaries' searches side by side, query by query: bench/library.sh's 100 queries,
each a whole `smfplay search` process, REPEAT times (default 5), the two binaries alternating on
the same index, so that a change is measured against the binary before it in one run on a
host whose speed drifts. Prints each binary's p50, p90 and p99 over all runs, the queries
slowest with the second binary (medians), and how many queries printed the same bytes with both.

    bench/search_compare.py BEFORE AFTER [REPEAT]

Run bench/library.sh (part index) first: it makes the library and its index in bench/out/library,
which both binaries search (an index the second binary must update first, as after a new
migration, is updated by it once, unmeasured, before the runs). Exit status 1 when any query
printed other bytes with the two binaries.
"""

import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_measure import QUERIES  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "library")


def environment():
    return dict(os.environ, XDG_DATA_HOME=f"{OUT}/data", XDG_STATE_HOME=f"{OUT}/state", XDG_CONFIG_HOME=f"{OUT}/config",
                XDG_CACHE_HOME=f"{OUT}/cache", HOME=f"{OUT}/home")


def search(binary, query):
    """(wall seconds, standard output) of one search."""
    started = time.perf_counter()
    done = subprocess.run([binary, "search", *query.split(), "--library", f"{OUT}/Library"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, env=environment())
    return time.perf_counter() - started, done.stdout


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2
    binaries = sys.argv[1:3]
    repeat = int(sys.argv[3]) if len(sys.argv) == 4 else 5
    if not os.path.exists(f"{OUT}/data/smfplay/library.sqlite"):
        sys.exit(f"search_compare: no index in {OUT}: run BENCH_PARTS=index bench/library.sh first")
    subprocess.run([binaries[1], "index", "--library", f"{OUT}/Library", "--quiet"], env=environment(), check=True)
    times = {binary: [] for binary in binaries}
    per_query = {}
    same = 0
    for query in QUERIES:
        outputs = []
        for _ in range(repeat):
            for binary in binaries:
                seconds, output = search(binary, query)
                times[binary].append(seconds)
                per_query.setdefault((query, binary), []).append(seconds)
                outputs.append(output)
        same += outputs[0] == outputs[1]
    print(f"{len(QUERIES)} queries, {repeat} times each, alternating; the same output for {same} of {len(QUERIES)}")
    for label, binary in zip(("before", "after"), binaries):
        ordered = sorted(times[binary])
        p50, p90, p99 = (ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000 for share in (0.5, 0.9, 0.99))
        print(f"{label:6} p50 {p50:6.2f} ms  p90 {p90:6.2f} ms  p99 {p99:6.2f} ms  {binary}")
    print("slowest after (median ms, before -> after):")
    for query in sorted(QUERIES, key=lambda q: -statistics.median(per_query[(q, binaries[1])]))[:8]:
        before, after = (statistics.median(per_query[(query, binary)]) * 1000 for binary in binaries)
        print(f"  {query:24} {before:6.2f} -> {after:6.2f}")
    return 0 if same == len(QUERIES) else 1


if __name__ == "__main__":
    sys.exit(main())
