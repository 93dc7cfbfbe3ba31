#!/usr/bin/env python3
"""Writes Sources/smfplay/startup.order: the functions and constants that smfplay's commands
touch as they start, which the release link places together at the start of .text and .rodata.

Why: the kernel maps a program's pages 64 KB at a time around each page it faults in
(fault-around). Scattered through 20 MB of code, what `smfplay --version` runs (the Swift
runtime's start, Foundation's initialisers, argument-parser) faulted in some 90 such windows:
6 MB of the binary resident for a command that prints one line. Placed together, the same code
fits in a few windows (BENCHMARKS.md, "Start").

How: the release binary is linked again with the list so far, the commands run under
`perf record -e page-faults`, and each fault in code or constants not yet listed names the
function or constant that faulted: it joins the list, in the order found, and the loop goes on
until the commands fault nowhere else. The commands are those that start often and make no
sound (`--version`, `info`, `lyrics`, `thumbnail`, `search`, `--help`); `--version` goes first,
alone, so that its code is the list's first pages and not spread among the others' (3 MB of code
resident for it instead of 4.2). A stale list costs only speed: the linker skips names it does
not find.

    swift build -c release --static-swift-stdlib --product smfplay --scratch-path .build-order
    scripts/startup-order.py .build-order

Needs perf (Debian: linux-perf) and binutils' nm.
"""

import bisect
import json
import os
import re
import subprocess
import sys
import tempfile

ORDER_FILE = "Sources/smfplay/startup.order"
SONG = "Examples/Library/Bach/Inventions/Invention No.1 BWV 772.mid"
LYRICS_SONG = "Examples/Library/Traditional/Folk/Greensleeves.mid"
MAXIMUM_ROUNDS = 200


def link_arguments(scratch):
    """The release link of smfplay as SwiftPM runs it, from its build manifest."""
    manifest = open(os.path.join(scratch, "release.yaml"), encoding="utf-8").read()
    for block in manifest.split("\n  \""):
        if re.search(r'description: "Linking [^"]*/release/smfplay"', block):
            arguments = json.loads(re.search(r"args: (\[.*\])", block).group(1))
            # Without the ordering Package.swift gives, each with the -Xlinker before it.
            kept = []
            for argument in arguments:
                if "symbol-ordering" in argument and kept[-1:] == ["-Xlinker"]:
                    kept.pop()
                elif "symbol-ordering" not in argument:
                    kept.append(argument)
            return kept
    sys.exit(f"startup-order: no link of smfplay in {scratch}/release.yaml: build it first (see --help)")


def link(arguments, order, output):
    command = list(arguments)
    command[command.index("-o") + 1] = output
    command += ["-Xlinker", f"--symbol-ordering-file={order}", "-Xlinker", "--no-warn-symbol-ordering"]
    subprocess.run(command, check=True)


def symbols(binary):
    """Code and constant symbols with their addresses and sizes, sorted by address."""
    listing = subprocess.run(["nm", "-n", "-S", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
    starts, entries = [], []
    for line in listing.splitlines():
        parts = line.split(" ", 3)
        if len(parts) != 4 or parts[2] not in "TtRr":
            continue
        start, size = int(parts[0], 16), int(parts[1], 16)
        if size == 0:
            continue
        starts.append(start)
        entries.append((start, size, parts[3]))
    return starts, entries


def faulting_addresses(binary, commands, environment):
    """Addresses within the binary (relative to its start) at which the commands faulted."""
    found = []
    real = os.path.realpath(binary)
    with tempfile.TemporaryDirectory() as folder:
        data = os.path.join(folder, "perf.data")
        for command in commands:
            subprocess.run(
                ["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-o", data, "--", binary] + command,
                check=True, stdout=subprocess.DEVNULL, env=environment)
            script = subprocess.run(
                ["perf", "script", "-i", data, "-F", "addr", "--show-mmap-events"],
                check=True, capture_output=True, text=True).stdout
            base = None
            for line in script.splitlines():
                mapping = re.search(r"\[(0x[0-9a-f]+)\(0x[0-9a-f]+\) @ 0 .*\]: r--p (\S+)$", line)
                if mapping and mapping.group(2) == real and base is None:
                    base = int(mapping.group(1), 16)
                elif base is not None and re.fullmatch(r"\s*[0-9a-f]+", line):
                    found.append(int(line, 16) - base)
    return found


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(__doc__)
        sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    arguments = link_arguments(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        environment = dict(os.environ)
        for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            environment[name] = os.path.join(folder, name)
        commands = [
            ["--version"], ["--help"], ["info", SONG], ["lyrics", LYRICS_SONG],
            ["thumbnail", SONG, os.path.join(folder, "song.png")], ["search", "--library", "Examples/Library", "invention"],
        ]
        binary = os.path.join(folder, "smfplay")
        order_path = os.path.join(folder, "startup.order")
        order = []
        open(order_path, "w").close()
        link(arguments, order_path, binary)
        subprocess.run([binary, "index", "--library", "Examples/Library", "--quiet"], check=True, env=environment)
        # `--version` first, alone, and then the rest: its code is then the first pages, together,
        # and not spread among the pages of the commands found with it.
        round_number = 0
        for stage in ([["--version"]], commands):
            while True:
                round_number += 1
                if round_number > MAXIMUM_ROUNDS:
                    sys.exit(f"startup-order: still finding new faults after {MAXIMUM_ROUNDS} rounds")
                starts, entries = symbols(binary)
                listed = set(order)
                new = []
                for address in faulting_addresses(binary, stage, environment):
                    index = bisect.bisect_right(starts, address) - 1
                    if index < 0:
                        continue
                    start, size, name = entries[index]
                    if address < start + size and name not in listed:
                        listed.add(name)
                        new.append(name)
                print(f"round {round_number} ({' '.join(stage[0]) if len(stage) == 1 else 'all'}): {len(new)} new, "
                      f"{len(order) + len(new)} listed", file=sys.stderr)
                if not new:
                    break
                order += new
                with open(order_path, "w", encoding="utf-8") as file:
                    file.write("\n".join(order) + "\n")
                link(arguments, order_path, binary)
        with open(ORDER_FILE, "w", encoding="utf-8") as file:
            file.write("\n".join(order) + "\n")
    print(f"wrote {ORDER_FILE}: {len(order)} symbols", file=sys.stderr)


if __name__ == "__main__":
    main()
