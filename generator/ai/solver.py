"""The stage-2 solver: perfect play once both hands are known.

The firmware runs the same search (codegen/templates/solver.cpp.j2), card for card
and node for node, so the device and ``whist trace`` make the same choice.
A position is two hands of per-suit rank bitmasks (``h[player][suit]``).

The search answers yes/no questions ("can the searching player make the
counted player take at least ``need`` more tricks?"), which prune far more
than a full alpha-beta window. It plays one representative of each run of
equivalent cards, cuts off with two bounds (the leader's quick tricks; the
follower's trumps over all the leader's, each a sure trick), orders moves so the
likely best come first, and remembers bounds in a small transposition table
keyed exactly by the cards left up to their relative ranks (on the device:
the screen buffer's pages 1-7 and the free RAM above them, lent while it
searches). :func:`decide` asks the question for 1, 2, 3, ... tricks,
keeping the move that proved the last "yes", so running out of its budget
still leaves a move with a proven guarantee. The budget is counted in work
units that follow the AVR's cycles, not in cards played: a card played is
one, a table probe (the bounds, key, lead list and store of a trick
boundary) KEY_WORK more, so a search heavy in probes stops sooner.

Given the endgame tables (:mod:`.endgame`; the FX edition's Master and
``hard-fx``), the search stops at the tables' K tricks left and reads the
exact value there (PROBE_WORK units): its every answer is then exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typing import Protocol

from ..engine.rules import HIGH, LOW

Hands = list[list[int]]  # [player][suit] -> rank bitmask


class Tables(Protocol):
    """Exact values of every position with ``k`` tricks or fewer left: the endgame tables (endgame.Tables)."""

    k: int

    def value(self, h: Hands, trump: int, mode: int, leader: int) -> int:
        """The leader's tricks, both seats playing perfectly."""
        ...

WORK_BUDGET = 32_000  # units per decision: under 1 s on the AVR with the redraws (373-453 cycles a unit; make bench)
FX_WORK_BUDGET = 20_000  # the FX edition's Master, probing the endgame tables: under 8 M cycles (0.5 s) on the device at its 351 cycles a unit; the few decisions it cuts kept the exact value in every one measured (docs/ai.md)
PROBE_WORK = 5  # an endgame table read's units: the index and a read of the FX chip, about 1,100 AVR cycles (docs/ai.md)
KEY_WORK = 5  # a table probe's units: about 2,000 AVR cycles against about 400 for a card played (docs/ai.md)
TT_SLOTS = 320  # the device's table: words of 4 bytes in the screen buffer's pages 1-7 and the free RAM above it
TT_MIN_TRICKS = 3  # positions with fewer tricks left are cheaper to search than to store
KEY_BITS = 31  # a field of (cards + 1) bits per suit, 26 cards at most, and whether the searching seat leads
KEY_MASK = (1 << KEY_BITS) - 1
KEY_MUL = 0x2C9277B5 & KEY_MASK | 1  # odd: mixing the key stays one-to-one
CHECK_BITS = 24  # stored: the mixed key's low bits; the slot comes from its top 15
CHECK_MASK = (1 << CHECK_BITS) - 1
SLOT_MUL = TT_SLOTS // 32  # slot = (key >> 16) * TT_SLOTS / 2**15: two 8-bit multiplies on the AVR
assert TT_SLOTS % 32 == 0 and 128 <= TT_SLOTS < 8192  # exact: the top 7 unstored bits need 128 slots


def tt_slot(key: int) -> int:
    """Which of the TT_SLOTS words holds ``key``: its top 15 bits scaled to the table."""
    return (key >> 16) * SLOT_MUL >> 10


class Aborted(Exception):
    """The work budget ran out; nothing learned in the unfinished question is kept."""


def high_bit(m: int) -> int:
    return 1 << (m.bit_length() - 1)


def run_lows(mine: int, live: int) -> int:
    """The lowest card of each run of ``mine`` (cards with no other live card between them are equivalent)."""
    out, prev_mine = 0, False
    while live:
        low = live & -live
        is_mine = bool(mine & low)
        if is_mine and not prev_mine:
            out |= low
        prev_mine = is_mine
        live ^= low
    return out


