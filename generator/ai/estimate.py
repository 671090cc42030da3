"""What a stage-1 card cost, estimated over sampled deals by a plan fixed in advance.

A stage-1 decision cannot be judged exactly: the seat did not know the other
hand or the stock. Its cards are scored over deals of the unseen cards that
agree with what the seat knew (:func:`expert.sample_world`), each card played
in every deal, the rest of stage 1 played out by Master's rollout rule on
both sides and the stage-2 position reached valued exactly, in points.

Except to tell which side of the bar a picked card lies (step 3), the plan
never lets a result decide how many deals a figure it shows is taken from
(stopping when an interval first clears a line makes intervals lie, and
small first screens miss real blunders):

1. :data:`CHOOSE_DEALS` deals, every candidate card in each, then
   :data:`SHORTLIST_DEALS` more for the card played and the :data:`SHORTLIST`
   best others: they pick the review's card (the best) and the rival (the
   best card other than the one played). A blunder is only seen against a
   good rival, and with ten candidates a dozen deals often rank a lesser
   card first; the shortlist spends its deals where the choice is made.
2. Fresh deals, the rival and the card played in each (paired: the same
   deal for both, so the luck of the deal cancels). Their mean difference is
   the cost; fresh deals keep it from being inflated by having picked the
   luckiest of several cards. How many is settled by the choosing deals
   alone, never by the measuring ones: enough for a standard error of about
   :data:`SPREAD_GOAL` at the spread the choosing deals show (FEWEST to
   MOST), but only the fewest when there the card played is :data:`AHEAD`
   points or more ahead of the rival (a rival picked as the best of several
   is, if anything, flattered, so such a card is seldom a quarter point
   worse).

3. A card whose measuring deals put its cost at :data:`WORTH_LISTING` or
   more, its range of the true cost (below) above nothing, is picked out and
   measured again in half as many fresh deals (FEWEST at least): the figure
   and range shown are those of the new deals. Picked out because its first
   figure was high, a card's first figure is flattered (most picked cards
   that cost little got there by luck); the new deals know nothing of the
   choice. It is listed only if the new figure holds what it is listed
   for, :data:`WORTH_LISTING` or more: a list of cards "costing a quarter
   point or more" never shows one at less. While the new figure's range of
   the true cost straddles WORTH_LISTING (:func:`clear_of_the_bar`), FEWEST
   more fresh deals are added, up to MOST: with a fixed count, 4 of the calibration set's 64
   planted blunders picked out (re-checked at 0.31 to 0.82 points) fell
   under the bar by the new deals' luck and went unlisted. The calibration
   benchmark measures what this stopping does to the ranges (docs/review.md).

The spread of the paired differences is pooled from every set of deals (the
choosing deals bias the mean, not the spread), which keeps it steady when
most deals score the two cards alike. Two 95% ranges come from it, both
Student's:

- whether the card surely cost something: the range of the true cost (the
  average over every deal the seat could have faced), from the cost's own
  standard error; a card is listed only when it lies above nothing;
- the range printed: where the average over :data:`AGAIN` fresh deals would
  fall, the cost's variance and a re-measurement's added. A player who
  checks a figure by measuring it again sees it inside 19 times in 20; a
  range of the true cost alone would hold such a check far less often (its
  own luck comes on top), and it holds the true cost at least as often.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine.prng import Rng
from ..engine.rules import HIGH, Variant, hand_points
from ..engine.state import HandState, Observation
from . import expert, rollout
from .native import exact_value
from .solver import split

CHOOSE_DEALS = 16  # deals every candidate is played in
SHORTLIST = 3  # the best others, played with the card played in SHORTLIST_DEALS more deals to choose the rival
SHORTLIST_DEALS = 48
SPREAD_GOAL = 0.15  # points: the standard error the measuring deals aim at
FEWEST, MOST = 40, 400  # measuring deals at least and at most
AHEAD = 0.25  # points: a card played this far ahead of its rival in the choosing deals gets the fewest
AGAIN = 200  # the fresh deals of the re-measurement the printed range is for
WORTH_LISTING = 0.25  # points: a card that cost less on average is within the estimate's noise
Z95 = 1.959964


@dataclass
class Measured:
    """One stage-1 decision's sampled figures."""

    means: dict[int, float]  # each candidate's mean points over the deals it was played in
    deals: dict[int, int]  # and how many
    choice: int  # the candidate the choosing deals like best
    rival: int  # the best candidate other than the one played (-1: no other)
    cost: float = 0.0  # the rival's mean points less the played card's over the measuring deals (a picked card's:
    # over those measuring it again)
    low: float = 0.0  # where a re-measurement over AGAIN fresh deals falls 19 times in 20
    high: float = 0.0
    sure: bool = False  # the first measuring deals' 95% range of the true cost lies above nothing
    picked: bool = False  # and their cost is WORTH_LISTING or more: ``cost`` and its range are then measured again
    listed: bool = False  # picked, and the cost measured again is WORTH_LISTING or more too
    variance: float = 0.0  # of ``cost`` (the squared standard error), for a stage's total
    deal_variance: float = 0.0  # of one deal's difference: a re-measurement's variance is this over AGAIN
    measured: int = 0  # measuring deals (of a picked card, those measuring it again: FEWEST to MOST)


