"""``hard-fx``, the FX edition's Master: its stage 2 is exact (the solver down to the endgame tables),
and without the tables every way of seating it says, in one line, to run `make hex`."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from generator.ai import endgame, judge, rollout, solver
from generator.ai.native import exact_value
from generator.ai.players import make_player
from generator.ai.solver import FX_WORK_BUDGET, decide, follower_wins, split
from generator.cli import main
from generator.engine.prng import Rng
from generator.engine.rules import HIGH


def legal(hand: list[int], lead: int) -> list[int]:
    suits = [lead // 13] if lead >= 0 and hand[lead // 13] else range(4)
    return [13 * s + r for s in suits for r in range(13) if hand[s] >> r & 1]


def counted_after(h, trump: int, mode: int, me: int, leader: int, lead: int, c: int) -> int:
    """The counted seat's exact tricks (``me``'s in a high game, the other's in a low one) after ``me`` plays ``c``."""
    counted = me if mode == HIGH else 1 - me

    def settle(first: int, a: int, b: int) -> int:
        w = 1 - first if follower_wins(a, b, trump) else first
        return (w == counted) + exact_value(h, trump, w, me, counted)

    h[me][c // 13] ^= 1 << c % 13
    try:
        if lead >= 0:
            return settle(leader, lead, c)
        out = []
        for b in legal(h[1 - me], c):
            h[1 - me][b // 13] ^= 1 << b % 13
            out.append(settle(me, c, b))
            h[1 - me][b // 13] ^= 1 << b % 13
        return min(out)
    finally:
        h[me][c // 13] ^= 1 << c % 13


def test_every_stage_2_card_keeps_the_exact_value(endgame_tables) -> None:
    """Random stage-2 starts of 13 and 7 cards, high and low games, both seats at every turn."""
    tables = endgame.load()
    rnd = random.Random(41)
    decisions = 0
    for i in range(12):
        n = 13 if i % 2 else 7
        cards = rnd.sample(range(52), 2 * n)
        h = [split(sum(1 << c for c in cards[:n])), split(sum(1 << c for c in cards[n:]))]
        trump, mode, leader, lead = rnd.randrange(4), i % 4 // 2, rnd.randrange(2), -1
        while any(h[0]) or any(h[1]):
            me = leader if lead < 0 else 1 - leader
            d = decide(h, trump, mode, me, leader, lead, FX_WORK_BUDGET, tables=tables)
            values = {c: counted_after(h, trump, mode, me, leader, lead, c) for c in legal(h[me], lead)}
            assert values[d.card] == max(values.values()), (h, trump, mode, me, leader, lead)
            decisions += 1
            h[me][d.card // 13] ^= 1 << d.card % 13
            if lead < 0:
                lead = d.card
            else:
                leader = me if follower_wins(lead, d.card, trump) else leader
                lead = -1
    assert decisions == 6 * 26 + 6 * 14


def root_questions(monkeypatch, *args, **kwargs) -> tuple[list[tuple[int, bool]], solver.Decision]:
    """The "at least T?" questions decide asks at the root, each with its answer."""
    asked: list[tuple[int, bool]] = []
    test = solver.root_test

    def recording(search, moves, me, leader, lead, need):
        found = test(search, moves, me, leader, lead, need)
        asked.append((need, found >= 0))
        return found

    monkeypatch.setattr(solver, "root_test", recording)
    return asked, decide(*args, **kwargs)


def test_with_the_tables_the_root_narrows_the_range_and_without_counts_up(endgame_tables, monkeypatch) -> None:
    """hard-fx asks two thirds of the way up its range [lo, hi] (the exact value all the same); Master
    (no tables) asks 1, 2, ... up to the first no; a carried value is asked first either way."""
    tables = endgame.load()
    rnd = random.Random(8)
    for _ in range(6):
        cards = rnd.sample(range(52), 26)
        h = [split(sum(1 << c for c in cards[:13])), split(sum(1 << c for c in cards[13:]))]
        trump, leader = rnd.randrange(4), rnd.randrange(2)
        asked, d = root_questions(monkeypatch, h, trump, HIGH, leader, leader, -1, FX_WORK_BUDGET, tables=tables)
        lo, hi = 0, 13
        for need, yes in asked:
            assert need == (lo + 2 * hi + 2) // 3
            lo, hi = (need, hi) if yes else (lo, need - 1)
        assert d.exact and lo == hi == d.value == exact_value(h, trump, leader, leader, leader)
        asked, m = root_questions(monkeypatch, h, trump, HIGH, leader, leader, -1, None, exact_table=True)
        assert asked == [(t, t <= m.value) for t in range(1, min(m.value + 1, 13) + 1)] and m.value == d.value
        if d.value > 1:
            asked, c = root_questions(monkeypatch, h, trump, HIGH, leader, leader, -1, FX_WORK_BUDGET,
                                      start=d.value, tables=tables)
            assert asked[:2] == [(d.value, True), (d.value + 1, False)][:len(asked)] and c.value == d.value


def test_hard_fx_finds_the_tables_make_hex_wrote(endgame_tables) -> None:
    assert make_player("hard-fx", Rng(1)).tables is endgame.load()


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_without_good_tables_one_line_names_make_hex(endgame_tables, tmp_path, monkeypatch, damage) -> None:
    path = tmp_path / endgame.FILE
    if damage == "corrupt":
        data = bytearray(endgame_tables.read_bytes())
        data[len(data) // 2] ^= 0x10
        path.write_bytes(bytes(data))
    monkeypatch.setattr(endgame, "DEFAULT_PATH", path)
    with pytest.raises(ValueError, match="make hex"):
        make_player("hard-fx", Rng(1))
    result = CliRunner().invoke(main, ["arena", "--p0", "hard-fx", "--p1", "hard", "--deals", "1"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("error:") and "make hex" in lines[-1] and "Traceback" not in result.output


def test_rollouts_end_in_the_exact_value_after_the_judge_plays_on(endgame_tables) -> None:
    """A rollout's stage 2 with the tables: 7 cards a hand (Small Whist) scored exactly at once, 13 played on
    by the judge down to the tables' K and the rest scored exactly, high and low."""
    tables = endgame.load()
    rnd = random.Random(43)
    for i in range(40):
        n = 13 if i % 4 == 3 else 7
        cards = rnd.sample(range(52), 2 * n)
        h = [split(sum(1 << c for c in cards[:n])), split(sum(1 << c for c in cards[n:]))]
        trump, mode, leader = rnd.randrange(4), i % 2, rnd.randrange(2)
        live = [h[0][s] | h[1][s] for s in range(4)]
        got = rollout.rollout(0, [list(x) for x in h], list(live), [], leader, -1, -1, trump, False, tables, mode)
        won = [0, 0]
        leader = judge.python_play_on(h, trump, leader, mode, tables.k, won)
        k = min(n, tables.k)
        assert won[0] + won[1] == n - k
        leader_tricks = exact_value(h, trump, leader, leader if mode == HIGH else 1 - leader, leader)
        mine = won[0] + (leader_tricks if leader == 0 else k - leader_tricks)
        assert got == 2 * mine - n, (h, trump, mode, leader)
