"""The table's words in a terminal: cards and hands as the device draws them.

``10♥``, ``Q♠`` (letters where the terminal cannot show the suit signs), a
hand sorted as on the device. Shared by ``whist play`` and ``whist review``.
"""

from __future__ import annotations

import sys

from ..engine.cards import RANKS, SUITS, cards_of, parse_card, rank_of, suit_of
from ..engine.display import suit_order

SIGNS = "♠♥♦♣"  # in SUITS order
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def can_show_signs(stream=None) -> bool:
    encoding = getattr(stream or sys.stdout, "encoding", None) or "ascii"
    try:
        SIGNS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Table:
    """Says what happens at the table, as the device would, in a terminal."""

    def __init__(self, signs: bool) -> None:
        self.signs = signs

    def suit(self, s: int) -> str:
        return SIGNS[s] if self.signs else SUITS[s]

    def card(self, c: int) -> str:
        rank = RANKS[rank_of(c)]
        return ("10" if rank == "T" else rank) + self.suit(suit_of(c))

    def cards(self, mask: int, trump: int) -> str:
        """Cards in the device's order: trumps first, colours alternating, high cards first."""
        groups = []
        for s in suit_order(trump, "alternate"):
            cs = sorted((c for c in cards_of(mask) if suit_of(c) == s), key=rank_of, reverse=True)
            if cs:
                groups.append(" ".join(self.card(c) for c in cs))
        return "   ".join(groups)

    def parse(self, text: str) -> int:
        """A card as typed: ``10H``, ``th``, ``Q♠``."""
        for i, sign in enumerate(SIGNS):
            text = text.replace(sign, SUITS[i])
        return parse_card(text)
