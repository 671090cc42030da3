"""The endgame tables: exact stage-2 values of every position with :data:`K` tricks or fewer left.

``endgame.c`` (beside this file, compiled as :mod:`.native` compiles ``exact.c``)
fills them by retrograde analysis from the engine's rules, for high games and
for low ones; the build puts them in the FX data image (codegen/fxdata.py) and
in ``build/fx/gen/endgame.bin``, where ``hard-fx`` finds them. The layout (the
index of a position, relative ranks, the non-trump suits sorted by length) is
described in ``endgame.c``; this module computes the same index, so the PC
reads the very bytes the device reads. docs/ai.md says why K is 8.

The file: ``MAGIC``, K and three zero bytes; each block's offset (uint32, little
endian, the high game's blocks for 1..K tricks, then the low game's); FIRST
(K x 14 x 14 bytes, where the splits of a trump length and a longest side suit
start); the blocks, two values a byte (an even index in the low nibble); and the
CRC-32 of all before it.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import struct
import tempfile
import zlib
from functools import cache
from math import comb
from pathlib import Path

from ..engine.rules import HIGH
from .native import cache_dir, compiled

K = 8  # tricks left from which the tables answer: the device's search then fits half a second (docs/ai.md)
MAGIC = b"WXT1"
SUIT = 13
SOURCE = Path(__file__).parent / "endgame.c"
FILE = "endgame.bin"  # in the FX edition's generated sources (build/fx/gen)
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "build" / "fx" / "gen" / FILE
MISSING = "the endgame tables are missing or damaged ({}): run `make hex` to build them"

Hands = list[list[int]]


class TablesError(ValueError):
    """The tables cannot be read; the message is one line naming `make hex`."""


PROBE_FIRST = 8  # FIRST's offset is 8 + 8 K: after the magic, K and the block offsets


def header_size(k: int) -> int:
    return PROBE_FIRST + 8 * k + k * (SUIT + 1) ** 2


def splits(n: int) -> int:
    """How many suit-length splits (t; a >= b >= c) positions of ``n`` tricks have."""
    return sum(1 for t in range(SUIT + 1) for a in range(SUIT + 1) for b in range(a + 1)
               if 0 <= 2 * n - t - a - b <= b)


def block_offsets(k: int = K) -> list[int]:
    """Each block's offset in the file (high games' 1..k tricks, then low games'): what the firmware
    is generated with, without generating the tables."""
    sizes = [(splits(n) * comb(2 * n, n) + 1) // 2 for n in range(1, k + 1)] * 2
    return [header_size(k) + sum(sizes[:i]) for i in range(2 * k)]


def _lib(k: int) -> ctypes.CDLL:
    lib = compiled(SOURCE)
    if lib is None:
        raise TablesError("the endgame tables need a C compiler (cc or gcc) to be generated")
    dll = ctypes.CDLL(str(lib))
    dll.endgame_entries.restype = ctypes.c_uint32
    dll.endgame_index.restype = ctypes.c_uint32
    dll.endgame_index.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_uint32)]
    dll.endgame_setup(k)
    return dll


def _pack(values: bytes) -> bytes:
    """Two 4-bit values a byte, the even index in the low nibble."""
    if len(values) % 2:
        values += b"\0"
    return bytes(lo | hi << 4 for lo, hi in zip(values[0::2], values[1::2]))


def cache_path(k: int = K) -> Path:
    """Where :func:`generate` keeps the file: the user's cache, keyed by the bytes of the code that makes it."""
    key = hashlib.sha256(SOURCE.read_bytes() + Path(__file__).read_bytes()).hexdigest()[:16]
    return cache_dir() / f"endgame-{k}-{key}.bin"


@cache
def generate(k: int = K) -> bytes:
    """The whole file for tables up to ``k`` tricks (deterministic: the same bytes every time), computed
    once and then read from :func:`cache_path`: a build, a test worker or a later build needs it again."""
    path = cache_path(k)
    try:
        data = path.read_bytes()
        Tables(data)  # its magic and CRC: a damaged copy is made again
        return data
    except (OSError, ValueError):
        pass
    data = compute(k)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as tmp:
            tmp.write(data)
        os.replace(tmp.name, path)  # atomic: parallel workers never read half a file
    except OSError:
        pass  # no cache to keep it in: the next one computes it again
    return data


