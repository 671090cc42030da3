"""Self-play tuning of Hard's stage-1 weights (`whist tune`).

Coordinate search from the shipped :data:`hard.WEIGHTS`: each round
tries every weight one step up and down; a candidate replaces the incumbent
when it beats it, on the same duplicate deals (seats swapped, so the luck of
the cards cancels), by a margin outside the 95% interval of points per hand.
Both sides search stage 2 with :data:`TUNE_BUDGET` nodes, which keeps a
round to minutes; what is tuned is stage 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from multiprocessing import Pool
from typing import Callable

from ..engine.game import play_hand
from .hard import WEIGHTS, SearchPlayer, Weights, stage1_choice
from ..engine.rules import Variant, hand_points

TUNE_BUDGET = 400  # stage-2 nodes per decision while tuning
LIMITS = ((0, 13), (-4, 8), (0, 8))  # trump, want, spend: the search stays inside these
Z95 = 1.96


def player(w: Weights) -> SearchPlayer:
    return SearchPlayer("hard", partial(stage1_choice, w=w), TUNE_BUDGET)


def duel(args: tuple[Weights, Weights, int]) -> int:
    """Points of ``a`` minus ``b`` over deal ``seed`` played twice, seats swapped (last13, 52 cards)."""
    a, b, seed = args
    variant = Variant.make(52, "last13", 0)
    diff = 0
    for a_seat in (0, 1):
        seats = [player(a), player(b)] if a_seat == 0 else [player(b), player(a)]
        state = play_hand(variant, seed, 1, lambda st, p: seats[p].choose(st.observation(p), st.legal_mask()),
                          lambda line: None)
        pts = hand_points(variant.scoring, variant.deck, state.mode, state.counted_tricks())
        diff += pts[a_seat] - pts[1 - a_seat]
    return diff


@dataclass
class Trial:
    candidate: Weights
    mean: float  # points per hand, candidate minus incumbent
    half: float  # 95% interval half-width

    @property
    def better(self) -> bool:
        return self.mean - self.half > 0


def trial(candidate: Weights, incumbent: Weights, deals: int, pool: Pool | None) -> Trial:
    tasks = [(candidate, incumbent, seed) for seed in range(1, deals + 1)]
    diffs = list(pool.imap(duel, tasks, chunksize=4)) if pool else list(map(duel, tasks))
    per_hand = [d / 2 for d in diffs]
    mean = sum(per_hand) / deals
    var = sum((x - mean) ** 2 for x in per_hand) / max(deals - 1, 1)
    return Trial(candidate, mean, Z95 * math.sqrt(var / deals))


def neighbours(w: Weights) -> list[Weights]:
    out = []
    for i, (lo, hi) in enumerate(LIMITS):
        for step in (1, -1):
            v = w[i] + step
            if lo <= v <= hi:
                out.append(w._replace(**{w._fields[i]: v}))
    return out


def tune(deals: int, rounds: int, jobs: int, echo: Callable[[str], None]) -> Weights:
    """Improve on WEIGHTS until no neighbour is better or ``rounds`` run out; returns the best found."""
    best = WEIGHTS
    pool = Pool(jobs) if jobs > 1 else None
    try:
        for r in range(1, rounds + 1):
            echo(f"round {r}: incumbent {tuple(best)}")
            improved = False
            for cand in neighbours(best):
                t = trial(cand, best, deals, pool)
                echo(f"  {tuple(cand)}: {t.mean:+.3f} points/hand (95% CI +-{t.half:.3f}){'  better' if t.better else ''}")
                if t.better:
                    best, improved = cand, True
                    break
            if not improved:
                break
    finally:
        if pool:
            pool.close()
    return best
