"""``hard-ceiling``, the PC yardstick: the classic Master whose rollouts end in exact stage-2 values."""

from __future__ import annotations

import random

from generator.ai import endgame, native, rollout
from generator.ai.arena import play_deal
from generator.ai.players import make_player
from generator.ai.solver import split
from generator.engine.cards import DECKS
from generator.engine.prng import Rng
from generator.engine.rules import HIGH, SCORINGS, deal
from generator.engine.state import HandState


def play_until(state: HandState, trick: int, seed: int) -> None:
    players = [make_player("original", Rng(seed)), make_player("greedy", Rng(seed))]
    while state.trick_number < trick and state.stock_left:
        state.apply(players[state.turn].choose(state.observation(state.turn), state.legal_mask()))


# (deck, scoring, tricks played first): 52 and 28 cards, a high and a low game (highlow's seed 1 is low)
CASES = [(52, "last13", 2), (52, "highlow", 5), (28, "last13", 3), (28, "highlow", 6), (52, "every", 9)]


def test_its_rollouts_end_in_the_exact_solvers_value(endgame_tables) -> None:
    """Each rollout is stage 1 played out as Master plays it, then the Python solver's exact stage 2."""
    tables = endgame.load().data
    checked = low = 0
    for seed, (size, scoring, tricks) in enumerate(CASES, 1):
        deck = DECKS[size]
        st = HandState(deck, SCORINGS[scoring], deal(seed, 1, deck))
        play_until(st, tricks, seed)
        assert st.stock_left
        me, obs = st.turn, st.observation(st.turn)
        mine, live = rollout.split(obs.hand), rollout.split(deck.mask & ~obs.played)
        theirs, hidden = rollout.sample(obs, rollout.suit_caps(obs), Rng(seed))
        for c in rollout.candidates(mine, rollout.split(st.legal_mask()), live)[:2]:
            h = [[0] * 4, [0] * 4]
            h[me], h[1 - me] = list(mine), list(theirs)
            ref = [list(h[0]), list(h[1])]
            got = rollout.rollout(me, h, list(live), [obs.upcard] + hidden, obs.leader, obs.lead, c, obs.trump,
                                  obs.scoring.counts_stage1, None, obs.mode, exact=tables)
            won = [0, 0]
            leader = rollout.python_play_out(ref, list(live), [obs.upcard] + hidden, obs.trump, obs.leader,
                                             obs.lead, c, won)
            counted = me if obs.mode == HIGH else 1 - me
            n = sum(m.bit_count() for m in ref[me])
            v = native.python_exact_value(ref, obs.trump, leader, me, counted)
            stage2 = 2 * (v if counted == me else n - v) - n
            assert got == (won[me] - won[1 - me] if obs.scoring.counts_stage1 else 0) + stage2
            checked += 1
            low += obs.mode != HIGH
    assert checked == 2 * len(CASES) and low >= 2


def test_it_draws_what_master_draws(endgame_tables) -> None:
    """The same worlds: every decision takes as many numbers from the shared stream as Master's."""
    for seed in range(1, 5):
        deck = DECKS[52 if seed % 2 else 28]
        st = HandState(deck, SCORINGS["last13"], deal(seed, 1, deck))
        play_until(st, 1 + seed, seed)
        assert st.stock_left
        obs, legal = st.observation(st.turn), st.legal_mask()
        a, b = Rng(seed), Rng(seed)
        rollout.choose(obs, legal, a)
        rollout.choose(obs, legal, b, exact=True)
        assert a.state == b.state != seed


def test_it_plays_whole_hands_against_master(endgame_tables) -> None:
    """Legal play to the end of both seatings of a deal (the engine refuses an illegal card)."""
    r = play_deal(("hard-ceiling", "hard", 3, 28, "last13"))
    assert r.wins + r.losses <= 2


def test_the_exact_search_reads_the_tables_without_changing_a_value(endgame_tables) -> None:
    """exact.c reading the endgame tables gives the values of its own search, high and low games."""
    rnd = random.Random(50)
    cases = []
    for i in range(60):
        n = (13, 11, 9, 8, 4)[i % 5]
        cards = rnd.sample(range(52), 2 * n)
        h = [split(sum(1 << c for c in cards[:n])), split(sum(1 << c for c in cards[n:]))]
        maxer = rnd.randrange(2)
        cases.append((h, rnd.randrange(4), rnd.randrange(2), maxer, maxer if i % 3 else 1 - maxer))
    tables = endgame.load().data
    assert [native.exact_value(*c, tables=tables) for c in cases] == [native.exact_value(*c) for c in cases]
