"""Known answers for the PRNG, shuffle and deal: the firmware must print the same."""

from collections import Counter

import pytest

from generator.engine.cards import DECKS, CardError, card_name, mask_of, cards_of, nth_card, parse_card
from generator.engine.prng import Rng, ai_rng, hand_rng, mix32, shuffle
from generator.engine.rules import deal, dealer_of


def test_xorshift_known_answers():
    r = Rng(1)
    assert [r.next() for _ in range(3)] == [270369, 67634689, 2647435461]


def test_zero_state_becomes_one():
    assert Rng(0).state == 1
    assert Rng(1 << 32).state == 1


def test_mix32_known_answers():
    assert mix32(0) == 0
    assert mix32(1) == 0x688990C0
    assert mix32(0xFFFFFFFF) == 0x6768824A


def test_hand_stream_known_answer():
    r = hand_rng(7, 1)
    assert [r.uniform(52) for _ in range(8)] == [42, 1, 7, 10, 20, 14, 45, 43]


def test_uniform_is_unbiased_over_its_range():
    r = Rng(12345)
    counts = Counter(r.uniform(3) for _ in range(30000))
    assert set(counts) == {0, 1, 2}
    assert all(9500 < n < 10500 for n in counts.values())
    with pytest.raises(ValueError):
        r.uniform(0)
    with pytest.raises(ValueError):
        r.uniform(257)


def test_shuffle_is_a_permutation_and_fills_every_position():
    positions = Counter()
    for seed in range(2000):
        out = shuffle(list(range(52)), Rng(seed + 1))
        assert sorted(out) == list(range(52))
        positions[out.index(0)] += 1
    assert len(positions) == 52


def test_decks():
    assert len(DECKS[52].cards) == 52
    small = DECKS[28].cards
    assert len(small) == 28
    assert {card_name(c)[0] for c in small} == set("89TJQKA")
    assert DECKS[28].hand_size == 7 and DECKS[52].hand_size == 13


def test_card_names_round_trip():
    for c in range(52):
        assert parse_card(card_name(c)) == c
    assert parse_card("10h") == parse_card("TH")
    for bad in ("", "1S", "AX", "ASS", "ZZ"):
        with pytest.raises(CardError):
            parse_card(bad)


def test_masks():
    cards = [3, 17, 40, 51]
    m = mask_of(cards)
    assert list(cards_of(m)) == cards
    assert [nth_card(m, i) for i in range(4)] == cards


def test_deal_known_answer_small_whist():
    d = deal(0, 1, DECKS[28])
    assert d.dealer == 0
    assert d.hands == ((10, 23, 25, 32, 6, 50, 9), (49, 35, 20, 36, 47, 46, 19))
    assert d.stock[0] == 38


def test_same_seed_same_deals_and_alternating_dealer():
    for seed in (0, 1, 7, 0xFFFFFFFF):
        for k in (1, 2, 3):
            assert deal(seed, k, DECKS[52]) == deal(seed, k, DECKS[52])
        assert dealer_of(seed, 1) == seed & 1
        assert dealer_of(seed, 2) != dealer_of(seed, 1)
    assert deal(1, 1, DECKS[52]) != deal(2, 1, DECKS[52])
    assert deal(1, 1, DECKS[52]) != deal(1, 2, DECKS[52])


def test_ai_stream_differs_from_deal_stream():
    assert ai_rng(5).state != hand_rng(5, 1).state