def compute(k: int = K) -> bytes:
    """The file made from scratch (what :func:`generate` caches; `make bench` times it)."""
    dll = _lib(k)
    entries = [dll.endgame_entries(n) for n in range(1, k + 1)]
    blocks: list[bytes] = []
    for mode in (0, 1):
        bufs = [(ctypes.c_uint8 * e)() for e in entries]
        ptrs = (ctypes.POINTER(ctypes.c_uint8) * k)(*[ctypes.cast(b, ctypes.POINTER(ctypes.c_uint8)) for b in bufs])
        dll.endgame_fill(k, mode, ptrs)
        blocks += [_pack(bytes(b)) for b in bufs]
    first = bytes(dll.endgame_first(n, t, a) for n in range(1, k + 1) for t in range(SUIT + 1) for a in range(SUIT + 1))
    offsets = block_offsets(k)
    assert [b - a for a, b in zip(offsets, offsets[1:])] == [len(b) for b in blocks[:-1]]
    body = MAGIC + bytes([k, 0, 0, 0]) + struct.pack(f"<{2 * k}I", *offsets) + first + b"".join(blocks)
    return body + struct.pack("<I", zlib.crc32(body))


def patterns(h: Hands, leader: int) -> tuple[list[int], list[int]]:
    """Each suit's live cards (lengths) and the leader's among them, a bit a card from the lowest."""
    lens, pats = [], []
    for s in range(4):
        mine, live = h[leader][s], h[0][s] | h[1][s]
        p = i = 0
        while live:
            low = live & -live
            if mine & low:
                p |= 1 << i
            live ^= low
            i += 1
        lens.append(i)
        pats.append(p)
    return lens, pats


class Tables:
    """The tables of one file, read as the device reads them."""

    def __init__(self, data: bytes) -> None:
        if len(data) < 12 or data[:4] != MAGIC or not 1 <= data[4] <= 8:
            raise ValueError("not an endgame table file")
        if zlib.crc32(data[:-4]) != struct.unpack("<I", data[-4:])[0]:
            raise ValueError("its checksum does not match")
        self.k = data[4]
        self.data = data
        self.offsets = struct.unpack_from(f"<{2 * self.k}I", data, 8)
        self.first_at = 8 + 8 * self.k

    def index(self, n: int, lens: list[int], pats: list[int]) -> int:
        """The entry of a position of ``n`` tricks (``lens[0]`` and ``pats[0]`` the trump suit's)."""
        side = sorted((1, 2, 3), key=lambda s: -lens[s])  # stable: the longest first, ties by suit
        x, at = pats[0], lens[0]
        for s in side:
            x |= pats[s] << at
            at += lens[s]
        t, a, b = lens[0], lens[side[0]], lens[side[1]]
        split = self.data[self.first_at + ((n - 1) * (SUIT + 1) + t) * (SUIT + 1) + a] + b - (2 * n - t - a + 1) // 2
        rank, i = 0, 1
        for p in range(2 * n):
            if x >> p & 1:
                rank += comb(p, i)
                i += 1
        return split * comb(2 * n, n) + rank

    def value(self, h: Hands, trump: int, mode: int, leader: int) -> int:
        """The leader's tricks from a trick boundary with at most K tricks left, both seats playing perfectly."""
        order = [trump] + [s for s in range(4) if s != trump]
        lens, pats = patterns([[h[0][s] for s in order], [h[1][s] for s in order]], leader)
        n = sum(lens) // 2
        if n == 0:
            return 0
        i = self.index(n, lens, pats)
        byte = self.data[self.offsets[(0 if mode == HIGH else self.k) + n - 1] + (i >> 1)]
        return byte >> 4 if i & 1 else byte & 15


def load(path: Path | None = None) -> Tables:
    """The tables ``make hex`` wrote (:data:`DEFAULT_PATH`); TablesError (one line naming `make hex`) if missing or damaged."""
    return _read(Path(path or DEFAULT_PATH))


@cache
def _read(path: Path) -> Tables:
    try:
        return Tables(Path(path).read_bytes())
    except OSError:
        raise TablesError(MISSING.format(f"no {path}")) from None
    except (ValueError, struct.error) as e:
        raise TablesError(MISSING.format(f"{path}: {e}")) from None
