"""A whole game: hands dealt from the seed until a player reaches the target.

:func:`play_game` drives two players and reports every event as a trace v1
line through ``emit``; the firmware prints the same lines for the same game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from . import trace
from .rules import Variant, deal, game_winner, hand_points
from .state import HandState, Observation


class Player(Protocol):
    """A seat at the table: it sees only its :class:`Observation` (the AI lives in generator/ai)."""

    name: str

    def choose(self, obs: Observation, legal: int) -> int:
        """Pick one card of the bitmask ``legal``."""
        ...


Emit = Callable[[str], None]
Chooser = Callable[[HandState, int], int]  # (state, player) -> card


@dataclass
class GameResult:
    winner: int  # -1: a drawn single hand
    totals: tuple[int, int]
    hands: int
    lines: list[str] = field(default_factory=list)


def play_hand(variant: Variant, seed: int, number: int, choose: Chooser, emit: Emit) -> HandState:
    """Deal hand ``number`` and play it out, emitting its trace lines."""
    d = deal(seed, number, variant.deck)
    state = HandState(variant.deck, variant.scoring, d)
    for line in trace.hand_header(d, state.trump, state.mode):
        emit(line)
    apply, trick_line = state.apply, trace.trick_line
    for _ in range(2 * variant.deck.hand_size):  # the tricks of both stages: a lead, then the follow that ends it
        leader = state.leader
        apply(choose(state, leader))
        emit(trick_line(apply(choose(state, 1 - leader))))
    return state


def play_game(
    seed: int,
    variant: Variant,
    seats: Sequence[Player],
    emit: Emit | None = None,
) -> GameResult:
    """Play a full game between two seated players (``generator.ai.players.seats`` makes them from names)."""
    seed &= 0xFFFFFFFF
    lines: list[str] = []
    out = emit or lines.append

    def choose(state: HandState, p: int) -> int:
        return seats[p].choose(state.observation(p), state.legal_mask())

    out(trace.game_header(seed, variant, [s.name for s in seats]))
    totals = (0, 0)
    number = 0
    while True:
        number += 1
        state = play_hand(variant, seed, number, choose, out)
        tricks = state.counted_tricks()
        pts = hand_points(variant.scoring, variant.deck, state.mode, tricks)
        totals = (totals[0] + pts[0], totals[1] + pts[1])
        out(trace.score_line(tricks, pts, totals))
        winner = game_winner(variant.target, totals)
        if winner is not None:
            out(trace.end_line(winner, totals))
            return GameResult(winner, totals, number, lines)
