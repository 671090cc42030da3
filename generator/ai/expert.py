"""``expert``, the PC-only reference: stage 1 by sampling what it cannot see, stage 2 exact.

Stage 1 is a rollout search over determinized worlds. Each world deals the
cards this seat has not seen (the opponent's unknown cards and the hidden
stock) at random, but only in ways consistent with what it knows: the face-up
cards the opponent took are in its hand, and a suit it failed to follow can
only have come back through the hidden cards it drew since. In every world
each candidate card is played, the rest of stage 1 is played out by Hard's
stage-1 policy on both sides (each seat deciding from its own view of that
world), and the stage-2 position reached is valued exactly
(:mod:`generator.ai.native`). The card with the best total over the same
worlds wins: the face-up card is weighed by the hand it ends in, not by a
rule. Stage 2 is the exact solver.

Randomness comes from the game's shared AI stream, so a game replays exactly.
"""

from __future__ import annotations

from ..engine.cards import cards_of
from ..engine.prng import Rng, shuffle
from ..engine.rules import HIGH, hand_points
from ..engine.state import HandState, Observation
from .hard import stage1_choice, stage2_choice
from .native import exact_value
from .solver import run_lows, split

SAMPLES = 24  # worlds per decision: about 0.5 s a move on a PC (docs/ai.md)
TRIES = 40  # draws per world before a world that breaks a void constraint is accepted anyway


def candidates(obs: Observation, legal: int) -> list[int]:
    """One card per run of equivalent legal cards: no unplayed card lies between them, now or later."""
    live = obs.deck.mask & ~obs.played
    out = []
    for s in range(4):
        mine = legal >> (13 * s) & 0x1FFF
        if mine:
            lows = run_lows(mine, (live >> (13 * s)) & 0x1FFF)
            out.extend(13 * s + r for r in range(13) if lows >> r & 1)
    return out


class VoidRule:
    """The opponent showed a void in ``suit`` at a trick: what it holds of that suit came from later draws."""

    __slots__ = ("suit", "draws", "used")

    def __init__(self, suit: int, draws: int, used: int) -> None:
        self.suit = suit
        self.draws = draws  # hidden cards the opponent drew after that trick
        self.used = used  # of them, at least this many were cards of the suit it has played since


def void_rules(obs: Observation) -> list[VoidRule]:
    """Every void the opponent showed in stage 1, with the draws since that could have refilled it."""
    me, opp = obs.player, 1 - obs.player
    rules = []
    hist = obs.history
    for j, t in enumerate(hist):
        if t.take < 0:
            break
        if t.leader == opp or t.follow // 13 == t.lead // 13:
            continue
        s = t.lead // 13
        later = hist[j + 1:]
        # the draw or take of the void trick itself comes after the failed follow
        draws = sum(1 for u in hist[j:] if u.take >= 0 and u.winner == me)
        taken = sum(1 for u in hist[j:] if u.take >= 0 and u.winner == opp and u.take // 13 == s)
        played = sum(1 for u in later for c, seat in ((u.lead, u.leader), (u.follow, 1 - u.leader))
                     if seat == opp and c // 13 == s)
        if obs.lead >= 0 and obs.lead // 13 == s:
            played += 1
        rules.append(VoidRule(s, draws, max(0, played - taken)))
    return rules


def opponent_unknown(obs: Observation) -> int:
    """How many of the opponent's cards this seat has not seen."""
    held = obs.hand.bit_count() - (1 if obs.lead >= 0 else 0)
    return held - obs.opp_taken.bit_count()


def sample_world(obs: Observation, rules: list[VoidRule], rng: Rng) -> tuple[int, list[int]]:
    """The opponent's unknown cards (a mask) and the hidden stock's order, consistent with the void rules."""
    unseen = list(cards_of(obs.unseen()))
    k = opponent_unknown(obs)
    for _ in range(TRIES):
        pool = shuffle(unseen, rng)
        theirs = pool[:k]
        if all(sum(1 for c in theirs if c // 13 == r.suit) + r.used <= r.draws for r in rules):
            break
    return sum(1 << c for c in theirs), pool[k:]


def world_state(obs: Observation, theirs: int, stock: list[int]) -> HandState:
    """A full hand state for one sampled world, from the point of this decision."""
    me, opp = obs.player, 1 - obs.player
    st = HandState.__new__(HandState)
    st.deck = obs.deck
    st.scoring = obs.scoring
    st.deal = None
    st.trump, st.mode = obs.trump, obs.mode
    st.hands = [0, 0]
    st.hands[me], st.hands[opp] = obs.hand, obs.opp_taken | theirs
    st.stock = [obs.upcard] + stock
    st.pos = 0
    st.upcard = obs.upcard
    st.stock_left = len(st.stock)
    st.leader, st.lead, st.played = obs.leader, obs.lead, obs.played
    st.taken = [0, 0]
    st.taken[opp] = obs.opp_taken
    st.taken[me] = sum(1 << t.take for t in obs.history if t.take >= 0 and t.winner == me) & ~obs.played
    st.drawn = [0, 0]
    st.won = [list(obs.tricks[0]), list(obs.tricks[1])]
    st.tricks = obs.tricks
    st.history = []
    st.trick_number = 1  # counted from this world's own (empty) history, as before
    st.seen = [(), ()]
    return st


def rollout(st: HandState, me: int) -> int:
    """Play stage 1 out with Hard's policy on both sides, value stage 2 exactly; ``me``'s points minus the other's, in eighths, plus tricks."""
    while st.stock_left:
        p = st.turn
        st.apply(stage1_choice(st.observation(p), st.legal_mask()))
    maxer = 0
    counted = 0 if st.mode == HIGH else 1
    h = [split(st.hands[0]), split(st.hands[1])]
    t0 = exact_value(h, st.trump, st.leader, maxer, counted)
    n = st.hands[0].bit_count()
    if st.mode != HIGH:
        t0 = n - t0  # counted was seat 1
    tricks = [st.won[1][0] + t0, st.won[1][1] + n - t0]
    if st.scoring.counts_stage1:
        tricks = [tricks[0] + st.won[0][0], tricks[1] + st.won[0][1]]
    pts = hand_points(st.scoring, st.deck, st.mode, (tricks[0], tricks[1]))
    sign = 1 if st.mode == HIGH else -1
    return 8 * (pts[me] - pts[1 - me]) + sign * (tricks[me] - tricks[1 - me])


class ExpertPlayer:
    """Rollout search over consistent worlds in stage 1, the exact solver in stage 2."""

    name = "expert"

    def __init__(self, rng: Rng, samples: int = SAMPLES) -> None:
        self.rng = rng
        self.samples = samples

    def choose(self, obs: Observation, legal: int) -> int:
        if obs.stage == 2:
            return stage2_choice(obs, None).card
        cands = candidates(obs, legal)
        if len(cands) == 1:
            return cands[0]
        rules = void_rules(obs)
        totals = [0] * len(cands)
        for _ in range(self.samples):
            theirs, stock = sample_world(obs, rules, self.rng)
            for i, c in enumerate(cands):
                st = world_state(obs, theirs, stock)
                st.apply(c)
                totals[i] += rollout(st, obs.player)
        return cands[max(range(len(cands)), key=lambda i: (totals[i], -i))]
