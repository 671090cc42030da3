"""Exact stage-2 values at compiled speed, for the PC-only players.

``exact.c`` (beside this file) is the solver's search in C with a large table; it is
compiled once with the host's C compiler into the user's cache directory and
loaded with ctypes. Without a compiler the Python solver answers instead:
exact values are unique, so the players choose the same cards either way,
only slower.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .solver import Search

SOURCE = Path(__file__).parent / "exact.c"
Hands = list[list[int]]


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "whist-arduboy"


# The host's own instructions first (its popcount makes the search about a sixth faster; the library is built
# on the machine that loads it), then plain C for a compiler without -march=native.
FLAGS = (["-O2", "-march=native"], ["-O2"])


def compiled(source: Path) -> Path | None:
    """``source`` compiled into a shared library in the cache (once, keyed by its hash), or None without a compiler."""
    code = source.read_bytes()
    lib = cache_dir() / f"{source.stem}-{hashlib.sha256(code + repr(FLAGS).encode()).hexdigest()[:16]}.so"
    if not lib.exists():
        cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
        if cc is None:
            return None
        lib.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=lib.parent) as tmp:
            out = Path(tmp) / lib.name
            for flags in FLAGS:
                done = subprocess.run([cc, *flags, "-shared", "-fPIC", "-o", str(out), str(source)],
                                      capture_output=True)
                if done.returncode == 0:
                    break
            else:
                return None
            os.replace(out, lib)  # atomic: parallel workers never load half a file
    return lib


def _load() -> ctypes.CDLL | None:
    """The compiled library, or None without a compiler."""
    lib = compiled(SOURCE)
    if lib is None:
        return None
    dll = ctypes.CDLL(str(lib))
    dll.exact_value.argtypes = [ctypes.POINTER(ctypes.c_uint16)] * 2 + [ctypes.c_int] * 4
    dll.exact_value.restype = ctypes.c_int
    dll.exact_from.argtypes = dll.exact_value.argtypes + [ctypes.c_int]
    dll.exact_from.restype = ctypes.c_int
    Row = ctypes.POINTER(ctypes.c_uint16)
    dll.stage1_playout.argtypes = [Row, Row, Row, ctypes.POINTER(ctypes.c_int)] + [ctypes.c_int] * 8 + [
        ctypes.POINTER(ctypes.c_int)]
    dll.stage1_playout.restype = ctypes.c_int
    dll.judge_play_on.argtypes = [Row, Row] + [ctypes.c_int] * 4 + [ctypes.POINTER(ctypes.c_int)] * 2
    dll.judge_play_on.restype = ctypes.c_int
    dll.exact_tables.argtypes = dll.exact_from.argtypes + [ctypes.c_char_p]
    dll.exact_tables.restype = ctypes.c_int
    return dll


_DLL: ctypes.CDLL | None = None
_TRIED = False


def _dll() -> ctypes.CDLL | None:
    global _DLL, _TRIED
    if not _TRIED:
        _TRIED = True
        _DLL = _load()
    return _DLL


def available() -> bool:
    """Whether the compiled library is there (else the Python fallbacks answer)."""
    return _dll() is not None


def exact_value(h: Hands, trump: int, leader: int, maxer: int, counted: int, guess: int = 0,
                tables: bytes | None = None) -> int:
    """Tricks ``counted`` takes from a trick boundary with ``leader`` to lead, ``maxer`` making it take the most.

    ``guess`` only says where the search's questions start: near the value, they are fewer. ``tables``
    (the endgame tables' file, ``endgame.Tables.data``): the search reads their exact values at their K
    tricks instead of searching on; the same value, sooner.
    """
    dll = _dll()
    if dll is not None:
        Row = ctypes.c_uint16 * 4
        if tables is not None:
            return dll.exact_tables(Row(*h[0]), Row(*h[1]), trump, leader, maxer, counted, guess, tables)
        return dll.exact_from(Row(*h[0]), Row(*h[1]), trump, leader, maxer, counted, guess)
    return python_exact_value(h, trump, leader, maxer, counted)


def stage1_playout(h: Hands, live: list[int], cards: list[int], trump: int, leader: int, lead: int, first: int,
                   weights: tuple[int, int, int], won: list[int]) -> int | None:
    """estimate.deal_points' stage 1 in C (``h``, ``live`` and ``won`` played on in place); the stage-2
    leader, or None without a compiler (the caller plays it in Python)."""
    dll = _dll()
    if dll is None:
        return None
    Row, Ints = ctypes.c_uint16 * 4, ctypes.c_int * len(cards)
    rows = [Row(*h[0]), Row(*h[1]), Row(*live)]
    counts = (ctypes.c_int * 2)(*won)
    leader = dll.stage1_playout(*rows, Ints(*cards), len(cards), trump, leader, lead, first, *weights, counts)
    h[0][:], h[1][:], live[:], won[:] = list(rows[0]), list(rows[1]), list(rows[2]), list(counts)
    return leader


def judge_play_on(h: Hands, trump: int, leader: int, low: bool, stop: int, weights: tuple[int, ...],
                  won: list[int]) -> int | None:
    """judge.play_on in C (``h`` and ``won`` played on in place); the seat to lead at the end, or None without
    a compiler (the caller plays it in Python)."""
    dll = _dll()
    if dll is None:
        return None
    Row = ctypes.c_uint16 * 4
    rows = [Row(*h[0]), Row(*h[1])]
    counts = (ctypes.c_int * 2)(*won)
    leader = dll.judge_play_on(*rows, trump, leader, int(low), stop, (ctypes.c_int * len(weights))(*weights), counts)
    h[0][:], h[1][:], won[:] = list(rows[0]), list(rows[1]), list(counts)
    return leader


def python_exact_value(h: Hands, trump: int, leader: int, maxer: int, counted: int) -> int:
    """The same value from the Python solver (the fallback, and the reference the tests compare with)."""
    n = sum(x.bit_count() for x in h[leader])
    search = Search([list(h[0]), list(h[1])], trump, maxer, counted, None, True)
    v = 0
    while v < n and search.ge(leader, v + 1):
        v += 1
    return v
