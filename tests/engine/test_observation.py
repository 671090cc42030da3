"""Observations: what a seat may know, kept apart from the full state."""

import pytest

from generator.engine.cards import DECKS
from generator.ai.players import GreedyPlayer, RandomPlayer
from generator.engine.prng import Rng
from generator.engine.rules import SCORINGS, deal
from generator.engine.state import HandState, Observation, Unread


def play_to_stage_two(seed: int, deck=DECKS[52]) -> HandState:
    st = HandState(deck, SCORINGS["last13"], deal(seed, 1, deck))
    g = GreedyPlayer()
    while st.stock_left:
        st.apply(g.choose(st.observation(st.turn), st.legal_mask()))
    return st


class Memory:
    """A perfect-memory observer that only ever sees its own observations and the tricks."""

    def __init__(self, deck) -> None:
        self.deck = deck
        self.seen = 0

    def look(self, obs) -> None:
        self.seen |= obs.hand | obs.played | obs.opp_taken
        if obs.upcard >= 0:
            self.seen |= 1 << obs.upcard

    def opponent_hand(self, obs) -> int:
        # at stage 2 every card is in a hand or played: the opponent holds the rest
        return self.deck.mask & ~obs.hand & ~obs.played


def test_perfect_memory_names_the_opponents_hand_at_stage_two():
    for seed in range(200):
        for deck in (DECKS[52], DECKS[28]):
            st = HandState(deck, SCORINGS["last13"], deal(seed, 1, deck))
            g = GreedyPlayer()
            mem = [Memory(deck), Memory(deck)]
            while st.stock_left:
                for p in (0, 1):
                    mem[p].look(st.observation(p))
                st.apply(g.choose(st.observation(st.turn), st.legal_mask()))
            for p in (0, 1):
                obs = st.observation(p)
                assert obs.stage == 2
                assert mem[p].opponent_hand(obs) == st.hands[1 - p]
                assert obs.opponent_hand() == st.hands[1 - p]


def test_stage_one_observation_hides_the_opponent_and_the_stock():
    st = HandState(DECKS[52], SCORINGS["last13"], deal(3, 1, DECKS[52]))
    obs = st.observation(0)
    assert obs.opponent_hand() is None
    assert obs.hand == st.hands[0]
    # the unseen cards are exactly the opponent's hand plus the stock below the face-up card
    hidden = st.hands[1] | sum(1 << c for c in st.stock[1:])
    assert obs.unseen() == hidden


def test_opponent_taken_cards_are_known_until_played():
    st = HandState(DECKS[52], SCORINGS["last13"], deal(11, 1, DECKS[52]))
    g = GreedyPlayer()
    while st.stock_left:
        st.apply(g.choose(st.observation(st.turn), st.legal_mask()))
        for p in (0, 1):
            obs = st.observation(p)
            taken = st.taken[1 - p] & ~st.played
            assert obs.opp_taken == taken
            assert taken & st.hands[1 - p] == taken  # still in the opponent's hand
            assert obs.drawn & ~st.played & ~st.hands[p] == 0


def test_observation_is_the_same_whatever_the_opponent_holds_unseen():
    """Two deals that differ only in cards seat 0 cannot see give seat 0 the same observation."""
    st = HandState(DECKS[52], SCORINGS["last13"], deal(5, 1, DECKS[52]))
    d = st.deal
    opp = list(d.hands[1])
    stock = list(d.stock)
    opp[0], stock[5] = stock[5], opp[0]  # swap an opponent card with a hidden stock card
    other = type(d)(d.hand, d.dealer, (d.hands[0], tuple(opp)), tuple(stock))
    st2 = HandState(DECKS[52], SCORINGS["last13"], other)
    assert st.observation(0) == st2.observation(0)
    assert st.observation(1) != st2.observation(1)


def observation_by_definition(st: HandState, player: int) -> Observation:
    """The observation rebuilt from the full state and the whole history, as its definition reads."""
    opp = 1 - player
    return Observation(
        player=player,
        deck=st.deck,
        trump=st.trump,
        mode=st.mode,
        hand=st.hands[player],
        upcard=st.stock[st.pos] if st.pos < len(st.stock) else -1,
        stock_left=len(st.stock) - st.pos,
        leader=st.leader,
        lead=st.lead,
        played=st.played,
        opp_taken=st.taken[opp] & ~st.played,
        drawn=st.drawn[player],
        tricks=(tuple(st.won[0]), tuple(st.won[1])),
        trick_number=len(st.history) + 1,
        scoring=st.scoring,
        history=tuple(t._replace(draw=-1) if t.winner == player and t.draw >= 0 else t for t in st.history),
    )


def test_observations_kept_as_the_hand_goes_equal_the_definition_at_every_decision():
    """Both seats, every decision of 120 random hands (both decks, every scoring); an observation
    taken earlier still reads the same when the hand is over, and one first read then (filled from
    the hand replayed to its decision) reads as it would have then."""
    for seed in range(120):
        deck = DECKS[(52, 28)[seed % 2]]
        scoring = list(SCORINGS.values())[seed // 2 % len(SCORINGS)]
        st = HandState(deck, scoring, deal(seed, 1, deck))
        player = RandomPlayer(Rng(seed + 1))
        kept, unread = [], []
        while not st.is_over():
            for p in (0, 1):
                want = observation_by_definition(st, p)
                got = st.observation(p)
                assert got == want, f"seed {seed}, trick {st.trick_number}, seat {p}"
                kept.append((got, want))
                unread.append((st.observation(p), want))
            st.apply(player.choose(st.observation(st.turn), st.legal_mask()))
        assert all(got == want for got, want in kept)
        assert all(type(got) is Unread for got, _ in unread)
        assert all(got == want for got, want in unread)
        assert any(t.draw >= 0 for t in st.history)  # the draws were there to hide


def test_an_observation_of_a_state_without_a_deal_must_be_read_before_it_moves_on():
    """A sampled world (generator.ai.expert.world_state) has no deal to replay: a late first read says so."""
    st = HandState(DECKS[28], SCORINGS["last13"], deal(3, 1, DECKS[28]))
    st.deal = None
    early = st.observation(st.turn)
    st.apply(st.legal_actions()[0])
    with pytest.raises(ValueError, match="read its observations before it moves on"):
        early.hand
