"""How the judge's lead weights are made (``whist fit-judge``), and how well it judges (``benchmarks/ai.py``).

Everything is fitted to exact values, reproducibly (fixed seeds, integer
weights, ties broken by card order), so running it again gives the same
weights:

1. **Stage-2 starts that Master's rollouts reach** (:func:`rollout_starts`):
   single hands of Master against itself, its rollouts ending in the linear
   estimate as before the judge (so the hands do not depend on the
   weights); at each of their stage-1 decisions that Master searches, one
   world is drawn and one of its candidate cards played, and the rest of
   stage 1 played out as its rollouts play it. The draws come from a stream
   of their own, so the hands are Master's own.
2. **Every lead's exact value** (:func:`lead_situations`): along perfect play
   from each start (the first best card in card order, both seats), at each
   trick while the judge leads (more than K tricks left for the FX
   edition's weights, any for the classic's) the exact value of every lead
   the rule can choose (each suit's highest and lowest card), the other
   seat replying perfectly.
3. **Integer weights** (:func:`fit`): from zero, each weight is moved by 16,
   8, 4, 2, then 1 while the tricks the chosen leads lose on average fall.

:func:`judge_value` is the judge's value of a start (played on, then the
tables, or to the end without them); ``benchmarks/ai.py --only judge`` sets
both against the exact one over starts the fit never saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from multiprocessing import Pool
from typing import Callable, Iterator

from ..engine.prng import Rng, ai_rng, mix32
from ..engine.rules import HIGH, Variant, deal
from ..engine.state import HandState
from . import judge, rollout
from .endgame import K
from .native import exact_value
from .players import make_player
from .solver import Hands, follow_moves, follower_wins, split

FIT_HANDS = 150  # hands of Master against itself whose rollouts give the fit's starts (high games)
LOW_HANDS = 300  # High/low hands, of which the low ones give the low games' starts
STEPS = (16, 8, 4, 2, 1)
STOP = K  # the judge leads only while more cards are left than the endgame tables hold
MASTER = "hard-estimate"  # Master as before the judge: the starts do not depend on the weights being fitted


@dataclass(frozen=True)
class Start:
    """A stage-2 start: both hands, trumps, the mode and the seat that leads."""

    h: tuple[tuple[int, ...], tuple[int, ...]]
    trump: int
    mode: int
    leader: int

    def hands(self) -> Hands:
        return [list(self.h[0]), list(self.h[1])]


def rollout_starts(seeds: range, variant: Variant, mode: int | None = HIGH) -> Iterator[Start]:
    """Stage-2 starts reached by Master's rollouts in single hands of Master against itself (seeds
    ``seeds``): one a searched decision, of the hands of ``mode`` (None: every hand)."""
    for seed in seeds:
        st = HandState(variant.deck, variant.scoring, deal(seed, 1, variant.deck))
        rng, own = ai_rng(seed), Rng(mix32(seed ^ 0x6A0D6E))
        seats = [make_player(MASTER, rng), make_player(MASTER, rng)]
        while st.stock_left:
            p, legal = st.turn, st.legal_mask()
            obs = st.observation(p)
            mine = rollout.split(obs.hand)
            live = rollout.split(obs.deck.mask & ~obs.played)
            cands = rollout.candidates(mine, rollout.split(legal), live)
            if len(cands) > 1 and (mode is None or st.mode == mode):
                theirs, hidden = rollout.sample(obs, rollout.suit_caps(obs), own)
                h = [[0] * 4, [0] * 4]
                h[p], h[1 - p] = list(mine), theirs
                won = [0, 0]
                leader = rollout.play_out(h, live, [obs.upcard] + hidden, obs.trump, obs.leader, obs.lead,
                                          cands[own.uniform(len(cands))], won)
                yield Start((tuple(h[0]), tuple(h[1])), st.trump, st.mode, leader)
            st.apply(seats[p].choose(obs, legal))


def leader_tricks(h: Hands, trump: int, mode: int, leader: int) -> int:
    """The leader's exact tricks from a trick boundary (high: both take all they can; low: as few)."""
    if not any(h[leader]):
        return 0
    return exact_value(h, trump, leader, leader if mode == HIGH else 1 - leader, leader)


def after_trick(h: Hands, trump: int, mode: int, leader: int, a: int, b: int) -> int:
    """The leader's tricks from the trick where it led ``a`` and the other seat played ``b`` (both played)."""
    w = 1 - leader if follower_wins(a, b, trump) else leader
    left = sum(m.bit_count() for m in h[0])
    rest = leader_tricks(h, trump, mode, w)
    return (w == leader) + (rest if w == leader else left - rest)


