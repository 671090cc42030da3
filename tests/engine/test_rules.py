"""Rules on hand-built positions: trick resolution, legality, replenishment, scoring."""

import pytest

from generator.engine.cards import DECKS, parse_card as C
from generator.engine.rules import (
    HIGH, LOW, SCORINGS, Deal, Variant, game_winner, hand_points, mode_of, trick_winner,
)
from generator.engine.state import HandState

D52, D28 = DECKS[52], DECKS[28]
S, H, D, CL = range(4)


def test_trick_winner():
    assert trick_winner(C("KH"), C("AH"), S) == 1  # higher of the suit led
    assert trick_winner(C("AH"), C("KH"), S) == 0
    assert trick_winner(C("AH"), C("2S"), S) == 1  # trump on a side suit
    assert trick_winner(C("AH"), C("2D"), S) == 0  # discard loses
    assert trick_winner(C("2S"), C("AS"), S) == 1  # trump over trump
    assert trick_winner(C("3S"), C("AH"), S) == 0


def test_mode_only_changes_under_highlow():
    assert mode_of(SCORINGS["highlow"], C("2S")) == LOW
    assert mode_of(SCORINGS["highlow"], C("2C")) == LOW
    assert mode_of(SCORINGS["highlow"], C("2H")) == HIGH
    assert mode_of(SCORINGS["highlow"], C("AD")) == HIGH
    assert mode_of(SCORINGS["last13"], C("2S")) == HIGH


@pytest.mark.parametrize(
    "scoring, deck, mode, tricks, points",
    [
        ("last13", D52, HIGH, (8, 5), (2, 0)),  # the manual's example
        ("last13", D52, HIGH, (0, 13), (0, 10)),  # slam
        ("last13", D52, HIGH, (12, 1), (6, 0)),
        ("last13", D28, HIGH, (5, 2), (2, 0)),  # the manual's Small Whist example
        ("last13", D28, HIGH, (7, 0), (5, 0)),
        ("every", D52, HIGH, (23, 3), (10, 0)),  # the manual's example
        ("every", D52, HIGH, (13, 13), (0, 0)),  # a tie scores nothing
        ("every", D52, HIGH, (26, 0), (13, 0)),
        ("every", D28, HIGH, (10, 4), (4, 0)),  # the manual's Small Whist example
        ("every", D28, HIGH, (7, 7), (0, 0)),
        ("diff", D52, HIGH, (9, 4), (5, 0)),
        ("diff", D28, HIGH, (3, 4), (0, 1)),
        ("highlow", D52, HIGH, (10, 3), (4, 0)),  # the encyclopedia's example
        ("highlow", D52, LOW, (10, 3), (0, 4)),
        ("highlow", D52, LOW, (0, 13), (7, 0)),
        ("highlow", D28, LOW, (5, 2), (0, 2)),
    ],
)
def test_hand_points(scoring, deck, mode, tricks, points):
    assert hand_points(SCORINGS[scoring], deck, mode, tricks) == points


def test_game_winner():
    assert game_winner(10, (9, 3)) is None
    assert game_winner(10, (10, 3)) == 0
    assert game_winner(10, (10, 12)) == 1
    assert game_winner(10, (11, 11)) is None  # both past the target but level: play on
    assert game_winner(0, (0, 0)) == -1
    assert game_winner(0, (0, 2)) == 1


def test_variant_validation():
    with pytest.raises(ValueError, match="deck"):
        Variant.make(32)
    with pytest.raises(ValueError, match="scoring"):
        Variant.make(52, "nope")
    with pytest.raises(ValueError, match="target"):
        Variant.make(52, "last13", 256)


def small_state(h0: str, h1: str, stock: str, dealer: int = 1) -> HandState:
    cards = lambda t: tuple(C(x) for x in t.split())
    d = Deal(1, dealer, (cards(h0), cards(h1)), cards(stock))
    return HandState(D28, SCORINGS["last13"], d)


FULL = dict(
    h0="AS KS QS JS TS 9S 8S",
    h1="AH KH QH JH TH 9H 8H",
    stock="AD AC KD KC QD QC JD JC TD TC 9D 9C 8D 8C",
)


def test_non_dealer_leads_and_must_follow_suit():
    st = small_state(**FULL)
    assert st.turn == 0 and st.trump == D
    st.apply(C("AS"))
    assert st.turn == 1
    assert st.legal_mask() == st.hands[1]  # no spades: any card
    st2 = small_state(FULL["h0"], "8S KH QH JH TH 9H 8H", FULL["stock"])
    st2.apply(C("AS"))
    assert st2.legal_actions() == [C("8S")]
    with pytest.raises(ValueError):
        st2.apply(C("KH"))


def test_stage_one_replenishes_winner_takes_face_up_loser_draws():
    st = small_state(**FULL)
    st.apply(C("AS"))
    t = st.apply(C("8H"))
    assert t.winner == 0 and t.take == C("AD") and t.draw == C("AC")
    assert st.hands[0] >> C("AD") & 1 and st.hands[1] >> C("AC") & 1
    assert st.observation(1).upcard == C("KD") and st.stock_left == 12
    assert st.leader == 0


def test_stage_two_has_no_replenishment_and_hand_ends_after_14_tricks():
    st = small_state(**FULL)
    while st.stock_left:
        st.apply(st.legal_actions()[0])
        st.apply(st.legal_actions()[0])
    assert len(st.history) == 7
    assert bin(st.hands[0]).count("1") == 7
    while not st.is_over():
        st.apply(st.legal_actions()[0])
        t = st.apply(st.legal_actions()[0])
        assert t.take == -1 and t.draw == -1
    assert len(st.history) == 14
    assert st.hands == [0, 0]
    assert sum(st.won[1]) == 7
