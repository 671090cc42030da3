"""``ppot``: the original Arduboy Whist's opponent as its code really plays (PC only, a yardstick).

Press-Play-On-Tape's GermanWhist (BSD-3) picks every card by a few fixed
rules, written here from its documented behaviour (../shared/ppot/README.md)
and checked card for card against its own source compiled on the PC
(tests/ai/test_ppot.py). What makes it differ from the rules of thumb its
comments describe (``original``) is kept on purpose, since that is how the
game plays:

- Its memory of played cards has 13 slots but receives all 26 cards of
  stage 1, sorted after each one, so the upper half runs over into the
  array that should hold its cards' ranks. Stage 1 never ranks its cards,
  so its lead "by rank" compares those card numbers (or the 255 of an empty
  slot) instead; and stage 2's ranking reads the overrun memory while it
  overwrites it.
- The face-up card's desirability: its value 2..14, +6 if trumps, +1 per
  higher card of its suit in that memory. Following in stage 1 with 13 or
  more it plays the cheapest winner, else the lowest card of the suit; void,
  the lowest trump when desirability is over 7 and trumps were not led,
  else the lowest card of any suit.
- Stage 2 leads the highest ranked card (an ace 28; a card whose higher
  cards are all in the memory 14; a suit the opponent showed void in 0
  unless it is void in trumps too), follows with the cheapest winner, else
  the lowest card of the suit, void the highest trump, else the lowest card.

Cards are kept in the original's numbering (suits hearts, diamonds, spades,
clubs; value ``n % 13 + 2``), whose order breaks every tie. The player is
rebuilt from the observation's history at each decision, so it needs no
state of its own.
"""

from __future__ import annotations

from ..engine.cards import cards_of, rank_of, suit_of
from ..engine.state import Observation

NO_CARD = 255  # an empty slot, and "no card" in the original's interface
SLOTS = 13  # the memory's size, and the rank array's that follows it
TO_PPOT_SUIT = (2, 0, 1, 3)  # our suits S H D C -> the original's numbers (hearts 0, diamonds 1, spades 2, clubs 3)
FROM_PPOT_SUIT = tuple(TO_PPOT_SUIT.index(s) for s in range(4))


def to_ppot(c: int) -> int:
    """Our card number -> the original's."""
    return TO_PPOT_SUIT[suit_of(c)] * 13 + rank_of(c)