def above(mine: int, theirs: int) -> int:
    """Cards of ``mine`` higher than every card of ``theirs``."""
    if not theirs:
        return mine
    n = theirs.bit_length()
    return mine >> n << n


def quick_tricks(lead: list[int], opp: list[int], trump: int) -> int:
    """Tricks the player on lead can cash at once, whatever the opponent does.

    Top trumps first; if they leave the opponent without trumps every top card
    is safe, otherwise only as many of a side suit as the opponent must follow.
    """
    kt = above(lead[trump], opp[trump]).bit_count()
    if kt >= opp[trump].bit_count():
        return kt + sum(above(lead[s], opp[s]).bit_count() for s in range(4) if s != trump)
    return kt + sum(min(above(lead[s], opp[s]).bit_count(), opp[s].bit_count()) for s in range(4) if s != trump)


def lead_moves(mine: list[int], opp: list[int], trump: int) -> list[int]:
    """One card per run, in search order: sure winners, then each suit's lowest run, then the rest.

    After the sure winners the suits go by the opponent's length, shortest
    first, and last the suits it would ruff (void there, trumps left): a lead
    it must follow with few cards is the likeliest to decide the trick, one
    it ruffs the least likely to be best. This order nearly halves the nodes
    a 13-card decision needs (docs/ai.md, the solver's move order).
    """
    lows = [run_lows(mine[s], mine[s] | opp[s]) for s in range(4)]
    out: list[int] = []
    for s in range(4):
        if mine[s] and mine[s] & high_bit(mine[s] | opp[s]) and (opp[s] or not opp[trump] or s == trump):
            b = high_bit(lows[s])
            lows[s] ^= b
            out.append(13 * s + b.bit_length() - 1)
    ruffed = 0 if not opp[trump] else 16
    order = sorted(range(4), key=lambda s: opp[s].bit_count() or (ruffed if s != trump else 0))  # stable: ties by suit
    return _low_then_rest(lows, out, order)


def follow_moves(mine: list[int], opp: list[int], lead: int, trump: int) -> list[int]:
    """Replies to ``lead`` in search order: cheapest winner (or lowest ruff), lowest cards, the rest."""
    ls, lbit = divmod(lead, 13)
    lbit = 1 << lbit
    out: list[int] = []
    if mine[ls]:
        lows = [0, 0, 0, 0]
        lows[ls] = run_lows(mine[ls], mine[ls] | opp[ls] | lbit)
        win = lows[ls] & ~(2 * lbit - 1)
        if win:
            b = win & -win
            lows[ls] ^= b
            out.append(13 * ls + b.bit_length() - 1)
        return _low_then_rest(lows, out)
    lows = [run_lows(mine[s], mine[s] | opp[s]) for s in range(4)]
    if lows[trump]:
        b = lows[trump] & -lows[trump]
        lows[trump] ^= b
        out.append(13 * trump + b.bit_length() - 1)
    return _low_then_rest(lows, out)


def _low_then_rest(lows: list[int], out: list[int], order: Sequence[int] = range(4)) -> list[int]:
    for s in order:
        if lows[s]:
            b = lows[s] & -lows[s]
            lows[s] ^= b
            out.append(13 * s + b.bit_length() - 1)
    for s in order:
        m = lows[s]
        while m:
            b = m & -m
            m ^= b
            out.append(13 * s + b.bit_length() - 1)
    return out


def follower_wins(lead: int, follow: int, trump: int) -> bool:
    ls, fs = lead // 13, follow // 13
    return follow > lead if fs == ls else fs == trump


