"""The PC expert: the compiled exact values equal the Python solver's, and its worlds respect what it saw."""

import random

from generator.ai import native
from generator.ai.expert import ExpertPlayer, candidates, opponent_unknown, sample_world, void_rules
from generator.ai.players import make_player
from generator.ai.solver import split
from generator.engine.prng import Rng
from generator.engine.rules import SCORINGS, deal
from generator.engine.state import HandState
from generator.engine.cards import DECKS


def test_compiled_exact_values_equal_the_python_solver():
    assert native._dll() is not None, "no C compiler: the expert would fall back to Python"
    rnd = random.Random(16)
    for _ in range(300):
        n = rnd.choice((2, 3, 5, 7))
        cards = rnd.sample(range(52), 2 * n)
        h = [split(sum(1 << c for c in cards[:n])), split(sum(1 << c for c in cards[n:]))]
        args = (h, rnd.randrange(4), rnd.randrange(2), rnd.randrange(2), rnd.randrange(2))
        assert native.exact_value(*args) == native.python_exact_value(*args)


def test_where_the_questions_start_never_changes_the_value():
    rnd = random.Random(17)
    for _ in range(100):
        n = rnd.choice((3, 6, 9))
        cards = rnd.sample(range(52), 2 * n)
        h = [split(sum(1 << c for c in cards[:n])), split(sum(1 << c for c in cards[n:]))]
        args = (h, rnd.randrange(4), rnd.randrange(2), rnd.randrange(2), rnd.randrange(2))
        want = native.exact_value(*args)
        assert {native.exact_value(*args, guess=g) for g in (-1, 0, n // 2, n, n + 3)} == {want}


def play_until(state: HandState, trick: int, seed: int) -> None:
    players = [make_player("original", Rng(seed)), make_player("greedy", Rng(seed))]
    while state.trick_number < trick:
        state.apply(players[state.turn].choose(state.observation(state.turn), state.legal_mask()))


def test_sampled_worlds_keep_the_opponents_taken_cards_and_shown_voids():
    checked = 0
    for seed in range(40):
        st = HandState(DECKS[52], SCORINGS["last13"], deal(seed, 1, DECKS[52]))
        play_until(st, 11, seed)
        me = st.turn
        obs = st.observation(me)
        rules = void_rules(obs)
        rng = Rng(seed + 1)
        for _ in range(5):
            theirs, stock = sample_world(obs, rules, rng)
            assert theirs.bit_count() == opponent_unknown(obs)
            assert theirs | sum(1 << c for c in stock) == obs.unseen() and not theirs & obs.opp_taken
            if rules:
                checked += 1
        # the true world is always possible: its void counts fit
        truth = st.hands[1 - me] & ~obs.opp_taken
        assert all(sum(1 for c in range(52) if truth >> c & 1 and c // 13 == r.suit) + r.used <= r.draws for r in rules)
    assert checked


def test_candidates_are_one_card_per_run():
    st = HandState(DECKS[52], SCORINGS["last13"], deal(3, 1, DECKS[52]))
    obs = st.observation(st.turn)
    cands = candidates(obs, st.legal_mask())
    assert cands and set(cands) <= set(c for c in range(52) if st.legal_mask() >> c & 1)
    assert len(cands) <= st.legal_mask().bit_count()


def test_expert_choices_repeat_for_the_same_stream():
    st = HandState(DECKS[28], SCORINGS["every"], deal(5, 1, DECKS[28]))
    play_until(st, 3, 5)
    obs = st.observation(st.turn)
    a = ExpertPlayer(Rng(9), samples=4).choose(obs, st.legal_mask())
    b = ExpertPlayer(Rng(9), samples=4).choose(obs, st.legal_mask())
    assert a == b and st.legal_mask() >> a & 1
