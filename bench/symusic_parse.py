#!/usr/bin/env python3
"""Times symusic's MIDI reader in this process: Score(path), best of N.

Prints one line of key=value fields, like `smfplay-parse-bench time`:
best_ms= median_ms= first_ms= runs= notes= tracks= version=
"""
import argparse
import statistics
import time

import symusic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()

    times = []
    score = None
    for _ in range(max(1, args.repeat)):
        # Free the previous run's score before the clock starts.
        score = None
        start = time.perf_counter()
        score = symusic.Score(args.file)
        times.append((time.perf_counter() - start) * 1000)

    notes = sum(len(track.notes) for track in score.tracks)
    print(
        f"best_ms={min(times):.3f} median_ms={statistics.median(times):.3f} "
        f"first_ms={times[0]:.3f} runs={len(times)} notes={notes} "
        f"tracks={len(score.tracks)} version={symusic.__version__}"
    )


if __name__ == "__main__":
    main()
