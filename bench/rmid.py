#!/usr/bin/env python3
"""Writes an RMID file in the SF2-RMIDI layout: a Standard MIDI File in a `data` chunk, an INFO
list with the bank offset (DBNK), then a whole sound bank; each chunk padded to an even size.

    bench/rmid.py SONG.mid BANK.sf2 OFFSET OUT.rmi
"""
import sys
from pathlib import Path


def chunk(name, body):
    return name + len(body).to_bytes(4, "little") + body + (b"\0" if len(body) % 2 else b"")


def rmid(song, bank, bank_offset):
    info = chunk(b"LIST", b"INFO" + chunk(b"DBNK", bank_offset.to_bytes(2, "little")))
    body = b"RMID" + chunk(b"data", song) + info + bank + (b"\0" if len(bank) % 2 else b"")
    return b"RIFF" + len(body).to_bytes(4, "little") + body


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    song, bank, offset, output = sys.argv[1:]
    Path(output).write_bytes(rmid(Path(song).read_bytes(), Path(bank).read_bytes(), int(offset)))
