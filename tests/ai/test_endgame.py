"""The endgame tables (generator/ai/endgame.py, endgame.c) against the Python solver, and their file."""

from __future__ import annotations

import random
import struct

import pytest

from generator.ai import endgame
from generator.ai.native import python_exact_value
from generator.ai.solver import split
from generator.engine.rules import HIGH

Position = tuple[list[list[int]], int, int, int]


@pytest.fixture(scope="module")
def tables() -> endgame.Tables:
    return endgame.Tables(endgame.generate())


def random_position(rnd: random.Random, n: int, small: bool) -> Position:
    """``n`` cards each from the 52-card pack or Small Whist's 28 (the 8 to the ace), a trump suit, a mode, a leader."""
    pack = [c for c in range(52) if not small or c % 13 >= 6]
    cards = rnd.sample(pack, 2 * n)
    h = [split(sum(1 << c for c in cards[:n])), split(sum(1 << c for c in cards[n:]))]
    return h, rnd.randrange(4), rnd.randrange(2), rnd.randrange(2)


def solver_value(h: list[list[int]], trump: int, mode: int, leader: int) -> int:
    """The leader's tricks by the Python solver (in a low game each seat makes the other take the most)."""
    counted = leader if mode == HIGH else 1 - leader
    v = python_exact_value(h, trump, leader, leader, counted)
    return v if mode == HIGH else sum(m.bit_count() for m in h[leader]) - v


def check(tables: endgame.Tables, count: int, seed: int) -> None:
    rnd = random.Random(seed)
    for i in range(count):
        n = 1 + i % endgame.K
        pos = random_position(rnd, n, small=i % 3 == 0 and n <= 7)
        assert tables.value(*pos) == solver_value(*pos), pos


def test_tables_agree_with_the_python_solver_at_every_size(tables: endgame.Tables) -> None:
    check(tables, 700, seed=41)


@pytest.mark.slow
def test_tables_agree_with_the_python_solver_on_100000_positions(tables: endgame.Tables) -> None:
    check(tables, 100_000, seed=4141)


def test_high_and_low_games_have_their_own_values(tables: endgame.Tables) -> None:
    rnd = random.Random(7)
    positions = [random_position(rnd, 5, small=False)[:2] for _ in range(50)]
    assert any(tables.value(h, trump, 0, 0) != tables.value(h, trump, 1, 0) for h, trump in positions)


def test_the_file_is_checked(tmp_path) -> None:
    data = endgame.generate()
    assert data[:4] == endgame.MAGIC and data[4] == endgame.K
    missing = tmp_path / "none.bin"
    with pytest.raises(endgame.TablesError, match="make hex") as e:
        endgame.load(missing)
    assert "\n" not in str(e.value)
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(data[:1000] + bytes([data[1000] ^ 1]) + data[1001:])
    with pytest.raises(endgame.TablesError, match="checksum.*make hex"):
        endgame.load(damaged)
    short = tmp_path / "short.bin"
    short.write_bytes(data[:3])
    with pytest.raises(endgame.TablesError, match="make hex"):
        endgame.load(short)
    assert struct.unpack("<I", data[-4:])[0] != 0


def test_every_position_of_a_size_has_its_own_entry(tables: endgame.Tables) -> None:
    """The index is one-to-one on the canonical positions of 4 tricks and fills its block exactly."""
    n, seen = 4, set()
    for t in range(2 * n + 1):
        for a in range(2 * n + 1 - t):
            for b in range(a + 1):
                c = 2 * n - t - a - b
                if not 0 <= c <= b:
                    continue
                for x in range(1 << (2 * n)):
                    if x.bit_count() != n:
                        continue
                    lens = [t, a, b, c]
                    pats, at = [], 0
                    for ln in lens:
                        pats.append(x >> at & (1 << ln) - 1)
                        at += ln
                    seen.add(tables.index(n, lens, pats))
    assert seen == set(range(len(seen)))
    assert tables.offsets[n] - tables.offsets[n - 1] == (len(seen) + 1) // 2


def test_the_cache_holds_the_tables_and_a_damaged_copy_is_made_again(monkeypatch, tmp_path) -> None:
    """generate() reads the tables from the user's cache; a copy that fails its CRC is computed again."""
    good = endgame.generate()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = endgame.cache_path()
    assert tmp_path in path.parents
    made: list[int] = []
    monkeypatch.setattr(endgame, "compute", lambda k=endgame.K: made.append(k) or good)
    assert endgame.generate.__wrapped__() == good and made == [endgame.K]  # no copy yet: computed, kept
    assert path.read_bytes() == good
    assert endgame.generate.__wrapped__() == good and made == [endgame.K]  # read from the cache
    path.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    assert endgame.generate.__wrapped__() == good and made == [endgame.K] * 2  # damaged: computed again
    assert path.read_bytes() == good
