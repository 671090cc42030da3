"""One hand of German Whist as a state machine, and what each player observes.

``HandState`` holds the full truth (both hands, the hidden stock). Players get
an :class:`Observation`, built only from what that seat has seen, so an AI can
never peek. Modelled on OpenSpiel: legal actions, apply, and observations kept
apart from the state.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import BITS, RANKS_PER_SUIT, SUIT_MASKS, Deck, cards_of, mask_of
from .rules import HIGH, Deal, Scoring, mode_of, trick_winner


class Trick(NamedTuple):
    """A completed trick as the trace records it (take/draw are -1 in stage 2)."""

    number: int  # 1-based over the whole hand
    leader: int
    lead: int
    follow: int
    winner: int
    take: int = -1  # the face-up card the winner takes
    draw: int = -1  # the hidden card the loser draws


class Observation(NamedTuple):
    """Everything seat ``player`` may know; nothing it may not.

    ``opp_taken`` is the face-up cards the opponent took and has not played
    yet; ``drawn`` the hidden cards this seat drew itself. A player with
    perfect memory can rebuild all of it from the trace of what it saw.
    A named tuple: the engine makes one at every decision, and a tuple is
    the cheapest object Python builds.
    """

    player: int
    deck: Deck
    trump: int
    mode: int
    hand: int  # bitmask
    upcard: int  # face-up stock card, -1 in stage 2
    stock_left: int  # cards in the stock, the face-up one included
    leader: int
    lead: int  # the card led to the current trick, -1 if this seat leads
    played: int  # bitmask of every card played to a completed or current trick
    opp_taken: int
    drawn: int
    tricks: tuple[tuple[int, int], tuple[int, int]]  # [stage][player]
    trick_number: int  # 1-based number of the trick being played
    scoring: Scoring | None = None  # the variant's scoring: both seats know what counts
    history: tuple[Trick, ...] = ()  # the completed tricks as this seat saw them: the opponent's draws are -1

    @property
    def stage(self) -> int:
        return 1 if self.stock_left else 2

    def unseen(self) -> int:
        """Cards this seat has not seen: the opponent's unknown cards plus the hidden stock."""
        return self.deck.mask & ~self.hand & ~self.played & ~self.opp_taken & ~self._upmask()

    def _upmask(self) -> int:
        return 0 if self.upcard < 0 else 1 << self.upcard

    def opponent_hand(self) -> int | None:
        """The opponent's exact hand, known by memory once the stock is empty."""
        if self.stock_left:
            return None
        return self.deck.mask & ~self.hand & ~self.played


new_tuple = tuple.__new__  # NamedTuple(...) without its Python-level __new__: for the objects made every decision


