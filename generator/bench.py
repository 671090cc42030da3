"""Engine benchmarks: figures printed, never asserted (make bench)."""

from __future__ import annotations

import time
from typing import Callable

from .game import play_hand
from .prng import ai_rng
from .players import RandomPlayer
from .rules import Variant


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


def run_bench(seconds: float, echo: Callable[[str], None]) -> None:
    for deck in (52, 28):
        v = Variant.make(deck, "last13", 10)
        echo(f"engine: random play, {deck}-card deck: {hands_per_second(v, seconds):,.0f} hands/s (one core, trace lines formatted)")
