"""One hand of German Whist as a state machine, and what each player observes.

``HandState`` holds the full truth (both hands, the hidden stock). Players get
an :class:`Observation`, built only from what that seat has seen, so an AI can
never peek. Modelled on OpenSpiel: legal actions, apply, and observations kept
apart from the state.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import BITS, SUIT_MASK_OF, Deck, cards_of, mask_of
from .rules import BEATERS, HIGH, Deal, Scoring, mode_of


class Trick(NamedTuple):
    """A completed trick as the trace records it (take/draw are -1 in stage 2)."""

    number: int  # 1-based over the whole hand
    leader: int
    lead: int
    follow: int
    winner: int
    take: int = -1  # the face-up card the winner takes
    draw: int = -1  # the hidden card the loser draws


FIELDS = ("player", "deck", "trump", "mode", "hand", "upcard", "stock_left", "leader", "lead", "played",
          "opp_taken", "drawn", "tricks", "trick_number", "scoring", "history")


class Observation:
    """Everything seat ``player`` may know; nothing it may not.

    ``opp_taken`` is the face-up cards the opponent took and has not played
    yet; ``drawn`` the hidden cards this seat drew itself. A player with
    perfect memory can rebuild all of it from the trace of what it saw.

    The engine hands one out at every decision, and most players (a random
    one, a search that keeps its own state) read little of it, so
    :meth:`HandState.observation` makes an :class:`Unread` one: its seat, its
    state and ``played``, which grows at every play and so stamps the
    decision. The first read of any other field copies every field, from the
    state if it is still at that decision, else from the hand dealt again and
    replayed to it. Either way an observation reads as its decision for good.
    """

    __slots__ = FIELDS + ("_state",)

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
    scoring: Scoring | None  # the variant's scoring: both seats know what counts
    history: tuple[Trick, ...]  # the completed tricks as this seat saw them: the opponent's draws are -1

    def __init__(self, player: int, deck: Deck, trump: int, mode: int, hand: int, upcard: int, stock_left: int,
                 leader: int, lead: int, played: int, opp_taken: int, drawn: int,
                 tricks: tuple[tuple[int, int], tuple[int, int]], trick_number: int, scoring: Scoring | None = None,
                 history: tuple[Trick, ...] = ()) -> None:
        self._state = None
        for name, value in zip(FIELDS, (player, deck, trump, mode, hand, upcard, stock_left, leader, lead, played,
                                        opp_taken, drawn, tricks, trick_number, scoring, history)):
            setattr(self, name, value)

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Observation) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "Observation(" + ", ".join(f"{n}={v!r}" for n, v in zip(FIELDS, self._values())) + ")"

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


class Unread(Observation):
    """An observation no field of which has been read: what :meth:`HandState.observation` makes.

    Each field but ``player`` and ``played`` is a property here; the first one
    read fills the observation (:meth:`HandState.fill`), which becomes a plain
    :class:`Observation` whose fields read as fast as any slot.
    """

    __slots__ = ()


def _first_read(name: str) -> property:
    slot = Observation.__dict__[name]

    def read(self: Unread):
        self._state.fill(self)
        return slot.__get__(self)

    return property(read)


for _name in FIELDS:
    if _name not in ("player", "played"):
        setattr(Unread, _name, _first_read(_name))

new_tuple = tuple.__new__  # NamedTuple(...) without its Python-level __new__: for the tricks made every play
new_object = object.__new__  # Unread(...) without __init__: one at every decision


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
        # each seat's view of ``history`` (the draws it did not see hidden), brought up to date when an
        # observation is read, so a player reading every decision adds each trick once
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
        return hand & SUIT_MASK_OF[lead] or hand

    def legal_actions(self) -> list[int]:
        return list(cards_of(self.legal_mask()))

    def observation(self, player: int) -> Observation:
        """What ``player`` may know now, its fields copied when first read (see :class:`Observation`)."""
        o = new_object(Unread)
        o.player = player
        o.played = self.played
        o._state = self
        return o

    def fill(self, o: Unread) -> None:
        """Copy the fields of ``o``, an observation of this state, as they were at its decision."""
        played = self.played
        if o.played != played:
            self.replayed(o.played).fill(o)
            return
        o.__class__ = Observation
        p = o.player
        o.deck = self.deck
        o.trump = self.trump
        o.mode = self.mode
        o.hand = self.hands[p]
        o.upcard = self.upcard
        o.stock_left = self.stock_left
        o.leader = self.leader
        o.lead = self.lead
        o.opp_taken = self.taken[1 - p] & ~played
        o.drawn = self.drawn[p]
        o.tricks = self.tricks
        o.trick_number = self.trick_number
        o.scoring = self.scoring
        seen, history = self.seen[p], self.history
        if len(seen) < len(history):
            for t in history[len(seen):]:  # the tricks since: a stage-1 trick's draw hidden from its winner
                seen += (new_tuple(Trick, (*t[:6], -1)),) if t.winner == p and t.draw >= 0 else (t,)
            self.seen[p] = seen
        o.history = seen
        o._state = None

    def replayed(self, played: int) -> HandState:
        """This hand dealt again and played to the decision where ``played`` had been played."""
        if self.deal is None:
            raise ValueError("a hand state built without a deal cannot be replayed: read its observations "
                             "before it moves on")
        st = HandState(self.deck, self.scoring, self.deal)
        plays = [c for t in self.history for c in (t.lead, t.follow)] + [self.lead] * (self.lead >= 0)
        for c in plays:
            if st.played == played:
                return st
            st.apply(c)
        raise ValueError("no decision of this hand had those cards played")

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
        if not (hand & SUIT_MASK_OF[lead] or hand) & bit:  # legal_mask() inline: every card played
            raise ValueError(f"illegal play {c} by player {p}")
        hands[p] = hand ^ bit
        self.played |= bit
        winner = p if BEATERS[self.trump][lead] & bit else leader
        number = self.trick_number
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
        else:
            won = self.won[1]
            won[winner] += 1
            self.tricks = (self.tricks[0], (won[0], won[1]))
            trick = new_tuple(Trick, (number, leader, lead, c, winner, -1, -1))
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
