"""The serial `play` command the firmware accepts (docs/trace.md), defined once.

The firmware's parser and its error lines are generated from :data:`ERRORS`
and the option defaults below; the harness builds commands with
:func:`play_command`.
"""

from __future__ import annotations

from ..ai.players import device_players
from ..engine.rules import MAX_TARGET, SCORINGS, Variant

DEFAULTS = {"deck": 52, "scoring": "last13", "target": 10, "player": "greedy", "fast": 0}



def errors(fx: bool = False) -> dict[str, str]:
    """code -> message; the firmware answers a bad line with "error <message>": what
    was wrong and what is allowed, tersely (every byte is flash on the device; ``fx``:
    the FX edition's, whose Master is hard-fx)."""
    return {
        "usage": "expected play seed=<u32> [deck= scoring= target= p0= p1= fast=]",
        "key": "bad key=value",
        "seed": "seed: 0..4294967295",
        "deck": "deck: 52|28",
        "scoring": "scoring: " + "|".join(SCORINGS),
        "target": f"target: 0..{MAX_TARGET}",
        "player": "p0/p1: " + "|".join(device_players(fx)),
        "fast": "fast: 0|1",
        "long": "line too long",
        "busy": "busy",  # a person's game is on the screen (or a play is already waiting): send it later
    }


ERRORS = errors()
ERROR_CODES = {name: i + 1 for i, name in enumerate(ERRORS)}
COMMAND = "play"
# The play command's keys, "seed" first and then in the order of PlayCommand's byte
# fields (whist_core.h), each with the error that a bad value of it gets.
PLAY_KEYS = {"seed": "seed", "deck": "deck", "scoring": "scoring", "target": "target", "p0": "player",
             "p1": "player", "fast": "fast"}
# The test hook: `stack` answers "# stack free=N" and "# serial dropped=N" (docs/trace.md).
STACK = "stack"
FIGURES = ("stack free", "serial dropped")
READY = "whist {version} ready"  # the comment line the firmware sends once the host opens the port
# Emulator markers (GPIOR0 writes, docs/emulator.md) around each decision of a fast game.
MARK_THINK, MARK_MOVED = 0xA0, 0xA1
MARK_TURN = 0xA2  # the table waits for the person's card (a game on the buttons)
LINE_MAX = 96  # longest line the firmware reads, newline excluded (the longest play command is 87)


def play_command(seed: int, variant: Variant, p0: str, p1: str, fast: bool = True) -> str:
    """The line that makes the firmware play the game ``whist trace`` prints for these options."""
    return (
        f"play seed={seed} deck={variant.deck.size} scoring={variant.scoring.name} "
        f"target={variant.target} p0={p0} p1={p1} fast={int(fast)}"
    )
