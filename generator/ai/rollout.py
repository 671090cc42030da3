"""Hard's stage 1: a few rollouts over sampled worlds, in integers the AVR repeats card for card.

The cards this seat has not seen (the opponent's unknown cards and the hidden
stock) are dealt from the game's shared AI stream, consistently with what it
knows: the face-up cards the opponent took are in its hand, and after showing
a void in a suit it holds at most as many unknown cards of that suit as it has
drawn hidden cards since (:func:`suit_caps`). In every world each candidate
card (one per run of equivalent legal cards) is played, both seats finish
stage 1 with Hard's memory rule (:func:`policy`, the weights of
``hard.WEIGHTS`` in a closed form that costs four popcounts instead of a loop
over the unseen cards), and stage 2 is estimated by a greedy double-dummy
playout (:func:`playout`). The candidate with the best total over the same
worlds is played. The number of worlds shrinks with the work a world costs
(:func:`worlds`), which bounds the time a decision takes on the device.

``templates/players/hard.cpp.j2`` is the same algorithm in C++.
"""

from __future__ import annotations

from ..engine.cards import cards_of
from ..engine.prng import Rng
from ..engine.rules import HIGH
from ..engine.state import Observation
from .hard import WEIGHTS, SearchPlayer, Weights
from .solver import NODE_BUDGET, run_lows

NO_CAP = 15  # a suit the opponent never showed void in: no bound on its unknown cards
WORK = 2400  # cards played per decision over all worlds and candidates (rollouts and playouts)
MAX_WORLDS = 24
MIN_WORLDS = 2


