"""The computer opponents with memory: ``easy``, ``hard`` and the PC-only yardsticks ``hard-exact`` and ``original-exact``.

Stage 1 (hard, hard-exact) weighs the face-up card against the average hidden
card, both valued by rank among the cards still out (perfect memory of every
card seen) plus a trump bonus, and wins the trick only when the difference is
worth the card it costs. Stage 2 hands the position to the solver, whose
work budget is what separates the levels. The weights are integers, tuned by
self-play (`whist tune`), and rendered into the firmware by generator/codegen/core.py.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.cards import cards_of, suit_mask
from .original import OriginalPlayer
from ..engine.rules import HIGH, trick_winner
from .solver import WORK_BUDGET, Decision, Tables, decide, split
from ..engine.state import Observation

class Weights(NamedTuple):
    """Hard's stage-1 weights, integers so the AVR computes the same."""

    trump: int  # value of being a trump, in ranks
    want: int  # the face-up card must beat the average hidden card by this many ranks
    spend: int  # quarter-ranks of extra gain needed per rank spent winning instead of losing


# Found by self-play (`whist tune`, generator/ai/tuning.py; docs/ai.md).
WEIGHTS = Weights(trump=8, want=2, spend=1)
EASY_BUDGET = 900  # easy searches stage 2 with a small budget (work units: about 400 cards played)


def card_value(c: int, mine: int, played: int, trump: int, trump_bonus: int) -> int:
    """12 minus the higher cards of its suit still out against this seat, plus the trump bonus."""
    s = c // 13
    higher = suit_mask(s) & ~((2 << c) - 1)
    return 12 - (higher & ~played & ~mine).bit_count() + (trump_bonus if s == trump else 0)


def stage1_choice(obs: Observation, legal: int, w: Weights = WEIGHTS) -> int:
    """Win the face-up card when it is worth more than the hidden one by enough to pay for the winner."""
    mine, played, trump = obs.hand, obs.played, obs.trump

    def value(c: int) -> int:
        return card_value(c, mine, played, trump, w.trump)

    unseen = list(cards_of(obs.unseen()))
    cnt = len(unseen)
    gain4 = 4 * (value(obs.upcard) * cnt - sum(value(u) for u in unseen))
    cards = list(cards_of(legal))
    cheapest = min(cards, key=value)
    if obs.lead < 0:
        if gain4 < 4 * cnt * w.want:
            return cheapest
        sure = [c for c in cards if c // 13 != trump and value(c) == 12]
        if sure:
            return min(sure, key=value)
        top_trumps = [c for c in cards if c // 13 == trump and value(c) == 12 + w.trump]
        return top_trumps[0] if top_trumps else max(cards, key=value)
    winners = [c for c in cards if trick_winner(obs.lead, c, trump) == 1]
    losers = [c for c in cards if c not in winners]
    if not winners or not losers:
        return cheapest
    win, lose = min(winners, key=value), min(losers, key=value)
    return win if gain4 >= cnt * (4 * w.want + w.spend * (value(win) - value(lose))) else lose


def stage2_choice(obs: Observation, budget: int | None, start: int = 0, tables: Tables | None = None) -> Decision:
    """The solver's decision from the seat's knowledge (the opponent's hand is deck minus seen)."""
    me = obs.player
    h = [[0] * 4, [0] * 4]
    h[me] = split(obs.hand)
    h[1 - me] = split(obs.opponent_hand())
    return decide(h, obs.trump, obs.mode, me, obs.leader, obs.lead, budget, exact_table=budget is None, start=start,
                  tables=tables)


class SearchPlayer:
    """Shared by the levels: a stage-1 policy and a stage-2 work budget (None: exact).

    In stage 2 it remembers what its last search proved (the trick and the
    counted player's tricks it guaranteed, those already taken included), so
    the next search starts from that value instead of from 1.
    """

    def __init__(self, name: str, stage1, budget: int | None, tables: Tables | None = None) -> None:
        self.name = name
        self.stage1 = stage1
        self.budget = budget
        self.tables = tables  # the endgame tables (hard-fx): exact values at their K tricks left
        self.nodes: list[int] = []  # cards played in each stage-2 search, for the benchmarks
        self.work: list[int] = []  # what the budget counted in each (the device's aiWork)
        self.proof: tuple[int, int] | None = None  # (trick number, counted tricks guaranteed by the end)

    def choose(self, obs: Observation, legal: int) -> int:
        if obs.stage == 1:
            self.proof = None
            return self.stage1(obs, legal)
        taken = obs.tricks[1][obs.player if obs.mode == HIGH else 1 - obs.player]
        start = 0
        if self.proof is not None and self.proof[0] == obs.trick_number - 1:
            start = self.proof[1] - taken
        d = stage2_choice(obs, self.budget, start, self.tables)
        self.proof = (obs.trick_number, taken + d.value) if d.value else None
        self.nodes.append(d.nodes)
        self.work.append(d.work)
        return d.card


def easy() -> SearchPlayer:
    return SearchPlayer("easy", OriginalPlayer().choose, EASY_BUDGET)


def hard_rule() -> SearchPlayer:
    """Hard before its stage-1 search (the memory rule alone): a yardstick the search must beat (PC only)."""
    return SearchPlayer("hard-rule", stage1_choice, WORK_BUDGET)


def hard_exact() -> SearchPlayer:
    """The memory rule (Hard's stage 1 before its search), then perfect stage 2: the issue's old expert (PC only)."""
    return SearchPlayer("hard-exact", stage1_choice, None)


def original_exact() -> SearchPlayer:
    """Club's stage 1 (rules of thumb after the original game), then perfect stage 2: a reference the top levels must beat (PC only)."""
    return SearchPlayer("original-exact", OriginalPlayer().choose, None)