def _flip(h: Hands, p: int, c: int) -> None:
    h[p][c // 13] ^= 1 << (c % 13)


def lead_value(h: Hands, trump: int, mode: int, leader: int, a: int) -> int:
    """The leader's tricks after leading ``a``, the other seat replying perfectly."""
    other = 1 - leader
    _flip(h, leader, a)
    values = []
    for b in follow_moves(h[other], h[leader], a, trump):
        _flip(h, other, b)
        values.append(after_trick(h, trump, mode, leader, a, b))
        _flip(h, other, b)
    _flip(h, leader, a)
    return min(values) if mode == HIGH else max(values)


@dataclass
class Situation:
    """A lead in a position along perfect play: each candidate's features and what it loses to the best lead."""

    features: list[tuple[int, ...]]
    loss: list[int]


def lead_situations(starts: list[Start], stop: int = STOP) -> dict[int, list[Situation]]:
    """Every trick's lead along perfect play from each start while more than ``stop`` cards a hand are left,
    by mode (see the module's docstring)."""
    out: dict[int, list[Situation]] = {HIGH: [], 1 - HIGH: []}
    for start in starts:
        h, trump, mode, leader = start.hands(), start.trump, start.mode, start.leader
        sign = 1 if mode == HIGH else -1  # the leader's tricks: more is better in a high game
        while sum(m.bit_count() for m in h[leader]) > stop:
            cands = judge.lead_candidates(h[leader], h[1 - leader], trump)
            values = [sign * lead_value(h, trump, mode, leader, c) for c, _ in cands]
            best = sign * leader_tricks(h, trump, mode, leader)
            out[mode].append(Situation([f for _, f in cands], [best - v for v in values]))
            a = next((c for (c, _), v in zip(cands, values) if v == best), None)
            if a is None:  # the best lead is not a candidate (rare): find it among every card
                a = next(c for c in range(52) if h[leader][c // 13] >> (c % 13) & 1
                         and sign * lead_value(h, trump, mode, leader, c) == best)
            _flip(h, leader, a)
            other = 1 - leader
            replies = follow_moves(h[other], h[leader], a, trump)
            b = min(replies, key=lambda b: _reply_key(h, trump, mode, leader, a, b))
            _flip(h, other, b)
            leader = 1 - leader if follower_wins(a, b, trump) else leader
    return out


def _reply_key(h: Hands, trump: int, mode: int, leader: int, a: int, b: int) -> tuple[int, int]:
    other = 1 - leader
    _flip(h, other, b)
    v = after_trick(h, trump, mode, leader, a, b)
    _flip(h, other, b)
    return (v if mode == HIGH else -v), b


def mean_loss(w: tuple[int, ...], situations: list[Situation]) -> float:
    """The tricks the leads chosen with weights ``w`` lose on average."""
    return sum(s.loss[_pick([_score(w, f) for f in s.features])] for s in situations) / max(1, len(situations))


def _score(w: tuple[int, ...] | list[int], f: tuple[int, ...]) -> int:
    return sum(a * b for a, b in zip(w, f) if b)


def _pick(scores: list[int]) -> int:
    return scores.index(max(scores))  # ties: the first candidate, as the rule


def fit(situations: list[Situation], progress: Callable[[str], None] = lambda line: None) -> tuple[int, ...]:
    """Integer weights by coordinate descent (the module's docstring), each within a byte (-127..127)."""
    k = len(situations[0].features[0])
    w = [0] * k
    scores = [[0] * len(s.features) for s in situations]
    picks = [0] * len(situations)
    touched = [[j for j, s in enumerate(situations) if any(f[i] for f in s.features)] for i in range(k)]
    total = sum(s.loss[0] for s in situations)
    for step in STEPS:
        moved = True
        while moved:
            moved = False
            for i in range(k):
                for d in (step, -step):
                    if abs(w[i] + d) > 127:
                        continue
                    change, new = 0, []
                    for j in touched[i]:
                        s = situations[j]
                        trial = [x + d * f[i] for x, f in zip(scores[j], s.features)]
                        p = _pick(trial)
                        change += s.loss[p] - s.loss[picks[j]]
                        new.append((j, trial, p))
                    if change < 0:
                        for j, trial, p in new:
                            scores[j], picks[j] = trial, p
                        total += change
                        w[i] += d
                        moved = True
                        break
        progress(f"step {step}: {total / len(situations):.4f} tricks lost a lead, {tuple(w)}")
    return tuple(w)


def _situations(start: Start, stop: int) -> list[Situation]:
    return lead_situations([start], stop)[start.mode]


def fit_all(jobs: int = 1, progress: Callable[[str], None] = lambda line: None
            ) -> dict[str, dict[int, tuple[int, ...]]]:
    """Both sets of weights (``LEAD_WEIGHTS``: played on to the tables' K; ``PLAY_OUT_WEIGHTS``: to the end),
    each for both kinds of game, from the starts of :data:`FIT_HANDS` Last 13 hands (high games) and the low
    hands of :data:`LOW_HANDS` High/low hands."""
    out: dict[str, dict[int, tuple[int, ...]]] = {"LEAD_WEIGHTS": {}, "PLAY_OUT_WEIGHTS": {}}
    for mode, hands, scoring in ((HIGH, FIT_HANDS, "last13"), (1 - HIGH, LOW_HANDS, "highlow")):
        starts = list(rollout_starts(range(1, hands + 1), Variant.make(52, scoring, 0), mode))
        progress(f"{'high' if mode == HIGH else 'low'} games: {len(starts)} stage-2 starts")
        for name, stop in (("LEAD_WEIGHTS", STOP), ("PLAY_OUT_WEIGHTS", 0)):
            with Pool(jobs) as pool:
                situations = [s for part in pool.map(partial(_situations, stop=stop), starts, chunksize=8)
                              for s in part]
            progress(f"{name}: {len(situations)} leads along perfect play while more than {stop} tricks are left")
            out[name][mode] = fit(situations, progress)
    return out


def judge_value(start: Start, tables=None) -> int:
    """The leader's stage-2 tricks as the judge values them (``tables``: the FX edition's)."""
    h = start.hands()
    n = sum(m.bit_count() for m in h[0])
    stop = tables.k if tables is not None else 0
    won = [0, 0]
    end = judge.play_on(h, start.trump, start.leader, start.mode, stop, won)
    left = sum(m.bit_count() for m in h[0])
    if left:
        v = tables.value(h, start.trump, start.mode, end)
        won[end] += v
        won[1 - end] += left - v
    return won[start.leader] if n else 0