def from_ppot(n: int) -> int:
    """The original's card number -> ours (a real card only)."""
    return FROM_PPOT_SUIT[n // 13] * 13 + n % 13


def value(n: int) -> int:
    """The original's card value, 2..14, of any byte (an empty slot reads 10)."""
    return n % 13 + 2


def suit(n: int) -> int:
    """The original's suit of any byte (an empty slot reads 19)."""
    return n // 13


class Memory:
    """The original's ``prev[13]`` and the ``rank[13]`` laid after it: one 26-byte block.

    ``prev`` receives every stage-1 card (26 in the full pack), so cards 14
    and up sit in ``rank``; ``rank(x)`` is what the rank helpers read for the
    ``x``-th card in hand.
    """

    def __init__(self, played: list[int]) -> None:
        self.count = len(played)  # the original's prevIdx
        self.bytes = sorted(played) + [NO_CARD] * (2 * SLOTS - len(played))  # sorted as its bubble sort leaves them

    def rank(self, x: int) -> int:
        return self.bytes[SLOTS + x]

    def higher_seen(self, n: int) -> int:
        """Memory entries of the same suit and a higher value than card ``n``."""
        return sum(1 for m in self.bytes[: self.count] if value(m) > value(n) and suit(m) == suit(n))

    def rank_cards(self, hand: list[int], trumps: int, voids: set[int]) -> None:
        """Stage 2's ranking, written over ``rank`` card by card while it reads the whole memory."""
        for x, n in enumerate(hand):
            v = value(n)
            if v == 14:
                r = 28
            else:
                seen = self.bytes[: self.count]
                gone = all(any(value(m) == y and suit(m) == suit(n) for m in seen) for y in range(v + 1, 15))
                r = 14 if gone else v
            if trumps not in voids and suit(n) in voids:
                r = 0
            self.bytes[SLOTS + x] = r


def lowest_in_range(hand: list[int], mem: Memory, low: int, high: int) -> int:
    """The card with the lowest rank in ``low..high``; ties: the last in hand order."""
    best, card = 255, NO_CARD
    for x, n in enumerate(hand):
        r = mem.rank(x)
        if low <= r <= high and r <= best:
            best, card = r, n
    return card


def highest_in_range(hand: list[int], mem: Memory, low: int, high: int) -> int:
    """The card with the highest rank in ``low..high``; ties: the last in hand order."""
    best, card = 0, NO_CARD
    for x, n in enumerate(hand):
        r = mem.rank(x)
        if low <= r <= high and r >= best:
            best, card = r, n
    return card


def lowest_value(cards: list[int]) -> int:
    """The lowest value; ties: the first in hand order (hearts first)."""
    return min(cards, key=value)


def follow_in_suit(hand: list[int], led: int) -> tuple[int, int]:
    """(cheapest winner, lowest loser) of the led suit, NO_CARD where there is none."""
    suited = [n for n in hand if suit(n) == suit(led)]
    winners = [n for n in suited if value(n) > value(led)]
    losers = [n for n in suited if value(n) < value(led)]
    return (lowest_value(winners) if winners else NO_CARD, lowest_value(losers) if losers else NO_CARD)


def stage1(hand: list[int], mem: Memory, trumps: int, up: int, led: int) -> int:
    """The original's ``playCard_PhaseOne``."""
    desirability = value(up) + (6 if suit(up) == trumps else 0) + mem.higher_seen(up)
    if led == NO_CARD:
        if desirability <= 7:
            return lowest_in_range(hand, mem, 0, 255)
        if desirability <= 13:
            tries = (highest_in_range(hand, mem, 4, 9), highest_in_range(hand, mem, 0, 4),
                     lowest_in_range(hand, mem, 9, 255))
            return next((card for card in tries if card != NO_CARD), NO_CARD)
        return highest_in_range(hand, mem, 0, 255)
    winner, loser = follow_in_suit(hand, led)
    for card in ((winner, loser) if desirability >= 13 else (loser, winner)):
        if card != NO_CARD:
            return card
    trump_cards = [n for n in hand if suit(n) == trumps]
    if trumps != suit(led) and desirability > 7 and trump_cards:
        return lowest_value(trump_cards)
    return lowest_value(hand)


def stage2(hand: list[int], mem: Memory, trumps: int, led: int, voids: set[int]) -> int:
    """The original's ``playCard_PhaseTwo``."""
    if led == NO_CARD:
        mem.rank_cards(hand, trumps, voids)
        best, card = 0, NO_CARD
        for x, n in enumerate(hand):
            if mem.rank(x) >= best:
                best, card = mem.rank(x), n
        return card
    for card in follow_in_suit(hand, led):
        if card != NO_CARD:
            return card
    trump_cards = [n for n in hand if suit(n) == trumps]
    if trumps != suit(led) and trump_cards:
        return max(trump_cards, key=value)
    return lowest_value(hand)


def sorted_hand(mask: int) -> list[int]:
    """A hand as the original keeps it: sorted by its card numbers."""
    return sorted(to_ppot(c) for c in cards_of(mask))


def stage2_memory(obs: Observation, trumps: int) -> tuple[Memory, set[int]]:
    """The memory and the opponent's known voids as they stand now, replaying this seat's earlier stage-2 leads.

    Each lead ranked the hand held then (today's hand and the cards this seat
    played since) over the memory; a suit is marked void when the opponent
    did not follow this seat's lead.
    """
    me, tricks, n = obs.player, list(obs.history), obs.deck.tricks_per_stage
    mem = Memory([to_ppot(c) for t in tricks[:n] for c in (t.lead, t.follow)])
    voids: set[int] = set()
    later = tricks[n:]
    for i, t in enumerate(later):
        if t.leader != me:
            continue
        held = obs.hand | sum(1 << u.lead if u.leader == me else 1 << u.follow for u in later[i:])
        mem.rank_cards(sorted_hand(held), trumps, voids)
        if suit_of(t.follow) != suit_of(t.lead):
            voids.add(TO_PPOT_SUIT[suit_of(t.lead)])
    return mem, voids


class PpotPlayer:
    name = "ppot"

    def choose(self, obs: Observation, legal: int) -> int:
        trumps = TO_PPOT_SUIT[obs.trump]
        hand = sorted_hand(obs.hand)
        led = NO_CARD if obs.lead < 0 else to_ppot(obs.lead)
        if obs.stage == 1:
            mem = Memory([to_ppot(c) for t in obs.history for c in (t.lead, t.follow)])
            card = stage1(hand, mem, trumps, to_ppot(obs.upcard), led)
        else:
            mem, voids = stage2_memory(obs, trumps)
            card = stage2(hand, mem, trumps, led, voids)
        return from_ppot(card)