class HandState:
    """The full state of one hand, from the deal to the last trick."""

    __slots__ = (
        "deck", "scoring", "deal", "trump", "mode", "hands", "stock", "pos", "upcard",
        "stock_left", "trick_number", "leader", "lead", "played", "taken", "drawn", "won", "tricks", "history", "seen",
    )

    def __init__(self, deck: Deck, scoring: Scoring, deal: Deal) -> None:
        self.deck = deck
        self.scoring = scoring
        self.deal = deal
        self.trump = deal.trump
        self.mode = mode_of(scoring, deal.stock[0])
        self.hands = [mask_of(deal.hands[0]), mask_of(deal.hands[1])]
        self.stock = deal.stock
        self.pos = 0  # index of the face-up card in ``stock``
        # ``stock[pos]`` (-1 once the stock is gone), ``len(stock) - pos`` and ``len(history) + 1``, kept by
        # apply at a trick's end for the observations between
        self.upcard = self.stock[0]
        self.stock_left = len(self.stock)
        self.trick_number = 1
        self.leader = 1 - deal.dealer  # the non-dealer leads
        self.lead = -1
        self.played = 0
        self.taken = [0, 0]  # face-up cards each player took
        self.drawn = [0, 0]
        self.won = [[0, 0], [0, 0]]  # [stage-1][player]
        self.tricks = ((0, 0), (0, 0))  # ``won`` as tuples, made once a trick for the observations between
        self.history: list[Trick] = []
        # each seat's view of ``history`` (the opponent's draws hidden), one new tuple per trick,
        # so an observation takes it as it is instead of rebuilding it at every decision
        self.seen: list[tuple[Trick, ...]] = [(), ()]

    # -- queries ------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.leader if self.lead < 0 else 1 - self.leader

    def is_over(self) -> bool:
        return len(self.history) == 2 * self.deck.hand_size

    def legal_mask(self) -> int:
        """Cards the player to move may play: follow suit if able."""
        lead = self.lead
        if lead < 0:
            return self.hands[self.leader]
        hand = self.hands[1 - self.leader]
        return hand & SUIT_MASKS[lead // RANKS_PER_SUIT] or hand

    def legal_actions(self) -> list[int]:
        return list(cards_of(self.legal_mask()))

    def observation(self, player: int) -> Observation:
        """What ``player`` may know now; constant work, whatever the trick."""
        played = self.played
        return new_tuple(Observation, (  # Observation(...) without a Python-level call, in the field order
            player,
            self.deck,
            self.trump,
            self.mode,
            self.hands[player],
            self.upcard,
            self.stock_left,
            self.leader,
            self.lead,
            played,
            self.taken[1 - player] & ~played,  # opp_taken
            self.drawn[player],
            self.tricks,
            self.trick_number,
            self.scoring,
            self.seen[player],  # history
        ))

    # -- moves --------------------------------------------------------------
    def apply(self, c: int) -> Trick | None:
        """Play card ``c`` for the player to move; returns the trick when it completes."""
        bit = BITS[c]
        lead, leader, hands = self.lead, self.leader, self.hands
        if lead < 0:
            if not hands[leader] & bit:
                raise ValueError(f"illegal play {c} by player {leader}")
            hands[leader] ^= bit
            self.played |= bit
            self.lead = c
            return None
        p = 1 - leader
        hand = hands[p]
        if not (hand & SUIT_MASKS[lead // RANKS_PER_SUIT] or hand) & bit:  # legal_mask() inline: every card played
            raise ValueError(f"illegal play {c} by player {p}")
        hands[p] = hand ^ bit
        self.played |= bit
        winner = leader if trick_winner(lead, c, self.trump) == 0 else p
        seen, number = self.seen, self.trick_number
        self.trick_number = number + 1
        take = self.upcard
        if take >= 0:  # stage 1: the winner takes the face-up card, the loser draws the next
            loser = 1 - winner
            stock, pos = self.stock, self.pos + 2
            draw = stock[pos - 1]
            self.pos = pos
            self.upcard = stock[pos] if pos < len(stock) else -1
            self.stock_left -= 2
            hands[winner] |= BITS[take]
            hands[loser] |= BITS[draw]
            self.taken[winner] |= BITS[take]
            self.drawn[loser] |= BITS[draw]
            won = self.won[0]
            won[winner] += 1
            self.tricks = ((won[0], won[1]), self.tricks[1])
            trick = new_tuple(Trick, (number, leader, lead, c, winner, take, draw))
            seen[winner] += (new_tuple(Trick, (number, leader, lead, c, winner, take, -1)),)  # the loser's draw hidden
            seen[loser] += (trick,)
        else:
            won = self.won[1]
            won[winner] += 1
            self.tricks = (self.tricks[0], (won[0], won[1]))
            trick = new_tuple(Trick, (number, leader, lead, c, winner, -1, -1))
            seen[0] += (trick,)
            seen[1] += (trick,)
        self.history.append(trick)
        self.leader = winner
        self.lead = -1
        return trick

    def counted_tricks(self) -> tuple[int, int]:
        """Tricks that score under this hand's variant."""
        a, b = self.won[1]
        if self.scoring.counts_stage1:
            a += self.won[0][0]
            b += self.won[0][1]
        return (a, b)


__all__ = ["HandState", "Observation", "Trick", "HIGH"]
