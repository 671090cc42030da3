"""Cards, suits and the two decks.

A card is an int ``suit * 13 + rank`` with suits in S H D C order (0..3) and
ranks 0..12 for 2..A. A set of cards is a bitmask with bit ``card`` set, so a
suit is the 13-bit field at ``13 * suit``. The same numbering is used by the
firmware (generated from these constants) and by the trace.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Iterator

RANKS = "23456789TJQKA"
SUITS = "SHDC"
RANKS_PER_SUIT = 13
RED_SUITS = frozenset({1, 2})  # hearts, diamonds
SUIT_MASK_BITS = (1 << RANKS_PER_SUIT) - 1


def card(suit: int, rank: int) -> int:
    """The card of ``suit`` (0..3) and ``rank`` (0 = deuce .. 12 = ace)."""
    return suit * RANKS_PER_SUIT + rank


def suit_of(c: int) -> int:
    return c // RANKS_PER_SUIT


def rank_of(c: int) -> int:
    return c % RANKS_PER_SUIT


def suit_mask(suit: int) -> int:
    """Bitmask of every card of ``suit`` (both decks)."""
    return SUIT_MASK_BITS << (RANKS_PER_SUIT * suit)


SUIT_MASKS = tuple(suit_mask(s) for s in range(4))  # suit_mask() looked up, for the engine's every decision
SUIT_MASK_OF = tuple(SUIT_MASKS[suit_of(c)] for c in range(4 * RANKS_PER_SUIT))  # [card]: its whole suit, to follow it


BITS = tuple(1 << c for c in range(4 * RANKS_PER_SUIT))  # each card's bit, looked up: the engine sets and clears them every play


NAMES = tuple(r + s for s in SUITS for r in RANKS)


def card_name(c: int) -> str:
    """Trace name: rank char then suit char, e.g. ``TH``, ``AS``."""
    return NAMES[c]


class CardError(ValueError):
    """A card name that does not parse, or a card not in the deck in use."""


def parse_card(name: str) -> int:
    """Inverse of :func:`card_name`; accepts lower case and ``10`` for ten."""
    text = name.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise CardError(f"bad card name {name!r}: expected rank 23456789TJQKA then suit SHDC, e.g. TH")
    return card(SUITS.index(text[1]), RANKS.index(text[0]))


def cards_of(mask: int) -> Iterator[int]:
    """The cards of a bitmask, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def nth_card(mask: int, n: int) -> int:
    """The ``n``-th lowest card (0-based) of a bitmask."""
    while n > 0:  # no range object: a random player's every decision
        mask &= mask - 1
        n -= 1
    return (mask & -mask).bit_length() - 1


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


@dataclass(frozen=True)
class Deck:
    """One of the two packs: its size, lowest rank and the per-hand numbers."""

    size: int
    low_rank: int  # lowest rank index in the pack (0 = deuce, 6 = eight)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player, which is also the tricks per stage."""
        return self.size // 4

    @property
    def tricks_per_stage(self) -> int:
        return self.hand_size

    @property
    def cards(self) -> list[int]:
        """The pack in its unshuffled order: suits S H D C, ranks ascending."""
        return list(self._order)

    @cached_property
    def _order(self) -> tuple[int, ...]:
        return tuple(card(s, r) for s in range(4) for r in range(self.low_rank, RANKS_PER_SUIT))

    @cached_property
    def mask(self) -> int:
        return mask_of(self._order)


DECKS: dict[int, Deck] = {
    52: Deck(size=52, low_rank=0),
    28: Deck(size=28, low_rank=6),  # Small Whist: the 2-7 of each suit removed
}