def t95(df: int) -> float:
    """Student's two-sided 95% quantile (Cornish-Fisher: within 0.003 of the table at df 5, 0.0002 from df 10)."""
    z = Z95
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def counted_so_far(state: HandState, seat: int) -> tuple[int, int]:
    """Tricks that count under the hand's scoring already taken (seat, opponent)."""
    won = state.won
    t = (won[1][seat], won[1][1 - seat])
    if state.scoring.counts_stage1:
        t = (t[0] + won[0][seat], t[1] + won[0][1 - seat])
    return t


def net_points(variant: Variant, mode: int, seat: int, tricks: tuple[int, int]) -> int:
    """The seat's points less the opponent's for counted tricks (seat, opponent)."""
    pair = tricks if seat == 0 else (tricks[1], tricks[0])
    pts = hand_points(variant.scoring, variant.deck, mode, pair)
    return pts[seat] - pts[1 - seat]


def stage2_tricks(h: list[list[int]], trump: int, mode: int, leader: int, seat: int) -> int:
    """The seat's stage-2 tricks from the stage-2 start ``h`` with perfect play on both sides."""
    counted = seat if mode == HIGH else 1 - seat
    n = sum(m.bit_count() for m in h[seat])
    guess = (n + rollout.estimate(h[counted], h[1 - counted], trump, leader == counted)) // 2
    v = exact_value(h, trump, leader, seat, counted, guess)
    return v if counted == seat else n - v


def deal_points(obs: Observation, theirs: int, stock: list[int], first: int, variant: Variant) -> int:
    """The seat's points less the other's in one sampled deal: ``first`` played, the rest of stage 1 by
    Master's rollout rule for both seats with the hands open (rollout.policy), stage 2 played perfectly.

    The deal is played on per-suit masks, as the HandState it stands for would play it: the winner of a
    stage-1 trick takes the face-up card, the loser draws the next.
    """
    me, trump = obs.player, obs.trump
    h = [[0] * 4, [0] * 4]
    h[me], h[1 - me] = split(obs.hand), split(obs.opp_taken | theirs)
    live = split(variant.deck.mask & ~obs.played)
    cards = [obs.upcard] + stock
    won = list(obs.tricks[0])
    leader = rollout.play_out(h, live, cards, trump, obs.leader, obs.lead, first, won)
    own = stage2_tricks(h, trump, obs.mode, leader, me)
    n = sum(m.bit_count() for m in h[me])
    so_far = (won[me], won[1 - me]) if obs.scoring.counts_stage1 else (0, 0)
    return net_points(variant, obs.mode, me, (so_far[0] + own, so_far[1] + n - own))


