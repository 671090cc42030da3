"""Engine benchmarks: figures printed, never asserted (make bench)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from ..engine.game import play_hand
from ..engine.prng import ai_rng
from ..ai.basic import RandomPlayer
from ..engine.rules import Variant


THINK_HANDS = 26  # 13 of each deck: 1,040 decisions


def hands_per_second(variant: Variant, seconds: float) -> float:
    """Deal and play random hands for about ``seconds``; return hands per second."""
    player = RandomPlayer(ai_rng(1))

    def choose(state, p):
        return player.choose(state.observation(p), state.legal_mask())

    def quiet(_line: str) -> None:
        pass

    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(50):
            n += 1
            play_hand(variant, n, 1, choose, quiet)
    return n / (time.perf_counter() - start)


def run_bench(seconds: float, echo: Callable[[str], None], hex_path: str | None = None) -> None:
    for deck in (52, 28):
        v = Variant.make(deck, "last13", 10)
        echo(f"engine: random play, {deck}-card deck: {hands_per_second(v, seconds):,.0f} hands/s (one core, trace lines formatted)")
    if hex_path:
        from . import crosstest
        from .emulator import measure_speed

        echo(f"emulator: {measure_speed(hex_path, seconds) / 1e6:.1f} M cycles/s running the game (16 M = real time)")
        report = crosstest.run(Path(hex_path), list(crosstest.cases(40, players=("random", "greedy"))))
        echo(f"cross-test (random/greedy players): {60 * report.games / report.seconds:,.0f} games per minute "
             f"({report.games} games, {report.differing} differing)")
        from . import thinktime

        for player in ("hard", "easy"):
            echo(f"device thinking time, {player} vs {player}, {THINK_HANDS} single hands (both decks, both stages):")
            decisions = thinktime.measure(Path(hex_path), THINK_HANDS, player)
            for line in thinktime.summary(decisions):
                echo("  " + line)
            cpn = thinktime.cycles_per_node(decisions, thinktime.engine_nodes(THINK_HANDS, player))
            if cpn:
                echo(f"  solver: {cpn:,.0f} cycles a node ({thinktime.CLOCK_HZ / cpn:,.0f} nodes/s) "
                     "over the decisions of 1,000 nodes or more")
