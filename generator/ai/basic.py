"""The simple players: ``random`` and ``greedy``, each deciding from an :class:`Observation` alone.

``random`` draws from the game's shared AI stream (one draw per decision,
even with a single legal card, so the stream never depends on hidden cards).
``greedy`` is a fixed, simple rule: lead the highest card, win as cheaply as
possible, otherwise throw the cheapest card; in stage 1 it keeps its trumps
(it leads its highest other card and never wins with a trump), since
stage-1 tricks spent on trumps buy nothing under most scorings. Without that
it lost to ``random`` (docs/ai.md).
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
            # highest rank, among equal ranks the first suit in S H D C order; in stage 1 not a
            # trump (holding only trumps: the cheapest)
            pool = [c for c in cards if suit_of(c) != obs.trump] if obs.stage == 1 else cards
            if pool:
                return min(pool, key=lambda c: (-rank_of(c), suit_of(c)))
            return min(cards, key=lambda c: cheapness(c, obs.trump))
        winners = [c for c in cards if trick_winner(obs.lead, c, obs.trump) == 1
                   and not (obs.stage == 1 and suit_of(c) == obs.trump)]
        return min(winners or cards, key=lambda c: cheapness(c, obs.trump))
