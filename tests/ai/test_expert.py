"""The PC expert: the compiled exact values equal plain minimax's and the Python solver's, and its worlds
respect what it saw."""

import random
from functools import lru_cache

from generator.ai import native
from generator.ai.expert import ExpertPlayer, candidates, opponent_unknown, sample_world, void_rules
from generator.ai.players import make_player
from generator.ai.solver import split
from generator.engine.prng import Rng
from generator.engine.rules import SCORINGS, deal, trick_winner
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


def minimax(h: list[list[int]], trump: int, leader: int, maxer: int, counted: int) -> int:
    """Tricks ``counted`` takes, every legal card tried: ``maxer`` takes the most for it, the other seat the fewest."""

    @lru_cache(maxsize=None)
    def value(h0: int, h1: int, leader: int) -> int:
        hands = (h0, h1)
        if not h0:
            return 0
        results = []
        for a in bits(hands[leader]):
            follower = 1 - leader
            suit = hands[follower] & 0x1FFF << 13 * (a // 13)
            replies = []
            for b in bits(suit or hands[follower]):
                w = follower if trick_winner(a, b, trump) else leader
                nh = [h0, h1]
                nh[leader] ^= 1 << a
                nh[follower] ^= 1 << b
                replies.append((w == counted) + value(nh[0], nh[1], w))
            results.append(max(replies) if follower == maxer else min(replies))
        return max(results) if leader == maxer else min(results)

    return value(sum(m << 13 * s for s, m in enumerate(h[0])), sum(m << 13 * s for s, m in enumerate(h[1])), leader)


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        out.append((mask & -mask).bit_length() - 1)
        mask &= mask - 1
    return out


def lopsided(rnd: random.Random, n: int) -> tuple[list[list[int]], int, int, int, int]:
    """A position of ``n`` cards a hand dealt from two, three or four suits (long suits, voids, many
    trumps or none), the trumps, the leader, maxer and counted seats chosen at random."""
    suits = rnd.sample(range(4), rnd.choice((2, 3, 4)))
    cards = rnd.sample([13 * s + r for s in suits for r in range(13)], 2 * n)
    h = [split(sum(1 << c for c in cards[:n])), split(sum(1 << c for c in cards[n:]))]
    return h, rnd.choice(suits + [rnd.randrange(4)]), rnd.randrange(2), rnd.randrange(2), rnd.randrange(2)


def test_compiled_exact_values_equal_plain_minimax_in_low_and_high_games():
    """exact.c orders and bounds its search in ways the device's does not (low games' ducks first, sure
    trump tricks): whichever seats lead, search and count, its values are minimax's."""
    rnd = random.Random(18)
    seen = set()
    for _ in range(600):
        args = lopsided(rnd, rnd.randint(1, 7))
        seen.add((args[3] == args[4], args[2], args[4]))  # (high game, leader, counted)
        assert native.exact_value(*args) == minimax(*args), args
    assert len(seen) == 8


def test_compiled_exact_values_equal_the_python_solver_on_larger_positions():
    rnd = random.Random(19)
    for _ in range(30):
        args = lopsided(rnd, rnd.randint(8, 11))
        assert native.exact_value(*args) == native.python_exact_value(*args), args


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
