"""Stage 2 judged exactly: each card's value against perfect play, and the line of play that shows why.

In stage 2 a player who remembers the cards knows the other hand, so every
card can be valued by the compiled exact solver (:mod:`.native`). A card
that loses a trick is explained by two lines of perfect play from that
position: the one after the best card (what keeps the trick) and the one
after the card played, which shows the later trick where the loss lands.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.rules import HIGH
from .native import exact_value
from .solver import follow_moves, follower_wins, run_lows

Hands = list[list[int]]


class Exact:
    """Exact stage-2 values for one seat: the counted seat's tricks with the seat making them the most."""

    def __init__(self, seat: int, trump: int, mode: int) -> None:
        self.seat, self.trump = seat, trump
        self.counted = seat if mode == HIGH else 1 - seat  # its own tricks, or in a low hand the other's

    def after(self, h: list[list[int]], leader: int, lead: int, follow: int) -> int:
        """The counted seat's tricks from a finished trick on (that trick included); ``h`` holds what is left."""
        winner = 1 - leader if follower_wins(lead, follow, self.trump) else leader
        return (winner == self.counted) + exact_value(h, self.trump, winner, self.seat, self.counted)

    def card_values(self, h: list[list[int]], leader: int, lead: int, legal: int) -> dict[int, int]:
        """The counted seat's tricks from this trick on for each legal card of the seat, perfect play after it.

        One card of each run is searched (the cards of a run are worth the same).
        """
        seat, opp = self.seat, 1 - self.seat
        values: dict[int, int] = {}
        for s in range(4):
            mine = legal >> (13 * s) & 0x1FFF
            led = 1 << lead % 13 if lead >= 0 and lead // 13 == s else 0
            lows = run_lows(mine, h[0][s] | h[1][s] | led) if mine else 0
            v = 0
            for r in range(13):
                if not mine >> r & 1:
                    continue
                if lows >> r & 1:
                    h[seat][s] ^= 1 << r
                    v = self.after(h, opp, lead, 13 * s + r) if lead >= 0 else self.worst_reply(h, 13 * s + r)
                    h[seat][s] ^= 1 << r
                values[13 * s + r] = v
        return values

    def worst_reply(self, h: list[list[int]], lead: int) -> int:
        """The counted seat's tricks after the seat leads ``lead``: the other seat answers as suits it."""
        seat, opp = self.seat, 1 - self.seat
        worst = None
        for b in follow_moves(h[opp], h[seat], lead, self.trump):
            h[opp][b // 13] ^= 1 << b % 13
            v = self.after(h, seat, lead, b)
            h[opp][b // 13] ^= 1 << b % 13
            worst = v if worst is None else min(worst, v)
        return worst


class Played(NamedTuple):
    """One trick of a line of play."""

    number: int  # 1-based over the hand
    leader: int
    lead: int
    follow: int
    winner: int


def legal_of(h: Hands, mover: int, lead: int) -> int:
    """The cards ``mover`` may play (a card mask): follow suit if able."""
    hand = sum(m << (13 * s) for s, m in enumerate(h[mover]))
    if lead >= 0 and h[mover][lead // 13]:
        return h[mover][lead // 13] << (13 * (lead // 13))
    return hand


def perfect_line(h: Hands, trump: int, mode: int, number: int, leader: int, lead: int, first: int) -> list[Played]:
    """Both seats playing perfectly to the hand's end, the seat to move starting with ``first``.

    Each seat plays its lowest card of the best value, so the line is the
    same every time. ``h`` is left as it was.
    """
    h = [list(h[0]), list(h[1])]
    judges = [Exact(0, trump, mode), Exact(1, trump, mode)]
    out: list[Played] = []
    card = first
    while any(h[leader]) or lead >= 0:
        mover = leader if lead < 0 else 1 - leader
        if card < 0:
            values = judges[mover].card_values(h, leader, lead, legal_of(h, mover, lead))
            top = max(values.values())
            card = min(c for c, v in values.items() if v == top)
        h[mover][card // 13] ^= 1 << card % 13
        if lead < 0:
            lead = card
        else:
            winner = 1 - leader if follower_wins(lead, card, trump) else leader
            out.append(Played(number, leader, lead, card, winner))
            number, leader, lead = number + 1, winner, -1
        card = -1
    return out


def where_lost(best: list[Played], played: list[Played], seat: int, mode: int) -> int:
    """Where the played line first falls behind the best line (an index into both): the trick the card lost,
    which the best line keeps."""
    def good(t: Played) -> bool:
        return (t.winner == seat) == (mode == HIGH)

    ahead = 0
    for i, (b, p) in enumerate(zip(best, played)):
        ahead += good(b) - good(p)
        if ahead > 0:
            return i
    raise ValueError("the played line never falls behind the best one")