def candidate_of(cands: list[int], card: int) -> int:
    """The candidate standing for ``card``: the lowest card of its run (the highest candidate of its suit below it)."""
    return max(c for c in cands if c // 13 == card // 13 and c <= card)


def measure(state: HandState, seat: int, played: int, cands: list[int], rng: Rng, variant: Variant) -> Measured:
    """The plan of the module's docstring for the candidate ``played`` among ``cands``."""
    obs = state.observation(seat)
    rules = expert.void_rules(obs)

    def deal_scores(cards: list[int]) -> list[int]:
        theirs, stock = expert.sample_world(obs, rules, rng)
        return [deal_points(obs, theirs, stock, c, variant) for c in cards]

    rows = [dict(zip(cands, deal_scores(cands))) for _ in range(CHOOSE_DEALS)]
    totals = {c: sum(row[c] for row in rows) for c in cands}
    others = sorted((c for c in cands if c != played), key=lambda c: -totals[c])
    short = others[:SHORTLIST]
    if len(others) > SHORTLIST:
        for _ in range(SHORTLIST_DEALS):
            row = dict(zip([played, *short], deal_scores([played, *short])))
            rows.append(row)
            for c, v in row.items():
                totals[c] += v
    counts = {c: sum(1 for row in rows if c in row) for c in cands}
    means = {c: totals[c] / counts[c] for c in cands}
    choice = max(cands, key=lambda c: (means[c], c == played))
    m = Measured(means, counts, choice, -1)
    if not others:
        return m
    m.rival = max(short, key=lambda c: means[c])
    first = [row[m.rival] - row[played] for row in rows if m.rival in row]
    ahead = -sum(first) / len(first)
    n = FEWEST if ahead >= AHEAD else measuring_deals(squares(first) / (len(first) - 1))

    def differences(k: int) -> list[int]:
        """The rival's points less the card played's in ``k`` fresh deals."""
        return [a - b for a, b in (deal_scores([m.rival, played]) for _ in range(k))]

    fresh = differences(n)
    sets = [first, fresh]
    m.cost, m.measured = sum(fresh) / n, n
    m.sure = m.cost > t95(len(first) + n - 2) * math.sqrt(pooled(sets) / n)
    m.picked = m.cost >= WORTH_LISTING and m.sure
    if m.picked:  # measured again: the figure shown is not flattered by having been chosen for the list
        again = differences(max(FEWEST, n // 2))
        while not clear_of_the_bar(again, sets) and len(again) < MOST:
            again += differences(min(FEWEST, MOST - len(again)))
        sets.append(again)
        m.measured = len(again)
        m.cost = sum(again) / m.measured
        m.listed = m.cost >= WORTH_LISTING
    m.deal_variance = pooled(sets)
    m.variance = m.deal_variance / m.measured
    half = t95(sum(len(x) - 1 for x in sets)) * math.sqrt(m.variance + m.deal_variance / AGAIN)
    m.low, m.high = m.cost - half, m.cost + half
    return m


def clear_of_the_bar(again: list[int], sets: list[list[int]]) -> bool:
    """Whether the 95% range of the true cost from the deals measuring a picked card again lies wholly on one
    side of WORTH_LISTING (the spread pooled with the earlier sets': steadier, and unmoved by the choice)."""
    every = [*sets, again]
    half = t95(sum(len(x) - 1 for x in every)) * math.sqrt(pooled(every) / len(again))
    return abs(sum(again) / len(again) - WORTH_LISTING) > half


def pooled(sets: list[list[int]]) -> float:
    """The variance of one deal's difference, pooled from sets of deals whose means may differ."""
    return sum(squares(x) for x in sets) / sum(len(x) - 1 for x in sets)


def measuring_deals(variance: float) -> int:
    """Fresh deals for a standard error of SPREAD_GOAL, the spread judged from the choosing deals alone."""
    return max(FEWEST, min(MOST, math.ceil(variance / SPREAD_GOAL ** 2)))


def squares(xs: list[int]) -> float:
    """The sum of squared deviations from the mean."""
    mean = sum(xs) / len(xs)
    return sum((x - mean) ** 2 for x in xs)
