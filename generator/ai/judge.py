"""The judge of Master's rollouts: stage 2 played on by a cheap rule, both hands open.

Master's stage-1 rollouts (:mod:`.rollout`) value the stage-2 start they
reach by playing it on with both hands open, one rule for both seats
(:func:`lead`, :func:`follow`). The FX edition's Master
(:func:`.rollout.hard_fx`) plays on down to the endgame tables' K = 8
tricks and reads their exact value (Small Whist's 7 tricks are read at
once); the classic Master, with no tables, plays on to the last trick. On
stage-2 starts it was not fitted on, the FX judge misjudges a start by
about a fifth of a trick and the classic one by under half a trick, where
the linear estimate the classic Master used before misses by 0.87
(docs/ai-figures.md).

- **Leads**: each suit's highest and lowest card is scored by
  :func:`lead_features` (the kind of suit, whether no card of the other
  hand's in the suit is higher, whether it is the suit's highest card, and
  the leader's length in the suit beyond the other hand's) against integer
  weights; the highest score leads (ties: the first, suits in order, the
  highest card before the lowest). The weights (:data:`LEAD_WEIGHTS` for
  the play-on to the tables, :data:`PLAY_OUT_WEIGHTS` for the play-on to
  the end; each a set for high games and one for low) are fitted by
  :mod:`.judge_fit` to the exact value of every lead along perfect play
  from stage-2 starts that Master's rollouts reach, while more tricks are
  left than the play-on stops at; ``whist fit-judge`` makes them again.
- **Follows** (high games): the cheapest winner of the suit led, else its
  lowest card; void, the lowest trump, else the lowest card of the longest
  side suit. Low games duck: the highest card under the one led, else the
  highest of the suit; void, the highest card of the side suit whose cards
  rank highest (compared from the top), else the highest trump.

Integers only, so the device plays the same cards (``players/hard.cpp.j2``),
and ``exact.c`` plays the same on the PC (:func:`play_on` calls it).
"""

from __future__ import annotations

from ..engine.rules import HIGH
from .native import judge_play_on


KINDS = 6  # of suit, for a lead (lead_kind)


def lead_kind(is_trump: bool, t_mine: int, t_theirs: int, theirs: int) -> int:
    """The kind of a suit for a lead: trumps held against none (2), against fewer (0), against as many or more
    (1); a side suit the other hand is void in, holding trumps (3) or none (4); a side suit it must follow (5)."""
    if is_trump:
        return 2 if not t_theirs else 0 if t_mine > t_theirs else 1
    return (3 if t_theirs else 4) if not theirs else 5


# A lead's score: LEAD_WEIGHTS[4 kind + 2 top + high] (top: no card of the other hand's in the suit is
# higher; high: the suit's highest card, else its lowest), plus the last weight per card this hand holds in
# the suit beyond the other hand's.
SIZE = 4 * KINDS + 1
LEAD_WEIGHTS = {  # whist fit-judge: the FX edition's, played on to the tables
    HIGH: (0, 8, 64, 40, 0, 8, 112, -16, 0, 0, 0, 0, 0, 0, -12, -32, 0, 0, 32, 0, 0, 12, 56, 0, 16),
    1 - HIGH: (0, 12, 120, 0, 0, 6, 48, 30, 0, 0, -32, -48, 0, 0, 8, -48, 0, 0, 0, -16, 0, 16, 120, 28, -8),
}
PLAY_OUT_WEIGHTS = {  # whist fit-judge: the classic edition's, played on to the last trick
    HIGH: (0, 0, 112, 112, -16, -32, 124, -32, 0, 0, -12, -16, 0, 0, 42, -4, 0, 0, 48, 104, 0, 24, 64, 16, 16),
    1 - HIGH: (-4, -2, 126, -16, 0, 0, 48, 20, 0, 0, -32, -64, 0, 0, -96, -112, 0, 0, -32, -64, -16, 2, 124, 14, -10),
}


def weights(mode: int, stop: int) -> tuple[int, ...]:
    """The lead weights of a play-on that stops at ``stop`` cards a hand: to the tables, or to the end (0)."""
    return (LEAD_WEIGHTS if stop else PLAY_OUT_WEIGHTS)[mode]

