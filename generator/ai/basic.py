"""The simple players: ``random`` and ``greedy``, each deciding from an :class:`Observation` alone.

``random`` draws from the game's shared AI stream (one draw per decision,
even with a single legal card, so the stream never depends on hidden cards).
``greedy`` is a fixed, simple rule: lead the highest card, win as cheaply as
possible, otherwise throw the cheapest card.
"""

from __future__ import annotations

from ..engine.cards import cards_of, nth_card, rank_of, suit_of
from ..engine.prng import Rng
from ..engine.rules import trick_winner
from ..engine.state import Observation


def cheapness(c: int, trump: int) -> tuple[int, int, int]:
    """Sort key for "cheapest": non-trumps before trumps, then low rank, then suit order."""
    return (1 if suit_of(c) == trump else 0, rank_of(c), suit_of(c))


class RandomPlayer:
    name = "random"

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, obs: Observation, legal: int) -> int:
        return nth_card(legal, self.rng.uniform(legal.bit_count()))


class GreedyPlayer:
    name = "greedy"

    def choose(self, obs: Observation, legal: int) -> int:
        cards = list(cards_of(legal))
        if obs.lead < 0:
            # highest rank; among equal ranks the first suit in S H D C order
            return min(cards, key=lambda c: (-rank_of(c), suit_of(c)))
        winners = [c for c in cards if trick_winner(obs.lead, c, obs.trump) == 1]
        pool = winners or cards
        return min(pool, key=lambda c: cheapness(c, obs.trump))
