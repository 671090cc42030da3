"""The rules as data: scoring variants, targets, trick resolution, the deal.

Each scoring variant is a row of numbers and flags read by one generic
formula (:func:`hand_points`). The firmware is generated from the same rows,
so a new variant is one more row here, not new C++.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bounded import quote
from .cards import DECKS, RANKS_PER_SUIT, RED_SUITS, Deck, suit_of
from .prng import hand_rng, shuffle

HIGH, LOW = 0, 1
MODE_NAMES = ("high", "low")
TARGETS = (10, 25, 50, 0)  # 0 = a single hand
FIRST_TARGET = 25  # the device's first setting: a few hands to learn the rules in (10 is one slam)
MAX_TARGET = 255


@dataclass(frozen=True)
class Scoring:
    """One scoring variant.

    over: tricks a winner must exceed before scoring, per deck size.
    slam: points for taking every counted trick (None: no slam bonus).
    """

    name: str
    title: str
    counts_stage1: bool  # True: all tricks count; False: only stage 2
    difference: bool  # True: the winner scores the difference in tricks
    colour_mode: bool  # True: a black trump card makes stage 2 a low game
    over: dict[int, int]
    slam: dict[int, int] | None


SCORINGS: dict[str, Scoring] = {
    s.name: s
    for s in (
        Scoring("last13", "Last 13", False, False, False, {52: 6, 28: 3}, {52: 10, 28: 5}),
        Scoring("every", "Every trick", True, False, False, {52: 13, 28: 6}, None),
        Scoring("diff", "Difference", False, True, False, {52: 0, 28: 0}, None),
        Scoring("highlow", "High/low", False, False, True, {52: 6, 28: 3}, None),
    )
}


@dataclass(frozen=True)
class Variant:
    """What a game is played with: pack, scoring and target (0 = one hand)."""

    deck: Deck
    scoring: Scoring
    target: int

    @classmethod
    def make(cls, deck: int = 52, scoring: str = "last13", target: int = 10) -> "Variant":
        if deck not in DECKS:
            raise ValueError(f"deck must be 52 or 28, not {deck}")
        if scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, not {quote(scoring)}")
        if not 0 <= target <= MAX_TARGET:
            raise ValueError(f"target must be 0 (single hand) to {MAX_TARGET}, not {target}")
        return cls(DECKS[deck], SCORINGS[scoring], target)


def trick_winner(lead: int, follow: int, trump: int) -> int:
    """0 if the leader's card wins, 1 if the follower's does."""
    ls, fs = lead // RANKS_PER_SUIT, follow // RANKS_PER_SUIT  # suit_of() inline: once a trick
    if fs == ls:
        return 1 if follow > lead else 0
    return 1 if fs == trump else 0


# trick_winner as masks, [trump][lead]: the follows that win the trick; looked up by the engine at every trick
BEATERS = tuple(tuple(sum(1 << f for f in range(4 * RANKS_PER_SUIT) if trick_winner(lead, f, trump))
                      for lead in range(4 * RANKS_PER_SUIT)) for trump in range(4))


def dealer_of(seed: int, hand: int) -> int:
    """Hand 1 is dealt by player ``seed & 1``; the deal alternates after that."""
    return (seed + hand + 1) & 1


def mode_of(scoring: Scoring, trump_card: int) -> int:
    if scoring.colour_mode and suit_of(trump_card) not in RED_SUITS:
        return LOW
    return HIGH


@dataclass(frozen=True)
class Deal:
    """The cards of one hand: each player's 13 (or 7) in deal order and the stock, top first."""

    hand: int
    dealer: int
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    stock: tuple[int, ...]

    @property
    def trump(self) -> int:
        return suit_of(self.stock[0])


def deal(seed: int, hand: int, deck: Deck) -> Deal:
    """Shuffle the pack for hand ``hand`` and deal one at a time, non-dealer first."""
    cards = shuffle(deck.cards, hand_rng(seed, hand))
    dealer = dealer_of(seed, hand)
    n = deck.hand_size
    first = tuple(cards[0 : 2 * n : 2])  # the non-dealer's
    second = tuple(cards[1 : 2 * n : 2])
    hands = (second, first) if dealer == 0 else (first, second)
    return Deal(hand, dealer, hands, tuple(cards[2 * n :]))


def hand_points(scoring: Scoring, deck: Deck, mode: int, tricks: tuple[int, int]) -> tuple[int, int]:
    """Points each player scores for a hand from the tricks that count.

    The winner is the player with more counted tricks (fewer in a low game).
    A tie scores nothing for either player.
    """
    a, b = tricks
    if a == b:
        return (0, 0)
    more = 0 if a > b else 1
    winner = more if mode == HIGH else 1 - more
    top, total = max(a, b), a + b
    if scoring.difference:
        pts = top - min(a, b)
    elif scoring.slam is not None and top == total:
        pts = scoring.slam[deck.size]
    else:
        pts = top - scoring.over[deck.size]
    pts = max(pts, 0)
    return (pts, 0) if winner == 0 else (0, pts)


def game_winner(target: int, totals: tuple[int, int]) -> int | None:
    """The game's winner after a hand, None if it goes on, -1 for a drawn single hand.

    A game to a target ends when a player reaches it and the totals differ (the
    higher total wins); a single-hand game (target 0) ends after one hand.
    """
    a, b = totals
    if target == 0:
        return -1 if a == b else (0 if a > b else 1)
    if max(a, b) >= target and a != b:
        return 0 if a > b else 1
    return None


__all__ = [
    "HIGH", "LOW", "MODE_NAMES", "TARGETS", "FIRST_TARGET", "Scoring", "SCORINGS", "Variant", "Deal",
    "deal", "dealer_of", "mode_of", "trick_winner", "BEATERS", "hand_points", "game_winner", "RANKS_PER_SUIT",
]