Hands = list[list[int]]


def lead_features(mine: list[int], theirs: list[int], trump: int, s: int, rank: int, high: bool) -> tuple[int, ...]:
    """What a lead of ``13 s + rank`` is scored by: 1 for its kind, top and highness, then the length margin."""
    v = [0] * SIZE
    v[4 * lead_kind(s == trump, mine[trump].bit_count(), theirs[trump].bit_count(), theirs[s])
      + 2 * (theirs[s] >> rank == 0) + high] = 1
    v[-1] = mine[s].bit_count() - theirs[s].bit_count()
    return tuple(v)


def lead_candidates(mine: list[int], theirs: list[int], trump: int) -> list[tuple[int, tuple[int, ...]]]:
    """Each suit's highest card and its lowest (when another), with their features, in the order ties go by."""
    out = []
    for s in range(4):
        m = mine[s]
        if not m:
            continue
        hi, lo = m.bit_length() - 1, (m & -m).bit_length() - 1
        out.append((13 * s + hi, lead_features(mine, theirs, trump, s, hi, True)))
        if lo != hi:
            out.append((13 * s + lo, lead_features(mine, theirs, trump, s, lo, False)))
    return out


def lead(mine: list[int], theirs: list[int], trump: int, w: tuple[int, ...]) -> int:
    """The candidate with the highest score (ties: the first)."""
    best, card = None, -1
    for c, f in lead_candidates(mine, theirs, trump):
        score = sum(a * b for a, b in zip(w, f) if b)
        if best is None or score > best:
            best, card = score, c
    return card


def follow(mine: list[int], lead_card: int, trump: int, mode: int) -> int:
    """The rule's reply to ``lead_card`` (see the module's docstring)."""
    s, r = divmod(lead_card, 13)
    m = mine[s]
    if m:
        if mode == HIGH:
            win = m >> (r + 1)
            return 13 * s + (r + 1 + ((win & -win).bit_length() - 1) if win else (m & -m).bit_length() - 1)
        under = m & ((1 << r) - 1)
        return 13 * s + ((under or m).bit_length() - 1)
    sides = [x for x in range(4) if x != trump and mine[x]]
    if mode == HIGH:
        if mine[trump]:
            return 13 * trump + (mine[trump] & -mine[trump]).bit_length() - 1
        x = max(sides, key=lambda x: (mine[x].bit_count(), -x))
        return 13 * x + (mine[x] & -mine[x]).bit_length() - 1
    if not sides:
        return 13 * trump + mine[trump].bit_length() - 1
    x = max(sides, key=lambda x: (mine[x], -x))  # the highest side cards (as rank masks compare)
    return 13 * x + mine[x].bit_length() - 1


def python_play_on(h: Hands, trump: int, leader: int, mode: int, stop: int, won: list[int]) -> int:
    """:func:`play_on` in Python."""
    w = weights(mode, stop)
    while sum(m.bit_count() for m in h[leader]) > stop:
        a = lead(h[leader], h[1 - leader], trump, w)
        h[leader][a // 13] ^= 1 << (a % 13)
        b = follow(h[1 - leader], a, trump, mode)
        h[1 - leader][b // 13] ^= 1 << (b % 13)
        if b // 13 == a // 13 and b > a or b // 13 == trump != a // 13:
            leader = 1 - leader
        won[leader] += 1
    return leader


def play_on(h: Hands, trump: int, leader: int, mode: int, stop: int, won: list[int]) -> int:
    """Stage 2 played by the rule for both seats from a trick boundary until ``stop`` cards a hand are left
    (``h`` played on in place, each seat's tricks added to ``won``); returns the seat to lead then. In C
    when a compiler is there (native.judge_play_on: Master plays thousands of these a card), else in Python,
    card for card the same."""
    end = judge_play_on(h, trump, leader, mode != HIGH, stop, weights(mode, stop), won)
    return python_play_on(h, trump, leader, mode, stop, won) if end is None else end
