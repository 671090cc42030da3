"""Every computer player by name: the registry the command line, the arena and
the code generator read.

Each player decides from an :class:`~generator.engine.state.Observation` alone
and draws any randomness from the game's shared AI stream.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..engine.bounded import quote
from ..engine.game import Player
from ..engine.prng import Rng, ai_rng
from . import hard, rollout
from .basic import GreedyPlayer, RandomPlayer
from .expert import ExpertPlayer
from .original import OriginalPlayer
from .ppot import PpotPlayer

PlayerFactory = Callable[[Rng], Player]

PLAYERS: dict[str, PlayerFactory] = {
    "random": RandomPlayer,
    "greedy": lambda rng: GreedyPlayer(),
    "original": lambda rng: OriginalPlayer(),
    "easy": lambda rng: hard.easy(),
    "hard": rollout.hard,
    "hard-fx": rollout.hard_fx,  # the FX edition's Master: exact stage 2 from the endgame tables (after `make hex`)
    # PC only: the yardsticks (docs/ai.md), never offered on the device
    "hard-rule": lambda rng: hard.hard_rule(),
    "hard-ceiling": rollout.hard_ceiling,  # Master whose rollouts end in exact values: what a perfect judge is worth
    "hard-estimate": rollout.hard_estimate,  # Master before the judge: its rollouts end in a linear estimate
    "original-exact": lambda rng: hard.original_exact(),
    "hard-exact": lambda rng: hard.hard_exact(),
    "expert": ExpertPlayer,
    "ppot": lambda rng: PpotPlayer(),  # the original Arduboy Whist's code as it really plays
}
# Players the firmware has, in its enumeration order; each has a C++ template
# generator/codegen/templates/players/<name>.cpp.j2 defining choose<Name>(Game&).
DEVICE_PLAYERS: tuple[str, ...] = ("random", "greedy", "original", "easy", "hard")
# The FX edition's twins: its Master reads the endgame tables from the chip, so its stage 2 is
# hard-fx's, and its traces name it so.
FX_TWINS: dict[str, str] = {"hard": "hard-fx"}


def device_players(fx: bool = False) -> tuple[str, ...]:
    """The players of an edition's firmware, in DEVICE_PLAYERS' order, by the names its traces use."""
    return tuple(FX_TWINS.get(p, p) for p in DEVICE_PLAYERS) if fx else DEVICE_PLAYERS


# What a player sees: each device level's name, a ladder read in order, and a one-line hint
# that says how strong it is, weakest first (the order of DEVICE_PLAYERS; each beats the
# one below on duplicate deals, docs/ai.md).
LEVEL_NAMES: dict[str, tuple[str, str]] = {
    "random": ("Beginner", "1/5: the weakest, any legal card"),
    "greedy": ("Casual", "2/5: grabs tricks, keeps trumps"),
    "original": ("Club", "3/5: just above the original"),
    "easy": ("Pro", "4/5: stronger than the original"),
    "hard": ("Master", "5/5: the strongest, thinks ahead"),
}
# The level a first game on the device is played at (the serial `play`
# command keeps its own default, protocol.DEFAULTS).
FIRST_LEVEL = "original"
# The levels at which the FX edition's coach shows, on request during stage 2, the cards that keep the
# most tricks (the easier three: at Pro and Master the player is on their own).
HINT_LEVELS: tuple[str, ...] = ("random", "greedy", "original")
HUMAN = "human"  # the trace name of a seat played by a person


def make_player(name: str, rng: Rng) -> Player:
    """A fresh player for one game; ``rng`` is the game's shared AI stream."""
    try:
        return PLAYERS[name](rng)
    except KeyError:
        raise ValueError(f"unknown player {quote(name)}: choose one of {', '.join(PLAYERS)}") from None


def seats(seed: int, players: Sequence[str | Player]) -> list[Player]:
    """The two seats of game ``seed``: names become fresh players sharing the game's AI stream."""
    rng = ai_rng(seed & 0xFFFFFFFF)
    return [make_player(p, rng) if isinstance(p, str) else p for p in players]