class SmallTable:
    """The device's table: TT_SLOTS words, each an exact key, a lower and an upper bound.

    The key says which cards are left up to their relative ranks: positions
    whose suits hold the same seats' cards in the same order (whichever cards
    were played) search alike, so they share one entry, as in double-dummy
    solvers. Each suit gives a field as wide as its cards at the root plus
    one: a 1, then a bit per card left from the lowest, set for the searching
    seat's. Then comes 1 when the searching seat's opponent leads: at most 31
    bits, and no seat number, so a position searches the same from either
    seat. It is mixed by an odd multiplier, which is invertible mod 2**31. Its
    top 15 bits pick the slot and its low 24 bits are stored. The match is
    exact: bits 16-23 are stored, and for each value of them the slot tells
    the top seven bits apart (``tests/ai/test_solver.py``).
    """

    def __init__(self, root: list[int]) -> None:
        self.widths = [m.bit_count() + 1 for m in root]  # each suit's field
        self.words = [0] * TT_SLOTS

    def key(self, h: Hands, leader: int, maxer: int) -> int:
        k = 0
        for s in range(4):
            mine, live, v = h[maxer][s], h[0][s] | h[1][s], 1
            while live:
                low = live & -live
                live ^= low
                v = v << 1 | (1 if mine & low else 0)
            k = k << self.widths[s] | v
        return (k << 1 | (leader ^ maxer)) * KEY_MUL & KEY_MASK

    def get(self, key: int) -> tuple[int, int] | None:
        w = self.words[tt_slot(key)]
        if w & 15 and w >> 8 == key & CHECK_MASK:
            return (w >> 4 & 15, (w & 15) - 1)
        return None

    def put(self, key: int, lo: int, hi: int) -> None:
        self.words[tt_slot(key)] = (key & CHECK_MASK) << 8 | lo << 4 | (hi + 1)


class BigTable(SmallTable):
    """Unlimited table for PC-only exact solving (same keys, no collisions)."""

    def __init__(self, root: list[int]) -> None:
        self.widths = [m.bit_count() + 1 for m in root]
        self.d: dict[int, tuple[int, int]] = {}

    def get(self, key: int) -> tuple[int, int] | None:
        return self.d.get(key)

    def put(self, key: int, lo: int, hi: int) -> None:
        self.d[key] = (lo, hi)


class Search:
    """Yes/no questions about one position: can ``maxer`` make ``counted`` take ``need`` more tricks?"""

    def __init__(self, h: Hands, trump: int, maxer: int, counted: int, budget: int | None, exact_table: bool,
                 tables: Tables | None = None) -> None:
        self.h = h
        self.tables = tables
        self.mode = HIGH if maxer == counted else LOW
        self.trump = trump
        self.maxer = maxer
        self.counted = counted
        self.budget = budget
        self.nodes = 0  # cards played
        self.work = 0  # what the budget counts
        root = [h[0][s] | h[1][s] for s in range(4)]
        self.tt = BigTable(root) if exact_table else SmallTable(root)

    def spend(self, units: int) -> None:
        """Aborts once the budget is spent (the check comes first: the device's spend())."""
        if self.budget is not None and self.work >= self.budget:
            raise Aborted
        self.work += units

    def count(self) -> None:
        """A card played."""
        self.spend(1)
        self.nodes += 1

    def ge(self, leader: int, need: int) -> bool:
        """True if ``maxer`` can make ``counted`` win at least ``need`` of the remaining tricks."""
        h, trump = self.h, self.trump
        mine, opp = h[leader], h[1 - leader]
        n = mine[0].bit_count() + mine[1].bit_count() + mine[2].bit_count() + mine[3].bit_count()
        if need <= 0:
            return True
        if need > n:
            return False
        if self.tables is not None and n <= self.tables.k:
            self.spend(PROBE_WORK)
            v = self.tables.value(h, trump, self.mode, leader)
            return (v if leader == self.counted else n - v) >= need
        if self.counted == self.maxer:  # high game: the leader wants its quick tricks
            q = quick_tricks(mine, opp, trump)
            sure = above(opp[trump], mine[trump]).bit_count()  # the follower's trumps over all the leader's: each wins
            if leader == self.counted:
                if q >= need:
                    return True
                if n - sure < need:
                    return False
            else:
                if n - q < need:
                    return False
                if sure >= need:
                    return True
        key = 0
        if n >= TT_MIN_TRICKS:
            self.spend(KEY_WORK)
            key = self.tt.key(h, leader, self.maxer)
            e = self.tt.get(key)
            if e is not None:
                if e[0] >= need:
                    return True
                if e[1] < need:
                    return False
        result = self.trick(leader, need, lead_moves(mine, opp, trump))
        if key:
            e = self.tt.get(key)
            lo, hi = e if e is not None else (0, n)
            if result:
                lo = max(lo, need)
            else:
                hi = min(hi, need - 1)
            self.tt.put(key, lo, hi)
        return result

    def trick(self, leader: int, need: int, leads: list[int]) -> bool:
        """Play out one trick from ``leader`` over ``leads``; the picking side needs one good line."""
        mine, opp = self.h[leader], self.h[1 - leader]
        lead_picks = leader == self.maxer
        for a in leads:
            s, bit = a // 13, 1 << (a % 13)
            self.count()
            mine[s] ^= bit
            ok = self.replies(leader, a, need, follow_moves(opp, mine, a, self.trump))
            mine[s] ^= bit
            if ok == lead_picks:
                return ok
        return not lead_picks

    def replies(self, leader: int, a: int, need: int, follows: list[int]) -> bool:
        """After lead ``a``: the answer over the follower's replies ``follows``."""
        follower = 1 - leader
        hand = self.h[follower]
        picks = follower == self.maxer
        for b in follows:
            s, bit = b // 13, 1 << (b % 13)
            self.count()
            hand[s] ^= bit
            w = follower if follower_wins(a, b, self.trump) else leader
            ok = self.ge(w, need - (w == self.counted))
            hand[s] ^= bit
            if ok == picks:
                return ok
        return not picks


