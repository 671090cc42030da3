"""The stage-2 solver against brute-force minimax, and the `whist solve` command."""

import random
from functools import lru_cache

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.engine.rules import HIGH
from generator.ai.solver import CHECK_MASK, KEY_BITS, KEY_WORK, TT_SLOTS, Search, SmallTable, decide, solve, split, tt_slot


def brute(h0: int, h1: int, trump: int, mode: int, leader: int) -> tuple[int, list[int]]:
    """Plain minimax over every legal card (memoised): player 0's tricks and every best lead."""

    def pick(p: int, vals: list[int]) -> int:
        return (max if (p == 0) == (mode == HIGH) else min)(vals)

    def legal(hand: int, lead: int) -> list[int]:
        same = [y for y in range(52) if hand >> y & 1 and y // 13 == lead // 13]
        return same or [y for y in range(52) if hand >> y & 1]

    @lru_cache(None)
    def value(a: int, b: int, ld: int) -> int:
        if not a:
            return 0
        return pick(ld, [lead_value(a, b, ld, x) for x in range(52) if (a, b)[ld] >> x & 1])

    def lead_value(a: int, b: int, ld: int, x: int) -> int:
        hs = [a, b]
        hs[ld] ^= 1 << x
        out = []
        for y in legal(hs[1 - ld], x):
            follower_wins = y > x if y // 13 == x // 13 else y // 13 == trump
            w = 1 - ld if follower_wins else ld
            nh = list(hs)
            nh[1 - ld] ^= 1 << y
            out.append(value(nh[0], nh[1], w) + (w == 0))
        return pick(1 - ld, out)

    v = value(h0, h1, leader)
    best = [x for x in range(52) if (h0, h1)[leader] >> x & 1 and lead_value(h0, h1, leader, x) == v]
    return v, sorted(best, key=lambda c: (c // 13, -(c % 13)))


def random_position(seed: int, max_tricks: int = 6):
    rnd = random.Random(seed)
    n = rnd.randint(1, max_tricks)
    cards = rnd.sample(range(52), 2 * n)
    h0 = sum(1 << c for c in cards[:n])
    h1 = sum(1 << c for c in cards[n:])
    return h0, h1, rnd.randrange(4), rnd.randrange(2), rnd.randrange(2)


def test_solver_agrees_with_brute_force_on_500_positions():
    for seed in range(500):
        h0, h1, trump, mode, leader = random_position(seed)
        assert solve([split(h0), split(h1)], trump, mode, leader) == brute(h0, h1, trump, mode, leader), seed


def test_the_device_table_matches_keys_exactly():
    """A slot and the stored low bits tell every key apart (so a hit is never another position's)."""
    seen = {}
    for top in range(1 << (KEY_BITS - 16)):  # bits 16 and up: the slot depends on nothing else
        key = top << 16
        slot = tt_slot(key)
        assert 0 <= slot < TT_SLOTS
        assert seen.setdefault((slot, key & CHECK_MASK), top) == top
    assert len({tt_slot(t << 16) for t in range(1 << (KEY_BITS - 16))}) == TT_SLOTS  # every slot in use


def test_positions_share_a_key_exactly_when_their_relative_ranks_agree():
    """Same key <=> every suit holds the searching seat's and the other's cards in the same order, same leader."""
    rnd = random.Random(11)
    for _ in range(40):
        cards = rnd.sample(range(52), 20)
        root = [split(sum(1 << c for c in cards[:10])), split(sum(1 << c for c in cards[10:]))]
        table = SmallTable([root[0][s] | root[1][s] for s in range(4)])
        by_key, by_shape = {}, {}
        for _ in range(300):
            gone = rnd.randrange(8)
            h = [split(sum(1 << c for c in rnd.sample(side, 10 - gone))) for side in (cards[:10], cards[10:])]
            leader, maxer = rnd.randrange(2), rnd.randrange(2)
            shape = tuple(tuple(h[maxer][s] >> r & 1 for r in range(13) if (h[0][s] | h[1][s]) >> r & 1)
                          for s in range(4)), leader ^ maxer
            key = table.key(h, leader, maxer)
            assert 0 < key < 1 << KEY_BITS
            assert by_key.setdefault(key, shape) == shape
            assert by_shape.setdefault(shape, key) == key


def test_the_followers_top_trumps_bound_the_search_without_a_card_played():
    # Trumps are suit 0; a hand is [suit 0, 1, 2, 3] rank masks (bit 12: the ace).
    # Seat 0 leads K of trumps and A K of suit 1 against seat 1's trump ace:
    # its quick tricks are 2, the ace takes one of the 3: "all 3?" is no at once.
    h = [[1 << 11, 1 << 12 | 1 << 11, 0, 0], [1 << 12, 0b11, 0, 0]]
    search = Search(h, 0, 0, 0, None, False)
    assert search.ge(0, 2) and not search.ge(0, 3) and search.nodes == 0
    # Seat 1, not on lead, holds the two top trumps: "2 for seat 1?" is yes at once.
    h = [[0, 0, 0b111 << 10, 0], [1 << 12 | 1 << 11, 0, 1, 0]]
    search = Search(h, 0, 1, 1, None, False)
    assert search.ge(0, 2) and search.nodes == 0
    assert not search.ge(0, 3)


def test_budgeted_decision_is_a_best_move_when_exact():
    for seed in range(200):
        h0, h1, trump, mode, leader = random_position(1000 + seed, 8)
        h = [split(h0), split(h1)]
        d = decide(h, trump, mode, leader, leader, -1)
        _, best = brute(h0, h1, trump, mode, leader) if h0.bit_count() <= 6 else solve(h, trump, mode, leader)
        assert d.card in best or not d.exact
        assert h == [split(h0), split(h1)]  # the search restores the hands


def test_budget_caps_the_work_and_a_probe_counts_more_than_a_card():
    rnd = random.Random(5)
    cards = rnd.sample(range(52), 26)
    h = [split(sum(1 << c for c in cards[:13])), split(sum(1 << c for c in cards[13:]))]
    d = decide(h, 0, HIGH, 0, 0, -1, budget=500)
    assert not d.exact and 500 <= d.work < 500 + KEY_WORK  # the check comes before each spend
    assert d.nodes < d.work - 100  # the table's probes took their share: fewer cards than units


def run(*args: str):
    return CliRunner().invoke(main, ["solve", *args])


def test_solve_prints_tricks_and_every_best_lead():
    r = run("--trump", "S", "--lead", "0", "--hand0", "AS,KD,7C", "--hand1", "QS,2D,9C")
    assert r.exit_code == 0
    assert r.output == "tricks0=2\nbest=AS,KD,7C\n"


def test_solve_low_mode_and_equivalent_cards():
    # player 1 leads and wants fewest tricks; QS/JS are equivalent once TS is in the same hand
    r = run("--trump", "h", "--lead", "1", "--hand0", "AS,2C", "--hand1", "QS,JS", "--mode", "low")
    assert r.exit_code == 0
    assert r.output == "tricks0=2\nbest=QS,JS\n"


@pytest.mark.parametrize(
    "hand0, hand1, message",
    [
        ("AS,KD", "QS", "unequal hands"),
        ("AS,KD", "AS,2C", "duplicate cards: AS"),
        ("AS,1D", "QS,2C", "bad card name"),
        ("", "", "empty"),
        (",".join(f"{r}S" for r in "AKQJT98765432") + ",AH", ",".join(f"{r}D" for r in "AKQJT98765432") + ",AC",
         "13 at most"),
    ],
)
def test_solve_rejects_bad_positions(hand0, hand1, message):
    r = run("--trump", "S", "--lead", "0", "--hand0", hand0, "--hand1", hand1)
    assert r.exit_code != 0
    assert message in r.output
    assert r.output.count("\n") == 1


def test_a_carried_value_skips_questions_and_a_wrong_one_is_recovered():
    """decide(start=v): the same exact answer as from scratch; a true start costs fewer nodes, a false one is re-asked from 1."""
    saved = 0
    for seed in range(120):
        h0, h1, trump, mode, leader = random_position(3000 + seed, 8)
        h = [split(h0), split(h1)]
        base = decide(h, trump, mode, leader, leader, -1, budget=None, exact_table=True)
        if not base.nodes:
            continue
        for start in (base.value, base.value + 2):
            d = decide(h, trump, mode, leader, leader, -1, budget=None, exact_table=True, start=start)
            assert d.value == base.value and d.exact
        saved += base.nodes - decide(h, trump, mode, leader, leader, -1, budget=None, exact_table=True,
                                     start=base.value).nodes
    assert saved > 0


def test_the_search_is_the_same_from_either_seat():
    """The table key names no seat: swapping the seats gives the same card and node count under a budget."""
    rnd = random.Random(7)
    for _ in range(30):
        cards = rnd.sample(range(52), 20)
        h = [split(sum(1 << c for c in cards[:10])), split(sum(1 << c for c in cards[10:]))]
        trump, mode = rnd.randrange(4), rnd.randrange(2)
        a = decide(h, trump, mode, 0, 0, -1, budget=3000)
        b = decide([h[1], h[0]], trump, mode, 1, 1, -1, budget=3000)
        assert (a.card, a.nodes, a.value) == (b.card, b.nodes, b.value)
