"""Property tests over thousands of seeded games: cards, legality, tricks and scores consistent."""

from hypothesis import given, settings, strategies as st

from generator.engine.cards import DECKS
from generator.ai.players import seats
from generator.engine.game import play_game
from generator.ai.players import RandomPlayer
from generator.engine.prng import Rng
from generator.engine.rules import SCORINGS, Variant, deal, hand_points
from generator.engine.state import HandState
from generator.engine.trace import replay

seeds = st.integers(min_value=0, max_value=0xFFFFFFFF)
decks = st.sampled_from([52, 28])
scorings = st.sampled_from(list(SCORINGS))


@settings(max_examples=400, deadline=None)
@given(seed=seeds, deck=decks, scoring=scorings)
def test_every_card_is_accounted_for_and_every_play_legal(seed, deck, scoring):
    d = DECKS[deck]
    dl = deal(seed, 1, d)
    assert sorted(dl.hands[0] + dl.hands[1] + dl.stock) == d.cards
    state = HandState(d, SCORINGS[scoring], dl)
    rng = Rng(seed ^ 0xABCDEF)
    player = RandomPlayer(rng)
    while not state.is_over():
        # conservation: hands, stock below the face-up card and played cards partition the pack
        stock = sum(1 << c for c in state.stock[state.pos:])
        parts = [state.hands[0], state.hands[1], stock, state.played]
        assert sum(bin(x).count("1") for x in parts) == deck
        assert parts[0] | parts[1] | parts[2] | parts[3] == d.mask
        legal = state.legal_mask()
        assert legal and legal & ~state.hands[state.turn] == 0
        state.apply(player.choose(state.observation(state.turn), legal))
        if state.lead < 0:
            assert bin(state.hands[0]).count("1") == bin(state.hands[1]).count("1")
    assert sum(state.won[0]) == d.hand_size == sum(state.won[1])
    tricks = state.counted_tricks()
    pts = hand_points(SCORINGS[scoring], d, state.mode, tricks)
    assert min(pts) == 0
    assert sum(tricks) == (2 if scoring == "every" else 1) * d.hand_size


@settings(max_examples=150, deadline=None)
@given(seed=seeds, deck=decks, scoring=scorings, target=st.sampled_from([0, 10, 25]),
       p0=st.sampled_from(["random", "greedy"]), p1=st.sampled_from(["random", "greedy"]))
def test_whole_games_replay_and_end_at_the_target(seed, deck, scoring, target, p0, p1):
    result = play_game(seed, Variant.make(deck, scoring, target), seats(seed, (p0, p1)))
    checked = replay(result.lines)
    assert (checked.winner, checked.totals) == (result.winner, result.totals)
    if target:
        assert max(result.totals) >= target and result.totals[result.winner] == max(result.totals)
    else:
        assert result.hands == 1
