"""Computer players. Each decides from an :class:`Observation` alone.

``random`` draws from the game's shared AI stream (one draw per decision,
even with a single legal card, so the stream never depends on hidden cards).
``greedy`` is a fixed, simple rule: lead the highest card, win as cheaply as
possible, otherwise throw the cheapest card.
"""

from __future__ import annotations

from typing import Callable, Protocol

from .cards import cards_of, nth_card, rank_of, suit_of
from .prng import Rng
from .rules import trick_winner
from .state import Observation


class Player(Protocol):
    name: str

    def choose(self, obs: Observation, legal: int) -> int:
        """Pick one card of the bitmask ``legal``."""
        ...


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


PlayerFactory = Callable[[Rng], Player]

def _ai(name: str) -> PlayerFactory:
    """The memory-based players live in their own modules (imported late: they import this one)."""

    def make(rng: Rng) -> Player:
        from . import players_hard, players_original

        if name == "original":
            return players_original.OriginalPlayer()
        return getattr(players_hard, name)()

    return make


PLAYERS: dict[str, PlayerFactory] = {
    "random": RandomPlayer,
    "greedy": lambda rng: GreedyPlayer(),
    **{name: _ai(name) for name in ("original", "easy", "hard", "expert")},
}
# Players the firmware has, in its enumeration order; each has a C++ template
# generator/templates/players/<name>.cpp.j2 defining choose<Name>(Game&).
DEVICE_PLAYERS: tuple[str, ...] = ("random", "greedy", "original", "easy", "hard")
HUMAN = "human"  # the trace name of a seat played by a person


def make_player(name: str, rng: Rng) -> Player:
    """A fresh player for one game; ``rng`` is the game's shared AI stream."""
    try:
        return PLAYERS[name](rng)
    except KeyError:
        raise ValueError(f"unknown player {name!r}: choose one of {', '.join(PLAYERS)}") from None
