"""Intel HEX, read strictly: a file the uploader cannot trust is refused before any device is touched.

Accepted: data (00), end of file (01), extended segment (02) and extended linear
(04) address records, upper or lower case digits, LF or CRLF. Everything else
(bad checksums, wrong lengths, start-address or unknown records, data after the
end record, a missing end record, two different values for one byte) raises
:class:`HexError` with the line number, so the message can point at the fault.
"""

from __future__ import annotations

import string

from ..engine.bounded import Kind
from .editions import FLASH

DATA, EOF, EXT_SEGMENT, EXT_LINEAR = 0, 1, 2, 4
HEX_DIGITS = set(string.hexdigits)
# An Arduboy's hex as a command reads it (generator/engine/bounded.py): the whole flash, bootloader included, each
# byte in a record of its own (":01AAAA00DDCC" and CRLF, 15 characters: the most any tool spends on a byte), with
# room to spare: 16 characters a byte, 512 KB. The game's own hex is about 80 KB.
HEX_BYTES = 16 * FLASH
HEX = Kind("an Intel HEX file", HEX_BYTES, "give a .hex built by 'make hex'")


class HexError(ValueError):
    """The text is not a valid Intel HEX file; the message says where and why."""


def _record(line: str, number: int) -> tuple[int, int, bytes]:
    """Decode one ':' line into (type, address, data), checking its length and checksum."""
    if not line.startswith(":"):
        raise HexError(f"line {number}: does not start with ':'")
    digits = line[1:]
    if len(digits) < 10 or len(digits) % 2 or not set(digits) <= HEX_DIGITS:
        raise HexError(f"line {number}: not a record of hex digit pairs")
    raw = bytes.fromhex(digits)
    count, address, kind, data = raw[0], int.from_bytes(raw[1:3], "big"), raw[3], raw[4:-1]
    if len(data) != count:
        raise HexError(f"line {number}: length field says {count} bytes, the record has {len(data)}")
    if sum(raw) & 0xFF:
        expected = -sum(raw[:-1]) & 0xFF
        raise HexError(f"line {number}: bad checksum {raw[-1]:02X}, expected {expected:02X}")
    return kind, address, data


def _base(kind: int, address: int, data: bytes, number: int) -> int:
    """The new address base set by an 02 or 04 record."""
    if len(data) != 2 or address:
        raise HexError(f"line {number}: malformed address record")
    value = int.from_bytes(data, "big")
    return value << 4 if kind == EXT_SEGMENT else value << 16


def parse(text: str) -> dict[int, int]:
    """Return the bytes the file defines as {address: value}."""
    memory: dict[int, int] = {}
    base = 0
    ended = False
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if ended:
            raise HexError(f"line {number}: data after the end-of-file record")
        kind, address, data = _record(line, number)
        if kind == DATA:
            for offset, value in enumerate(data):
                at = base + address + offset
                if memory.setdefault(at, value) != value:
                    raise HexError(f"line {number}: address 0x{at:04X} is given two different values")
        elif kind == EOF:
            ended = True
        elif kind in (EXT_SEGMENT, EXT_LINEAR):
            base = _base(kind, address, data, number)
        else:
            raise HexError(f"line {number}: unsupported record type {kind:02X}")
    if not ended:
        raise HexError("no end-of-file record (the file is truncated)")
    if not memory:
        raise HexError("no data records")
    return memory


def pages(memory: dict[int, int], size: int, fill: int = 0xFF) -> dict[int, bytes]:
    """Group bytes into the aligned pages they touch, {page address: page}, gaps filled with `fill`."""
    out: dict[int, bytearray] = {}
    for address, value in memory.items():
        start = address - address % size
        out.setdefault(start, bytearray([fill]) * size)[address - start] = value
    return {start: bytes(out[start]) for start in sorted(out)}
