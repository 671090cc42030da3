"""A session's reviews added up: what a player who reviews several hands wants to know at the end.

How many hands, the points lost in each stage (stage 1 as the sum of each
hand's one estimate, with its range; stage 2 exactly), and which kinds of
mistake cost the most, so a habit shows through the single hands.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from .estimate import Z95
from .review import Decision, HandReview
from .solver import follower_wins


def kind(d: Decision, trump: int) -> str:
    """A mistake's kind, in a player's words: what the card did that the better card did not."""
    best = d.best[0]
    if d.stage == 1:
        if d.card // 13 == trump and best // 13 != trump:
            return "a trump spent in stage 1"
        if d.lead >= 0:
            wins, better = follower_wins(d.lead, d.card, trump), follower_wins(d.lead, best, trump)
            if wins and not better:
                return "a stage-1 trick taken that was better lost"
            if better and not wins:
                return "a stage-1 trick let go that was worth taking"
            return "a stage-1 card to follow"
        return "a stage-1 lead"
    if d.lead < 0:
        return "a stage-2 lead"
    if d.card // 13 != d.lead // 13:
        return "a stage-2 ruff" if d.card // 13 == trump else "a stage-2 discard"
    return "a stage-2 card to follow"


@dataclass
class Kind:
    times: int = 0
    points: float = 0.0


@dataclass
class Summary:
    """The reviews of a session so far."""

    hands: int = 0
    stage1: float = 0.0  # the hands' stage-1 estimates added up
    stage1_variance: float = 0.0
    stage2: float = 0.0  # exact
    stage2_tricks: int = 0
    kinds: dict[str, Kind] = field(default_factory=lambda: defaultdict(Kind))

    def add(self, r: HandReview) -> None:
        self.hands += 1
        total, lo, _ = r.stage1_lost()
        self.stage1 += total
        self.stage1_variance += ((total - lo) / Z95) ** 2
        self.stage2 += r.lost(2)
        self.stage2_tricks += r.lost_tricks
        for d in r.mistakes:
            k = self.kinds[kind(d, r.trump)]
            k.times += 1
            k.points += d.lost_points

    def stage1_range(self) -> tuple[float, float]:
        half = Z95 * math.sqrt(self.stage1_variance)
        return self.stage1 - half, self.stage1 + half

    def costliest(self, k: int = 3) -> list[tuple[str, Kind]]:
        """The kinds of mistake that cost the most points, costliest first."""
        return sorted(self.kinds.items(), key=lambda x: (-x[1].points, x[0]))[:k]