@dataclass
class Decision:
    card: int
    nodes: int  # cards played in the search
    work: int  # what the budget counted (the device's count)
    value: int  # proven tricks for the counted player (exact if ``exact``)
    exact: bool


def root_moves(h: Hands, me: int, lead: int, trump: int) -> list[int]:
    if lead < 0:
        return lead_moves(h[me], h[1 - me], trump)
    return follow_moves(h[me], h[1 - me], lead, trump)


def decide(h: Hands, trump: int, mode: int, me: int, leader: int, lead: int,
           budget: int | None = WORK_BUDGET, exact_table: bool = False, start: int = 0,
           tables: Tables | None = None) -> Decision:
    """The move for ``me`` (leading if ``lead`` < 0, else following ``leader``'s ``lead``).

    Asks "at least T?" for T = 1, 2, ...: the move that proved the last yes is
    played; the first no makes it exact. ``start`` is a value already proven
    for this position (what the seat's last decision proved, less the counted
    tricks since): the questions then begin at it instead of at 1, so an
    unsurprising position costs one or two questions. Should that first
    question fail after all, they begin again at 1. ``h`` is not changed (the
    search works on a copy). With ``tables`` it reads exact values at their K
    tricks left instead of searching on, and without a carried value it
    narrows the value's range [lo, hi] by asking at two thirds of the way up
    (MTD-like): a question far from the value is cheap, and near it the
    counting up from 1 asked every smaller T again (docs/ai.md).
    """
    h = [list(h[0]), list(h[1])]
    counted = me if mode == HIGH else 1 - me
    moves = root_moves(h, me, lead, trump)
    if len(moves) == 1:
        return Decision(moves[0], 0, 0, 0, False)
    search = Search(h, trump, me, counted, budget, exact_table, tables)
    n = sum(x.bit_count() for x in h[me])
    best, lo, hi = moves[0], 0, n  # the value lies in [lo, hi]; `best` proved lo (when lo > 0)
    carried = start > 1  # the seat's last proof: asked first, then a trick more at a time
    need = min(start, n)
    try:
        while lo < hi:
            if not carried:
                need = (lo + 2 * hi + 2) // 3 if tables is not None else lo + 1
            found = root_test(search, moves, me, leader, lead, need)
            if found >= 0:
                best, lo, need = found, need, need + 1
                moves = [best] + [m for m in moves if m != best]
            elif carried and not lo and tables is None:
                carried = False  # Master's rule: begin again at 1
            else:
                hi, carried = need - 1, False
        return Decision(best, search.nodes, search.work, lo, True)
    except Aborted:
        return Decision(best, search.nodes, search.work, lo, False)