def suit_caps(obs: Observation) -> list[int]:
    """Per suit, at most how many cards of it the opponent holds that this seat has not seen.

    A failed follow sets the suit's cap to 0; each hidden card the opponent
    draws raises every cap by one; each card of a suit it plays that was not
    a face-up card it took lowers that cap by one (the firmware keeps the same
    counts in ``play()``).
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
            for s in range(4):
                caps[s] = min(caps[s] + 1, NO_CAP)
    if obs.lead >= 0:
        _played(caps, known, obs.lead)
    return caps


def _played(caps: list[int], known: int, c: int) -> None:
    s = c // 13
    if not known >> c & 1 and caps[s] < NO_CAP:
        caps[s] -= 1


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
    held = obs.hand.bit_count() - (1 if obs.lead >= 0 else 0)
    need = held - obs.opp_taken.bit_count()
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
    us, ur = divmod(up, 13)

    def value(s: int, r: int) -> int:
        above = live[s] & ~mine[s] & ~((2 << r) - 1)
        return 12 - above.bit_count() + (w.trump if s == trump else 0)

    cnt = total = 0
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
        return top if top >= 0 else high
    if win < 0 or lose < 0:
        return cheap
    return win if gain4 >= cnt * (4 * w.want + w.spend * (v_win - v_lose)) else lose


def _beats(lead: int, c: int, trump: int) -> bool:
    ls, cs = lead // 13, c // 13
    return c > lead if cs == ls else cs == trump


def _high(m: int) -> int:
    return m.bit_length() - 1


def _low(m: int) -> int:
    return (m & -m).bit_length() - 1


def playout(h: list[list[int]], trump: int, leader: int) -> int:
    """Stage 2 played greedily with both hands open; the tricks seat 0 takes.

    The leader cashes a sure winner (the top live card of a suit the follower
    cannot ruff, the first such suit), else leads its lowest non-trump (its
    lowest trump when it has nothing else); the follower wins as cheaply as
    it can (the lowest ruff when void), else throws its lowest card.
    """
    h = [list(h[0]), list(h[1])]
    won0 = 0
    while any(h[leader]):
        a, b = h[leader], h[1 - leader]
        lead = -1
        for s in range(4):
            top = _high(a[s] | b[s])
            if a[s] and a[s] >> top & 1 and (b[s] or not b[trump] or s == trump):
                lead = 13 * s + top
                break
        if lead < 0:
            lead = _lowest(a, trump)
        ls = lead // 13
        a[ls] ^= 1 << (lead % 13)
        if b[ls]:
            higher = b[ls] >> (lead % 13 + 1) << (lead % 13 + 1)
            follow = 13 * ls + (_low(higher) if higher else _low(b[ls]))
        elif b[trump]:
            follow = 13 * trump + _low(b[trump])
        else:
            follow = _lowest(b, trump)
        b[follow // 13] ^= 1 << (follow % 13)
        if _beats(lead, follow, trump):
            leader = 1 - leader
        won0 += leader == 0
    return won0


def _lowest(hand: list[int], trump: int) -> int:
    """The lowest-ranked non-trump (first suit on ties), else the lowest trump."""
    best = -1
    for s in range(4):
        if s != trump and hand[s] and (best < 0 or _low(hand[s]) < best % 13):
            best = 13 * s + _low(hand[s])
    return best if best >= 0 else 13 * trump + _low(hand[trump])


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


def worlds(cands: int, cards_left: int) -> int:
    """Worlds for a decision: WORK cards played in all, at least MIN_WORLDS, at most MAX_WORLDS."""
    return max(MIN_WORLDS, min(MAX_WORLDS, WORK // (cands * cards_left)))


def split(mask: int) -> list[int]:
    return [(mask >> (13 * s)) & 0x1FFF for s in range(4)]


def rollout(me: int, h: list[list[int]], live: list[int], stock: list[int], pos: int,
            leader: int, lead: int, trump: int, counts_stage1: bool) -> int:
    """From a world with the current trick open, stage 1 by ``policy`` for both seats, stage 2 by ``playout``.

    ``stock[pos]`` is the face-up card. Returns ``me``'s tricks less the other
    seat's from here, those of stage 1 only when the scoring counts them.
    """
    diff = 0
    while pos < len(stock):
        p = leader if lead < 0 else 1 - leader
        c = policy(h[p], live, stock[pos], trump, lead)
        s, bit = c // 13, 1 << (c % 13)
        h[p][s] ^= bit
        live[s] ^= bit
        if lead < 0:
            lead = c
            continue
        leader = p if _beats(lead, c, trump) else leader
        _deal(h, leader, stock[pos], stock[pos + 1])
        pos += 2
        if counts_stage1:
            diff += 1 if leader == me else -1
        lead = -1
    n = sum(x.bit_count() for x in h[0])
    t0 = playout(h, trump, leader)
    return diff + 2 * (t0 if me == 0 else n - t0) - n


def _deal(h: list[list[int]], winner: int, take: int, draw: int) -> None:
    h[winner][take // 13] |= 1 << (take % 13)
    h[1 - winner][draw // 13] |= 1 << (draw % 13)


def choose(obs: Observation, legal_mask: int, rng: Rng) -> int:
    """The card with the best total over the sampled worlds (ties: the lowest card)."""
    me, trump = obs.player, obs.trump
    mine = split(obs.hand)
    live = split(obs.deck.mask & ~obs.played)
    cands = candidates(mine, split(legal_mask), live)
    if len(cands) == 1:
        return cands[0]
    caps = suit_caps(obs)
    n = worlds(len(cands), obs.stock_left + 2 * obs.deck.hand_size)
    counts_stage1 = obs.scoring is not None and obs.scoring.counts_stage1
    totals = [0] * len(cands)
    for _ in range(n):
        theirs, hidden = sample(obs, caps, rng)
        stock = [obs.upcard] + hidden
        for i, c in enumerate(cands):
            h = [[0] * 4, [0] * 4]
            h[me], h[1 - me] = list(mine), list(theirs)
            lv = list(live)
            s, bit = c // 13, 1 << (c % 13)
            h[me][s] ^= bit
            lv[s] ^= bit
            if obs.lead < 0:
                v = rollout(me, h, lv, stock, 0, me, c, trump, counts_stage1)
            else:
                w = me if _beats(obs.lead, c, trump) else obs.leader
                _deal(h, w, stock[0], stock[1])
                v = rollout(me, h, lv, stock, 2, w, -1, trump, counts_stage1)
                if counts_stage1:
                    v += 1 if w == me else -1
            totals[i] += v if obs.mode == HIGH else -v
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best]


def hard(rng: Rng) -> SearchPlayer:
    """The device's top level: rollouts in stage 1, the solver with the device budget in stage 2."""
    return SearchPlayer("hard", lambda obs, legal: choose(obs, legal, rng), NODE_BUDGET)
