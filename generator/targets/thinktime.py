"""The computer's thinking time on the device, in exact emulator cycles.

Fast serial games bracket every ``chooseAI`` call with the markers
MARK_THINK / MARK_MOVED (generator/codegen/protocol.py, firmware/app.cpp); the cycles between them are what
a player waits for, less the think hook's redraws of a game on the table (about 5% more; docs/ai.md, eleventh part).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..ai.players import make_player
from ..engine.cards import DECKS
from ..engine.game import play_hand
from ..engine.prng import ai_rng
from .emulator import Emulator
from ..codegen.protocol import MARK_MOVED, MARK_THINK, play_command
from ..engine.rules import Variant

CLOCK_HZ = 16_000_000


@dataclass(frozen=True)
class Decision:
    deck: int
    stage: int
    cycles: int


def hand_decisions(emu: Emulator, seed: int, deck: int, player: str) -> list[Decision]:
    """Play one fast single hand of ``player`` against itself; one Decision per card played."""
    emu.markers()
    emu.serial_read()
    emu.serial_write(play_command(seed, Variant.make(deck, "last13", 0), player, player) + "\n")
    if not emu.run_until_serial("end winner=", max_cycles=2_000_000_000):
        raise RuntimeError(f"seed {seed}: the hand did not finish")
    starts = [c for v, c in emu.markers() if v in (MARK_THINK, MARK_MOVED)]
    pairs = list(zip(starts[::2], starts[1::2]))
    stage1 = DECKS[deck].hand_size * 2  # cards played while the stock lasts
    return [Decision(deck, 1 if i < stage1 else 2, end - start) for i, (start, end) in enumerate(pairs)]


def hand_seed(i: int) -> tuple[int, int]:
    """Seed and deck of the i-th measured hand (0-based): spread seeds, alternating the decks."""
    return (i + 1) * 2246822519 % 2**32, (52, 28)[i % 2]


def engine_nodes(hands: int, player: str) -> list[int]:
    """The engine's node count for every decision of the same hands (0 without a search): the firmware's, node for node."""
    out: list[int] = []
    for i in range(hands):
        seed, deck = hand_seed(i)
        rng = ai_rng(seed)
        seats = [make_player(player, rng) for _ in range(2)]

        def choose(st, p):
            done = len(getattr(seats[p], "nodes", []))
            card = seats[p].choose(st.observation(p), st.legal_mask())
            nodes = getattr(seats[p], "nodes", [])
            out.append(nodes[-1] if len(nodes) > done else 0)
            return card

        play_hand(Variant.make(deck, "last13", 0), seed, 1, choose, lambda line: None)
    return out


def cycles_per_node(decisions: list[Decision], nodes: list[int], least: int = 1000) -> float:
    """Device cycles per solver node over the decisions that searched at least ``least`` nodes."""
    big = [(d.cycles, n) for d, n in zip(decisions, nodes, strict=True) if n >= least]
    return sum(c for c, _ in big) / sum(n for _, n in big) if big else 0.0


def measure(hex_path: Path, hands: int, player: str = "hard",
            progress: Callable[[], None] | None = None) -> list[Decision]:
    """``hands`` single hands, alternating the 52- and 28-card decks."""
    out: list[Decision] = []
    with Emulator(hex_path) as emu:
        emu.run_until_ready()
        for i in range(hands):
            seed, deck = hand_seed(i)
            out += hand_decisions(emu, seed, deck, player)
            if progress:
                progress()
    return out


def summary(decisions: list[Decision]) -> list[str]:
    """Lines: worst and median per deck and stage, and over all."""
    def line(label: str, ds: list[Decision]) -> str:
        c = sorted(d.cycles for d in ds)
        return (f"{label}: {len(c)} decisions, median {statistics.median(c):,.0f} cycles "
                f"({statistics.median(c) / CLOCK_HZ * 1000:.1f} ms), worst {c[-1]:,} ({c[-1] / CLOCK_HZ * 1000:.0f} ms)")

    lines = [line("all", decisions)]
    for deck in (52, 28):
        for stage in (1, 2):
            ds = [d for d in decisions if d.deck == deck and d.stage == stage]
            if ds:
                lines.append(line(f"  {deck} cards, stage {stage}", ds))
    return lines