def root_test(search: Search, moves: list[int], me: int, leader: int, lead: int, need: int) -> int:
    """The first of ``moves`` that makes the counted player take ``need`` tricks, or -1."""
    for m in moves:
        if move_reaches(search, me, leader, lead, m, need):
            return m
    return -1


def move_reaches(search: Search, me: int, leader: int, lead: int, m: int, need: int) -> bool:
    h, trump = search.h, search.trump
    s, bit = m // 13, 1 << (m % 13)
    search.count()
    h[me][s] ^= bit
    try:
        if lead < 0:
            return search.replies(me, m, need, follow_moves(h[1 - me], h[me], m, trump))
        w = me if follower_wins(lead, m, trump) else leader
        return search.ge(w, need - (w == search.counted))
    finally:
        h[me][s] ^= bit


def split(mask: int) -> list[int]:
    """A 52-bit card mask as four per-suit rank masks."""
    return [(mask >> (13 * s)) & 0x1FFF for s in range(4)]


def run_of(h: Hands, me: int, c: int) -> list[int]:
    """``c`` and the cards of ``me`` equivalent to it (same suit, no other live card between)."""
    s = c // 13
    mine, live = h[me][s], h[0][s] | h[1][s]
    out = [c]
    r = c % 13 + 1
    while r < 13 and not (live >> r & 1 and not mine >> r & 1):
        if mine >> r & 1:
            out.append(13 * s + r)
        r += 1
    return out


def solve(h: Hands, trump: int, mode: int, leader: int) -> tuple[int, list[int]]:
    """Exact tricks player 0 takes from a trick boundary, and every optimal lead."""
    d = decide(h, trump, mode, leader, leader, -1, budget=None, exact_table=True)
    n = sum(x.bit_count() for x in h[leader])
    counted = leader if mode == HIGH else 1 - leader
    search = Search(h, trump, leader, counted, None, True)
    moves = lead_moves(h[leader], h[1 - leader], trump)
    if len(moves) == 1:  # decide() did not search: value it now
        d.value = 1 if move_reaches(search, leader, leader, -1, moves[0], 1) else 0
        while d.value < n and move_reaches(search, leader, leader, -1, moves[0], d.value + 1):
            d.value += 1
    best = [c for m in moves if move_reaches(search, leader, leader, -1, m, d.value) for c in run_of(h, leader, m)]
    tricks0 = d.value if counted == 0 else n - d.value
    return tricks0, sorted(best, key=lambda c: (c // 13, -(c % 13)))


def parse_hand(text: str) -> list[int]:
    """Comma-separated card names (``AS,KD,7C``) as card numbers; raises CardError."""
    from ..engine.cards import parse_card

    return [parse_card(name) for name in text.split(",") if name.strip()]


def solve_text(trump: str, leader: int, hand0: str, hand1: str, mode: str) -> list[str]:
    """The two output lines of ``whist solve``; ValueError (with a one-line message) for a bad position."""
    from ..engine.cards import SUITS, card_name, mask_of
    from ..engine.rules import MODE_NAMES

    hands = [parse_hand(hand0), parse_hand(hand1)]
    if not hands[0]:
        raise ValueError("the hands are empty: give at least one card each")
    if len(hands[0]) != len(hands[1]):
        raise ValueError(f"unequal hands: hand0 has {len(hands[0])} cards, hand1 has {len(hands[1])}")
    if len(hands[0]) > 13:
        raise ValueError(f"hands of {len(hands[0])} cards: stage 2 starts with 13 at most (the table's keys hold 26 cards)")
    all_cards = hands[0] + hands[1]
    dup = sorted({c for c in all_cards if all_cards.count(c) > 1})
    if dup:
        raise ValueError("duplicate cards: " + ",".join(card_name(c) for c in dup))
    h = [split(mask_of(hands[0])), split(mask_of(hands[1]))]
    tricks0, best = solve(h, SUITS.index(trump.upper()), MODE_NAMES.index(mode), leader)
    return [f"tricks0={tricks0}", "best=" + ",".join(card_name(c) for c in best)]
