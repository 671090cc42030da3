"""Hard's stage-1 search: its worlds respect what the seat saw, its work is bounded, its policy is Hard's rule."""

from generator.ai import rollout
from generator.ai.hard import stage1_choice
from generator.ai.players import make_player
from generator.engine.cards import DECKS
from generator.engine.prng import Rng, shuffle
from generator.engine.rules import SCORINGS, deal
from generator.engine.state import HandState


def play_until(state: HandState, trick: int, seed: int) -> None:
    players = [make_player("original", Rng(seed)), make_player("greedy", Rng(seed))]
    while state.trick_number < trick and state.stock_left:
        state.apply(players[state.turn].choose(state.observation(state.turn), state.legal_mask()))


def test_caps_hold_for_the_true_hand_and_bind_the_sampled_ones():
    """The opponent's real unknown cards always fit the caps, and so does every sampled world."""
    voids = 0
    for seed in range(60):
        deck = DECKS[52 if seed % 2 else 28]
        st = HandState(deck, SCORINGS["last13"], deal(seed, 1, deck))
        play_until(st, 3 + seed % 9, seed)
        if not st.stock_left:
            continue
        me = st.turn
        obs = st.observation(me)
        caps = rollout.suit_caps(obs)
        voids += any(c < rollout.NO_CAP - 13 for c in caps)
        truth = st.hands[1 - me] & ~obs.opp_taken
        assert all(sum(1 for c in range(52) if truth >> c & 1 and c // 13 == s) <= caps[s] for s in range(4))
        rng = Rng(seed + 1)
        for _ in range(4):
            theirs, hidden = rollout.sample(obs, caps, rng)
            mask = sum(m << (13 * s) for s, m in enumerate(theirs))
            assert mask.bit_count() == st.hands[1 - me].bit_count()
            assert mask & obs.opp_taken == obs.opp_taken
            assert (mask & ~obs.opp_taken) | sum(1 << c for c in hidden) == obs.unseen()
            assert len(hidden) == obs.stock_left - 1
            unknown = mask & ~obs.opp_taken
            assert all(sum(1 for c in range(52) if unknown >> c & 1 and c // 13 == s) <= caps[s] for s in range(4))
    assert voids > 5


def test_work_per_decision_is_bounded():
    for budget in (rollout.CLASSIC_BUDGET, rollout.FX_BUDGET, rollout.ESTIMATE_BUDGET):
        for cands in range(2, 14):
            for left in range(2, 54):
                n = rollout.worlds(cands, left, 10, budget)
                assert rollout.MIN_WORLDS <= n <= budget.max_worlds
                assert n == rollout.MIN_WORLDS or n * cands * (left + 10) <= budget.work


def test_policy_is_hards_rule_when_the_unseen_cards_are_the_live_ones():
    """At the first trick nothing is known beyond the own hand, so the closed form must agree with hard.stage1_choice."""
    for seed in range(80):
        deck = DECKS[52 if seed % 2 else 28]
        st = HandState(deck, SCORINGS["last13"], deal(seed, 1, deck))
        if seed % 3 == 0:
            st.apply(min(c for c in range(52) if st.legal_mask() >> c & 1))
        p = st.turn
        obs = st.observation(p)
        mine = rollout.split(obs.hand)
        live = rollout.split(obs.deck.mask & ~obs.played)
        assert rollout.policy(mine, live, obs.upcard, obs.trump, obs.lead) == stage1_choice(obs, st.legal_mask())


def test_one_candidate_draws_nothing_from_the_stream():
    st = HandState(DECKS[28], SCORINGS["last13"], deal(4, 1, DECKS[28]))
    play_until(st, 5, 4)
    obs = st.observation(st.turn)
    legal = st.legal_mask()
    single = legal & -legal
    rng = Rng(77)
    assert rollout.choose(obs, single, rng) == single.bit_length() - 1 and rng.state == 77



def test_a_rollout_scores_what_the_hand_would_score():
    """Points, not tricks: winning the hand is worth more than a trick of margin; a low game reverses it."""
    deck = DECKS[52]

    def scores(scoring: str, seed: int, diffs: tuple[int, ...]) -> list[int]:
        st = HandState(deck, SCORINGS[scoring], deal(seed, 1, deck))
        return [rollout.points(st.observation(st.turn), d) for d in diffs]

    assert scores("last13", 3, (1, 3, -1, -5, 13)) == [1, 2, -1, -3, 10]  # 7-6, 8-5, 6-7, 4-9, a slam
    assert scores("diff", 3, (1, 3, -5)) == [1, 3, -5]
    assert scores("every", 3, (2, -4, 0)) == [1, -2, 0]  # 14-12, 11-15, a tie
    assert scores("highlow", 1, (1, 3, -1)) == [-1, -2, 1]  # seed 1 is a low game: fewer tricks win


def test_the_stage2_estimate_is_whole_tricks_and_fair_to_both_hands():
    """Within -n..n with n's parity; swapping the hands and the lead negates it (a tie rounds towards the asker)."""
    rng = Rng(5)
    for _ in range(400):
        n = 1 + rng.uniform(13)
        cards = shuffle(list(range(52)), rng)
        a, b = rollout.split(sum(1 << c for c in cards[:n])), rollout.split(sum(1 << c for c in cards[n:2 * n]))
        trump, leads = rng.uniform(4), rng.uniform(2) == 1
        mine, theirs = rollout.estimate(a, b, trump, leads), rollout.estimate(b, a, trump, not leads)
        assert -n <= mine <= n and (mine + n) % 2 == 0
        assert mine + theirs in (0, 2)


def test_the_stage2_estimate_follows_trumps_honours_and_ruffs():
    trump = 0
    all_trumps = [0x1FFF, 0, 0, 0]
    side = [0, 0x1F00, 0x0F00, 0x0F00]  # 13 side cards, the top of each suit
    assert rollout.estimate(all_trumps, side, trump, False) == 13
    low = [0x000F, 0x0007, 0, 0]  # the four lowest trumps, three low side cards; the opponent holds the tops
    high = [0x1E00, 0x1C00, 0, 0]
    assert rollout.estimate(high, low, trump, False) > 0 > rollout.estimate(low, high, trump, True)
    aces = [0x1000] * 4
    flat = [0x0001] * 4  # a low card of each suit
    ruffer = [0x0001, 0, 0x0003, 0x0001]  # void in suit 1 with a trump to ruff its ace
    assert rollout.estimate(ruffer, aces, trump, True) > rollout.estimate(flat, aces, trump, True)
