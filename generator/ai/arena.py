"""Duplicate-deal matches between two players: each deal is played twice, seats swapped.

Playing both sides of every deal cancels most of the luck of the cards, so a
few thousand deals separate players whose strengths differ by a few percent.
Figures are for the player named first (A); the confidence intervals treat
each deal (its two hands) as one sample.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Callable, Iterable

from ..engine.game import play_hand
from .players import make_player
from ..engine.prng import ai_rng
from ..engine.rules import Variant, hand_points

Z95 = 1.96


def rate_interval(k: int, n: int) -> tuple[float, float]:
    """95% interval of a rate of rare events, k in n samples (exact Poisson: the normal
    approximation fails for the few tricks a strong player loses)."""
    def tail(lam: float, upper: bool) -> float:
        cdf = sum(math.exp(-lam) * lam ** i / math.factorial(i) for i in range(k + (0 if upper else 1)))
        return 1 - cdf if upper else cdf

    def solve(f: Callable[[float], float], target: float) -> float:
        lo, hi = 0.0, 10.0 * k + 10
        for _ in range(100):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) < target else (lo, mid)
        return lo

    low = 0.0 if k == 0 else solve(lambda lam: tail(lam, True), 0.025)
    high = solve(lambda lam: -tail(lam, False), -0.025)
    return low / n, high / n


@dataclass
class DealResult:
    wins: int  # hands A won (0..2)
    losses: int  # hands B won
    points: int  # A's points minus B's over the two hands


def play_deal(args: tuple[str, str, int, int, str]) -> DealResult:
    """Deal ``seed`` played with A in seat 0, then with A in seat 1."""
    a, b, seed, deck, scoring = args
    variant = Variant.make(deck, scoring, 0)
    wins = losses = points = 0
    for a_seat in (0, 1):
        names = (a, b) if a_seat == 0 else (b, a)
        rng = ai_rng(seed)
        seats = [make_player(n, rng) for n in names]
        state = play_hand(variant, seed, 1, lambda st, p: seats[p].choose(st.observation(p), st.legal_mask()),
                          lambda line: None)
        tricks = state.counted_tricks()
        pts = hand_points(variant.scoring, variant.deck, state.mode, tricks)
        if tricks[0] != tricks[1]:
            won = hand_winner(tricks, state.mode) == a_seat
            wins += won
            losses += not won
        points += pts[a_seat] - pts[1 - a_seat]
    return DealResult(wins, losses, points)


def hand_winner(tricks: tuple[int, int], mode: int) -> int:
    """The seat with more counted tricks (fewer in a low game); the tricks must differ."""
    more = 0 if tricks[0] > tricks[1] else 1
    return more if mode == 0 else 1 - more


@dataclass
class ArenaResult:
    a: str
    b: str
    deals: int
    wins: int
    losses: int
    points: list[int]  # per deal
    first_seed: int = 1

    def lines(self) -> list[str]:
        decided = self.wins + self.losses
        p = self.wins / decided if decided else 0.0
        half = Z95 * math.sqrt(p * (1 - p) / decided) if decided else 0.0
        n = len(self.points)
        mean = sum(self.points) / n / 2
        var = sum((x / 2 - mean) ** 2 for x in self.points) / max(n - 1, 1)
        ph = Z95 * math.sqrt(var / n)
        return [
            f"{self.a} vs {self.b}: {self.deals} duplicate deals (seeds {self.first_seed}..{self.first_seed + self.deals - 1}),"
            f" {2 * self.deals} hands",
            f"hands won: {self.wins} of {decided} decided = {100 * p:.1f}% (95% CI {100 * (p - half):.1f}..{100 * (p + half):.1f}%)",
            f"points per hand: {mean:+.3f} (95% CI {mean - ph:+.3f}..{mean + ph:+.3f})",
        ]


def run_arena(a: str, b: str, deals: int, jobs: int = 1, deck: int = 52, scoring: str = "last13",
              first_seed: int = 1, progress: Callable[[Iterable], Iterable] | None = None) -> ArenaResult:
    """Play ``deals`` duplicate deals (seeds first_seed ..) between players ``a`` and ``b``."""
    tasks = [(a, b, first_seed + i, deck, scoring) for i in range(deals)]
    wrap = progress or (lambda it: it)
    if jobs > 1:
        with Pool(jobs) as pool:
            results = list(wrap(pool.imap(play_deal, tasks, chunksize=4)))
    else:
        results = list(wrap(map(play_deal, tasks)))
    return ArenaResult(a, b, deals, sum(r.wins for r in results), sum(r.losses for r in results),
                       [r.points for r in results], first_seed)
