"""``original`` (Club): rules of thumb after the original Arduboy Whist's opponent, a little stronger than it.

They are the rules the original's comments and intent describe, not what its
code does (that is ``ppot``, which this beats on 53% of hands: docs/ai.md).
Stage 1 rates the face-up card (rank, +6 if trumps, +1 per higher card of its
suit already gone) and leads a low, middle or high card by that rating,
following with the cheapest winner only when the card is worth it. Stage 2
leads its highest card and follows with the cheapest winner. It remembers
nothing but the cards played.
"""

from __future__ import annotations

from ..engine.cards import cards_of, rank_of, suit_mask, suit_of
from .basic import cheapness
from ..engine.rules import trick_winner
from ..engine.state import Observation

TRUMP_BONUS = 6
LOW_BELOW = 6  # rating < 6: lead low, follow cheaply
HIGH_FROM = 12  # rating >= 12: lead high, win with any card


def upcard_rating(obs: Observation) -> int:
    """Rank, +6 if trumps, +1 per higher card of its suit already played."""
    up = obs.upcard
    higher = suit_mask(suit_of(up)) & ~((2 << up) - 1)
    bonus = TRUMP_BONUS if suit_of(up) == obs.trump else 0
    return rank_of(up) + bonus + (higher & obs.played).bit_count()


def highest(cards: list[int]) -> int:
    """Highest rank, ties in suit order (as greedy leads)."""
    return min(cards, key=lambda c: (-rank_of(c), suit_of(c)))


def cheapest(cards: list[int], trump: int) -> int:
    return min(cards, key=lambda c: cheapness(c, trump))


class OriginalPlayer:
    name = "original"

    def choose(self, obs: Observation, legal: int) -> int:
        cards = list(cards_of(legal))
        rating = upcard_rating(obs) if obs.stage == 1 else HIGH_FROM
        if obs.lead < 0:
            if rating >= HIGH_FROM:
                return highest(cards)
            by_rank = sorted(cards, key=lambda c: cheapness(c, obs.trump))
            return by_rank[0] if rating < LOW_BELOW else by_rank[len(by_rank) // 2]
        winners = [c for c in cards if trick_winner(obs.lead, c, obs.trump) == 1]
        if rating < LOW_BELOW:
            winners = []
        elif rating < HIGH_FROM:
            winners = [c for c in winners if suit_of(c) != obs.trump]
        return cheapest(winners or cards, obs.trump)
