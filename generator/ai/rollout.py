"""``hard``'s stage 1: a search, rollouts over sampled worlds, in integers the AVR can repeat card for card.

The cards this seat has not seen (the opponent's unknown cards and the hidden
stock) are dealt from the game's shared AI stream, consistently with what it
knows: the face-up cards the opponent took are in its hand, and after showing
a void in a suit it holds at most as many unknown cards of that suit as it has
drawn hidden cards since (:func:`suit_caps`). In every world each candidate
card (one per run of equivalent legal cards) is played, the rest of stage 1
is played out with both hands open by one cheap rule (:func:`policy`,
Hard's memory rule with the weights of ``hard.WEIGHTS`` in a closed form
that costs four popcounts instead of a loop over the unseen cards), stage 2
is played on with both hands open by the judge's rule (:mod:`.judge`: to the
last trick, or on the FX edition down to the endgame tables, whose exact
value ends it), and the hand is scored as it would be (:func:`points`). The candidate with the
best total over the same worlds is played. The number of worlds
shrinks with the work a world costs (:func:`worlds`), which bounds the time a
decision takes on the device.

The firmware's Hard is the same algorithm in C++ (``players/hard.cpp.j2``),
draw for draw and card for card with this module.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.cards import cards_of
from ..engine.prng import Rng
from ..engine.rules import HIGH, hand_points
from ..engine.state import Observation
from . import judge
from .hard import WEIGHTS, SearchPlayer, Weights
from .native import exact_value, stage1_playout
from .solver import FX_WORK_BUDGET, WORK_BUDGET, Tables, run_lows


class Estimate(NamedTuple):
    """What a stage-2 start is worth to a hand, in sixteenths of a trick beyond an even split.

    A least-squares fit to the exact values of 20,000 stage-2 starts that
    Hard's rollouts reached: it misjudges them by 0.87 tricks on average.
    Master's rollouts ended in it before the judge; the judge's fit draws its
    stage-2 starts from the games of that Master (so that they do not depend
    on the judge's weights), and the review starts its exact searches at it.
    """
    leader: int = 2  # for leading the first trick
    trumps: int = 10  # per trump more than the other hand
    honours: int = 3  # per point of the top four live cards of each suit (4, 3, 2, 1)
    ruffs: int = 15  # per side suit the hand is void in while it holds a trump


ESTIMATE = Estimate()
NO_CAP = 100  # a suit never shown void: no bound (a hand moves a cap by at most 13 either way)


class Budget(NamedTuple):
    """How many worlds a decision samples: about ``work`` cards played over all its worlds and candidates
    (the device's time a decision is about proportional to it), at most ``max_worlds`` worlds."""
    work: int
    max_worlds: int


# Each edition's Master thinks as long as its worst stage-1 decision stays under 12 M cycles on the AVR and
# the table's pace within 0.3 s of Club's (docs/ai-figures.md): more worlds won more hands than anything
# else its flash affords.
CLASSIC_BUDGET = Budget(6000, 24)
FX_BUDGET = Budget(4500, 48)  # its rollouts stop at the tables, so late ones are cheap: more of them pay
ESTIMATE_BUDGET = Budget(4000, 24)  # hard-estimate, Master as it was before the judge: kept as the yardstick
MIN_WORLDS = 2


def suit_caps(obs: Observation) -> list[int]:
    """Per suit, at most how many cards of it the opponent holds that this seat has not seen.

    A failed follow sets the suit's cap to 0; each hidden card the opponent
    draws raises every cap by one; each card of a suit it plays that was not
    a face-up card it took lowers that cap by one (a firmware keeps the same
    counts in ``play()``, 8 bytes).
    """
    opp = 1 - obs.player
    caps = [NO_CAP] * 4
    known = 0  # face-up cards the opponent took
    for t in obs.history:
        if t.take < 0:
            break
        for c, seat in ((t.lead, t.leader), (t.follow, 1 - t.leader)):
            if seat == opp:
                _played(caps, known, c)
        if t.leader != opp and t.follow // 13 != t.lead // 13:
            caps[t.lead // 13] = 0
        if t.winner == opp:
            known |= 1 << t.take
        else:
            caps = [x + 1 for x in caps]
    if obs.lead >= 0:
        _played(caps, known, obs.lead)
    return caps


def _played(caps: list[int], known: int, c: int) -> None:
    if not known >> c & 1:
        caps[c // 13] -= 1


def sample(obs: Observation, caps: list[int], rng: Rng) -> tuple[list[int], list[int]]:
    """One world: the opponent's whole hand (per-suit masks) and the hidden stock, top first.

    The unseen cards are shuffled (Fisher-Yates from the top, the deal's
    shuffle); walking them in order, a card goes to the opponent while it
    needs cards and its suit is under the cap, else to the stock.
    """
    unseen = list(cards_of(obs.unseen()))
    for i in range(len(unseen) - 1, 0, -1):
        j = rng.uniform(i + 1)
        unseen[i], unseen[j] = unseen[j], unseen[i]
    need = len(unseen) - (obs.stock_left - 1)  # the hidden stock is the rest
    theirs = [(obs.opp_taken >> (13 * s)) & 0x1FFF for s in range(4)]
    count = [0, 0, 0, 0]
    stock = []
    for c in unseen:
        s = c // 13
        if need and count[s] < caps[s]:
            theirs[s] |= 1 << (c % 13)
            count[s] += 1
            need -= 1
        else:
            stock.append(c)
    return theirs, stock


def policy(mine: list[int], live: list[int], up: int, trump: int, lead: int, w: Weights = WEIGHTS) -> int:
    """Hard's stage-1 rule (hard.stage1_choice) where every live card not in ``mine`` counts as unseen.

    The sum of the unseen cards' values has a closed form per suit: each
    unseen card's value is 12 less the unseen cards above it (and the face-up
    card, if higher), so the suit adds 12 n - n (n - 1) / 2 - those below the
    face-up card.
    """
    def value(s: int, r: int) -> int:
        above = live[s] & ~mine[s] & ~((2 << r) - 1)
        return 12 - above.bit_count() + (w.trump if s == trump else 0)

    cnt = total = 0
    us, ur = divmod(up, 13)
    for s in range(4):
        unseen = live[s] & ~mine[s]
        if s == us:
            unseen &= ~(1 << ur)
        n = unseen.bit_count()
        cnt += n
        total += 12 * n - n * (n - 1) // 2 + (w.trump * n if s == trump else 0)
        if s == us:
            total -= (unseen & ((1 << ur) - 1)).bit_count()
    gain4 = 4 * (value(us, ur) * cnt - total)
    legal = mine
    if lead >= 0 and mine[lead // 13]:
        legal = [m if s == lead // 13 else 0 for s, m in enumerate(mine)]
    cheap = win = lose = sure = top = high = -1
    v_cheap = v_win = v_lose = 127
    v_high = -1
    for s in range(4):
        m = legal[s]
        while m:
            b = m & -m
            m ^= b
            r = b.bit_length() - 1
            c = 13 * s + r
            v = value(s, r)
            if v < v_cheap:
                v_cheap, cheap = v, c
            if v > v_high:
                v_high, high = v, c
            if s != trump and v == 12 and sure < 0:
                sure = c
            if s == trump and v == 12 + w.trump and top < 0:
                top = c
            if lead < 0:
                continue
            if _beats(lead, c, trump):
                if v < v_win:
                    v_win, win = v, c
            elif v < v_lose:
                v_lose, lose = v, c
    if lead < 0:
        if gain4 < 4 * cnt * w.want:
            return cheap
        if sure >= 0:
            return sure
        if top >= 0:
            return top
        return high
    if win < 0 or lose < 0:
        return cheap
    return win if gain4 >= cnt * (4 * w.want + w.spend * (v_win - v_lose)) else lose


def _beats(lead: int, c: int, trump: int) -> bool:
    ls, cs = lead // 13, c // 13
    return c > lead if cs == ls else cs == trump


def candidates(mine: list[int], legal: list[int], live: list[int]) -> list[int]:
    """One legal card per run of equivalent cards (no live card of another seat between them)."""
    out = []
    for s in range(4):
        lows = run_lows(mine[s], live[s]) & legal[s]
        while lows:
            b = lows & -lows
            lows ^= b
            out.append(13 * s + b.bit_length() - 1)
    return out


def worlds(cands: int, stock_left: int, played_on: int, budget: Budget) -> int:
    """Worlds for a decision: about ``budget.work`` cards played in all (a rollout plays about ``stock_left``
    in stage 1 and ``played_on`` in the judge's stage 2), at least MIN_WORLDS, at most ``budget.max_worlds``."""
    return max(MIN_WORLDS, min(budget.max_worlds, budget.work // (cands * (stock_left + played_on))))


def budget(tables: Tables | None, judged: bool) -> Budget:
    """The edition's budget: the FX Master's with the endgame ``tables``, hard-estimate's not ``judged``."""
    return FX_BUDGET if tables is not None else CLASSIC_BUDGET if judged else ESTIMATE_BUDGET


def split(mask: int) -> list[int]:
    return [(mask >> (13 * s)) & 0x1FFF for s in range(4)]


def played_on(hand_size: int, tables: Tables | None, judged: bool = True) -> int:
    """Cards the judge plays in a rollout's stage 2: down to the tables' K on the FX edition, all of them
    on the classic (none when the rollouts end in :func:`estimate`)."""
    if not judged:
        return 0
    return 2 * max(0, hand_size - tables.k) if tables is not None else 2 * hand_size


def rollout(me: int, h: list[list[int]], live: list[int], stock: list[int], leader: int, lead: int,
            first: int, trump: int, counts_stage1: bool, tables: Tables | None = None, mode: int = HIGH,
            judged: bool = True, exact: bool | bytes = False) -> int:
    """Play a world's stage 1 out, hands open: ``first`` for the seat to move, then ``policy`` for both.

    ``stock`` is the face-up card then the hidden ones, top first. Returns
    ``me``'s tricks less the other seat's from here: those of stage 1 when
    the scoring counts them, and stage 2's as the judge plays them on
    (:mod:`.judge`): to the end, or with the endgame ``tables`` (the FX
    edition's Master) down to the tables' K tricks and then exactly; not
    ``judged``, as :func:`estimate` guesses them; ``exact`` (``hard-ceiling``), as both seats playing
    perfectly take them (:func:`exact_diff`; given as bytes, the endgame tables' file its search reads).
    """
    won = [0, 0]
    leader = play_out(h, live, stock, trump, leader, lead, first, won)
    diff = won[me] - won[1 - me] if counts_stage1 else 0
    if exact:
        return diff + exact_diff(me, h, trump, mode, leader, exact if isinstance(exact, bytes) else None)
    if not judged:
        return diff + estimate(h[me], h[1 - me], trump, leader == me)
    won = [0, 0]
    leader = judge.play_on(h, trump, leader, mode, tables.k if tables is not None else 0, won)
    n = sum(m.bit_count() for m in h[me])
    v = tables.value(h, trump, mode, leader) if n else 0  # the leader's tricks, both playing perfectly
    return diff + won[me] - won[1 - me] + 2 * (v if leader == me else n - v) - n


def exact_diff(me: int, h: list[list[int]], trump: int, mode: int, leader: int, tables: bytes | None = None) -> int:
    """``me``'s stage-2 tricks less the other hand's from a stage-2 start, both seats playing perfectly
    (``tables``: see native.exact_value). Remembered: a decision's worlds and candidates often reach the
    same start (late in stage 1 few cards are unseen), and a position's value never changes."""
    key = (me, *h[0], *h[1], trump, mode, leader)
    d = _EXACT.get(key)
    if d is None:
        n = sum(m.bit_count() for m in h[me])
        counted = me if mode == HIGH else 1 - me
        v = exact_value(h, trump, leader, me, counted, tables=tables)
        d = 2 * (v if counted == me else n - v) - n
        if len(_EXACT) >= EXACT_KEPT:
            _EXACT.clear()
        _EXACT[key] = d
    return d


EXACT_KEPT = 1 << 16  # stage-2 starts exact_diff remembers (a few MB)
_EXACT: dict[tuple[int, ...], int] = {}


def play_out(h: list[list[int]], live: list[int], stock: list[int], trump: int, leader: int, lead: int,
             first: int, won: list[int]) -> int:
    """The rest of stage 1 (``h``, ``live`` and the tricks in ``won`` played on in place); returns stage 2's
    leader. In C when a compiler is there (native.stage1_playout: a review plays thousands of these and
    Master hundreds a card), else :func:`python_play_out`, card for card the same."""
    end = stage1_playout(h, live, stock, trump, leader, lead, first, WEIGHTS, won)
    return python_play_out(h, live, stock, trump, leader, lead, first, won) if end is None else end


def python_play_out(h: list[list[int]], live: list[int], stock: list[int], trump: int, leader: int, lead: int,
                    first: int, won: list[int]) -> int:
    """:func:`play_out` in Python: ``first``, then :func:`policy` for both seats until the stock is gone."""
    pos = 0
    while pos < len(stock):
        p = leader if lead < 0 else 1 - leader
        c = first if first >= 0 else policy(h[p], live, stock[pos], trump, lead)
        first = -1
        s, bit = c // 13, 1 << (c % 13)
        h[p][s] ^= bit
        live[s] ^= bit
        if lead < 0:
            lead = c
            continue
        leader = p if _beats(lead, c, trump) else leader
        lead = -1
        take, draw = stock[pos], stock[pos + 1]
        h[leader][take // 13] |= 1 << (take % 13)
        h[1 - leader][draw // 13] |= 1 << (draw % 13)
        pos += 2
        won[leader] += 1
    return leader


def estimate(mine: list[int], theirs: list[int], trump: int, leads: bool) -> int:
    """``mine``'s stage-2 tricks less the other hand's, judged by :data:`ESTIMATE` from the cards alone.

    Rounded to whole tricks (0..n for n cards a hand), so the result keeps
    the parity of n and the hand can be scored.
    """
    e = ESTIMATE
    v = e.leader if leads else -e.leader
    v += e.trumps * (mine[trump].bit_count() - theirs[trump].bit_count())
    for s in range(4):
        u = mine[s] | theirs[s]
        for points in (4, 3, 2, 1):
            if not u:
                break
            top = 1 << (u.bit_length() - 1)
            u ^= top
            v += e.honours * points if mine[s] & top else -e.honours * points
        if s != trump:
            v += e.ruffs * ((not mine[s] and mine[trump] != 0) - (not theirs[s] and theirs[trump] != 0))
    n = sum(m.bit_count() for m in mine)
    tricks = min(n, max(0, (8 * n + v + 8) >> 4))
    return 2 * tricks - n


def points(obs: Observation, diff: int) -> int:
    """The seat's points less the other's if the counted tricks still to come split ``diff`` in its favour.

    A rollout is scored as the hand is (last13: a hand won 7-6 is worth 1
    point, lost 6-7 -1), not by its tricks alone: winning the hand is worth
    more than a trick of margin.
    """
    me = obs.player
    counted = obs.tricks[0] if obs.scoring.counts_stage1 else (0, 0)
    so_far = counted[me] + obs.tricks[1][me] - counted[1 - me] - obs.tricks[1][1 - me]
    total = obs.deck.hand_size * (2 if obs.scoring.counts_stage1 else 1)
    d = so_far + diff
    pts = hand_points(obs.scoring, obs.deck, obs.mode, ((total + d) // 2, (total - d) // 2))
    return pts[0] - pts[1]


def choose(obs: Observation, legal_mask: int, rng: Rng, tables: Tables | None = None, judged: bool = True,
           exact: bool | bytes = False) -> int:
    """The card with the best total over the sampled worlds (ties: the lowest card); ``tables``, ``judged``
    and ``exact``: see :func:`rollout` (``exact`` keeps the classic Master's worlds, their number included)."""
    me = obs.player
    mine = split(obs.hand)
    live = split(obs.deck.mask & ~obs.played)
    cands = candidates(mine, split(legal_mask), live)
    if len(cands) == 1:
        return cands[0]
    caps = suit_caps(obs)
    n = worlds(len(cands), obs.stock_left, played_on(obs.deck.hand_size, tables, judged), budget(tables, judged))
    counts_stage1 = obs.scoring.counts_stage1
    totals = [0] * len(cands)
    for _ in range(n):
        theirs, hidden = sample(obs, caps, rng)
        for i, c in enumerate(cands):
            h = [[0] * 4, [0] * 4]
            h[me], h[1 - me] = list(mine), list(theirs)
            v = rollout(me, h, list(live), [obs.upcard] + hidden, obs.leader, obs.lead, c, obs.trump, counts_stage1,
                        tables, obs.mode, judged, exact)
            totals[i] += points(obs, v)
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best]


def hard(rng: Rng) -> SearchPlayer:
    """The device's top level: this search in stage 1 (its rollouts' stage 2 played to the end by the
    judge), the solver with the device's budget in stage 2."""
    return SearchPlayer("hard", lambda obs, legal: choose(obs, legal, rng), WORK_BUDGET)


def hard_estimate(rng: Rng) -> SearchPlayer:
    """Master as it was before the judge: its rollouts end in :func:`estimate`. The yardstick the classic
    Master's judge is measured against, and the player whose rollouts give the judge's fit its stage-2
    starts (so that they do not depend on the weights being fitted)."""
    return SearchPlayer("hard-estimate", lambda obs, legal: choose(obs, legal, rng, judged=False), WORK_BUDGET)


def hard_ceiling(rng: Rng) -> SearchPlayer:
    """The classic Master (same worlds, candidates, number of worlds and draws from the stream) whose rollouts
    value the stage-2 start they reach exactly instead of by the judge: PC only, the ceiling of what a better
    judge of Master's rollouts can be worth (issue 50; docs/ai.md). Its stage 2 is Master's. The exact
    search reads the endgame tables at their K tricks when `make hex` has built them: the same values,
    several times sooner."""
    from . import endgame

    try:
        exact: bool | bytes = endgame.load().data
    except endgame.TablesError:
        exact = True
    return SearchPlayer("hard-ceiling", lambda obs, legal: choose(obs, legal, rng, exact=exact), WORK_BUDGET)


def hard_fx(rng: Rng) -> SearchPlayer:
    """The FX edition's Master: this search in stage 1, its rollouts' stage 2 played on by the judge
    down to the endgame tables and ending in their exact values; in stage 2 the solver down to the tables,
    exact whenever it ends within :data:`.solver.FX_WORK_BUDGET` (all but 6 decisions of 2,000 stage-2
    starts, and those 6 kept the exact value too: docs/ai.md)."""
    from . import endgame

    tables = endgame.load()
    return SearchPlayer("hard-fx", lambda obs, legal: choose(obs, legal, rng, tables), FX_WORK_BUDGET, tables)
