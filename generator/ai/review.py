"""Where a hand was lost: the coach behind ``whist review``.

A played hand is walked again decision by decision for one seat:

- Stage 2 is judged exactly (:mod:`.stage2`). Every legal card is valued
  against perfect play from that position on (in stage 2 a player who
  remembers the cards knows the opponent's hand); a card that takes fewer
  tricks than the best one lost the difference, the points it cost follow
  from the hand's scoring, and two lines of perfect play show why. The stage
  as a whole is set against perfect play from its start.
- Stage 1 is estimated over sampled deals by a plan fixed in advance
  (:mod:`.estimate`). A decision is picked out when the card played cost at
  least :data:`.estimate.WORTH_LISTING` points on average and the 95% range
  of that is above nothing; a picked card is then measured again in fresh
  deals for the figures shown (more of them while those straddle the bar),
  and listed if they say so too. The stage gets one estimate of what its
  cards lost.
- The duplicate comparison plays the same deal again with the top device
  level (Master) in the seat, against the same opponent: the game's AI
  stream is replayed from the first hand, so the opponent draws what it drew
  and plays as its level does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine.bounded import cut
from ..engine.cards import cards_of
from ..engine.prng import Rng, ai_rng, mix32
from ..engine.rules import Variant, deal, hand_points
from ..engine.state import HandState
from ..engine.trace import PlayedHand, Reader, TraceError, hand_header, parse_header
from . import expert
from .estimate import AGAIN, Z95, candidate_of, counted_so_far, measure, net_points, stage2_tricks
from .players import HUMAN, PLAYERS, make_player
from .solver import split
from .stage2 import Exact, Played, perfect_line, where_lost

MASTER = "hard"  # the top device level, the duplicate comparison's player
LINE_TRICKS = 3  # tricks of the perfect continuation shown for a stage-2 loss


class ReviewError(ValueError):
    """A game that cannot be reviewed as asked (no seat to review, hands missing)."""


@dataclass
class Decision:
    """One card the seat played, and what every card it could have played was worth there."""

    trick: int  # 1-based over the hand
    stage: int
    card: int  # the card played
    lead: int  # the card the opponent led to this trick, -1 when the seat led
    hand: int  # the seat's cards before it played (a card mask)
    other: int  # stage 2: the opponent's cards (known to a player who remembers); stage 1: 0
    upcard: int  # stage 1: the face-up card; stage 2: -1
    tricks: tuple[int, int]  # tricks taken this stage so far (seat, opponent)
    values: dict[int, float]  # each legal card: stage 2 the seat's tricks from here, stage 1 points on average
    deals: dict[int, int] = field(default_factory=dict)  # stage 1: sampled deals each card was valued in
    best: list[int] = field(default_factory=list)  # stage 2: the cards of the best value; stage 1: the better card's run
    lost_tricks: int = 0  # stage 2
    lost_points: float = 0.0  # the seat's points less the opponent's, best card against the card played
    interval: tuple[float, float] | None = None  # stage 1: where a re-measurement of the cost falls (estimate.AGAIN)
    sure: bool = False  # stage 1: the first measuring deals' 95% range of the true cost lies above nothing
    picked: bool = False  # stage 1: and their cost is a quarter point or more (the figures are then measured again)
    listed: bool = False  # stage 1: picked, and the figure measured again is a quarter point or more
    change: float = 0.0  # stage 1: the rival's mean points less the card played's, unclipped
    variance: float = 0.0  # stage 1: of ``change``
    again: float = 0.0  # stage 1: and of a re-measurement of it
    other_choice: bool = False  # stage 1: the review's own card was another
    rival: int = -1  # stage 1: the card the one played was measured against
    measured: int = 0  # stage 1: in how many fresh deals
    line: list[Played] = field(default_factory=list)  # stage-2 loss: perfect play on from the best card, a few tricks
    lost_at: Played | None = None  # stage-2 loss: the trick that goes, perfect play on from the card played
    kept_at: Played | None = None  # stage-2 loss: the same trick in the line from the best card

    @property
    def mistake(self) -> bool:
        """A real loss: a trick in stage 2; in stage 1 a quarter of a point or more, surely more than nothing,
        by the first measuring deals, and a quarter point or more by the fresh ones that :attr:`lost_points`
        and the range come from."""
        if self.stage == 2:
            return self.lost_tricks > 0
        return self.listed


@dataclass
class Duplicate:
    """The same deal with Master in the seat against the same opponent."""

    tricks: tuple[int, int]  # counted tricks (seat, opponent)
    points: tuple[int, int]


@dataclass
class HandReview:
    number: int
    seat: int
    names: tuple[str, str]  # the seat's player and the opponent's, as the trace names them
    variant: Variant
    trump: int
    mode: int
    tricks: tuple[int, int]  # counted tricks (seat, opponent)
    points: tuple[int, int]
    stage1: list[Decision]
    stage2: list[Decision]
    duplicate: Duplicate | None
    no_duplicate: str = ""  # why there is none
    stage2_took: tuple[int, int] = (0, 0)  # stage-2 tricks taken (seat, opponent)
    stage2_perfect: tuple[int, int] = (0, 0)  # what perfect play on both sides takes from stage 2's start
    stage2_points: tuple[int, int] = (0, 0)  # the hand's points (seat, opponent) had stage 2 gone so

    @property
    def mistakes(self) -> list[Decision]:
        return [d for d in self.stage1 + self.stage2 if d.mistake]

    def lost(self, stage: int) -> float:
        """Points lost in a stage: stage 1's one estimate (:meth:`stage1_lost`), stage 2's listed losses."""
        if stage == 1:
            return self.stage1_lost()[0]
        return sum(d.lost_points for d in self.stage2 if d.mistake)

    def stage1_lost(self) -> tuple[float, float, float]:
        """The points stage 1's cards lost against the review's own cards, and its 95% range: where the
        same sum would fall were every decision in it measured again (:data:`.estimate.AGAIN` fresh deals).

        Each decision where the review would have played another card (or
        lists the one played) adds what it measured, in fresh deals from the
        position the hand really reached, the rest of the stage played by the
        same rule: a card's cost is its own, not that of the cards before it,
        so the figures add up without counting a loss twice; unclipped, so the
        noise of the many small ones cancels instead of piling up.
        """
        ds = [d for d in self.stage1 if d.other_choice or d.mistake]
        total = sum(d.change for d in ds)
        half = Z95 * math.sqrt(sum(d.variance + d.again for d in ds))
        return total, total - half, total + half

    @property
    def lost_tricks(self) -> int:
        return sum(d.lost_tricks for d in self.stage2)

    def costliest(self, k: int = 3) -> list[Decision]:
        return sorted(self.mistakes, key=lambda d: (-d.lost_points, d.trick))[:k]


# -- stage 2: exact ----------------------------------------------------------------------------------

def stage2_decision(state: HandState, seat: int, card: int, exact: Exact, variant: Variant) -> Decision:
    h = [split(state.hands[0]), split(state.hands[1])]
    legal = state.legal_mask()
    left = state.hands[seat].bit_count()  # tricks still to play, this one included
    counted = exact.card_values(h, state.leader, state.lead, legal)
    own = {c: v if exact.counted == seat else left - v for c, v in counted.items()}
    so_far = counted_so_far(state, seat)
    pts = {c: net_points(variant, state.mode, seat, (so_far[0] + t, so_far[1] + left - t)) for c, t in own.items()}
    top = max(counted.values())
    d = Decision(
        trick=state.trick_number, stage=2, card=card, lead=state.lead, hand=state.hands[seat],
        other=state.hands[1 - seat], upcard=-1, tricks=(state.won[1][seat], state.won[1][1 - seat]),
        values={c: float(t) for c, t in own.items()}, best=[c for c, v in counted.items() if v == top],
        lost_tricks=top - counted[card], lost_points=float(max(pts.values()) - pts[card]))
    if d.lost_tricks:
        def line(first: int) -> list[Played]:
            return perfect_line(h, state.trump, state.mode, state.trick_number, state.leader, state.lead, first)

        best, played = line(min(d.best)), line(card)
        i = where_lost(best, played, seat, state.mode)
        d.line, d.lost_at, d.kept_at = best[:LINE_TRICKS], played[i], best[i]
    return d


# -- stage 1: estimated --------------------------------------------------------------------------------

def stage1_decision(state: HandState, seat: int, card: int, rng: Rng, variant: Variant) -> Decision:
    """The card played against the best of its rivals, by the fixed plan of :mod:`.estimate`."""
    obs = state.observation(seat)
    legal = state.legal_mask()
    cands = expert.candidates(obs, legal)
    d = Decision(trick=state.trick_number, stage=1, card=card, lead=state.lead, hand=state.hands[seat], other=0,
                 upcard=obs.upcard, tricks=(state.won[0][seat], state.won[0][1 - seat]), values={})
    if len(cands) == 1:  # every legal card is the same card
        return d
    played = candidate_of(cands, card)
    m = measure(state, seat, played, cands, rng, variant)
    d.change, d.variance, d.again, d.sure = m.cost, m.variance, m.deal_variance / AGAIN, m.sure
    d.picked, d.listed = m.picked, m.listed
    d.lost_points, d.interval = max(m.cost, 0.0), (m.low, m.high)
    d.other_choice, d.rival, d.measured = m.choice != played, m.rival, m.measured
    best = m.rival if d.mistake else played
    d.best = [c for c in cards_of(legal) if candidate_of(cands, c) == best]
    for c in cards_of(legal):
        d.values[c] = m.means[candidate_of(cands, c)]
        d.deals[c] = m.deals[candidate_of(cands, c)]
    return d


# -- a game, hand by hand ------------------------------------------------------------------------------

def default_seat(names: tuple[str, str]) -> int:
    """The seat played on the buttons (the trace names it ``human``)."""
    if HUMAN in names:
        return names.index(HUMAN)
    raise ReviewError(f"no seat of this game was played by a person (p0={cut(names[0])} p1={cut(names[1])}); "
                      "choose one to review with --seat 0 or --seat 1")


class Reviewer:
    """Reviews one seat of a game, hand after hand in order, keeping the game's AI stream in step.

    Every computer card is played again by its level from the game's stream
    (the stream both seats draw from), which is how the stream is known at
    the start of each hand for the duplicate comparison, and a check that
    the trace's computer is the level it names.
    """

    def __init__(self, seed: int, variant: Variant, names: tuple[str, str], seat: int | None = None,
                 duplicate: bool = True) -> None:
        self.seed, self.variant, self.names = seed, variant, names
        self.seat = default_seat(names) if seat is None else seat
        self.rng = ai_rng(seed)
        self.players = [make_player(n, self.rng) if n in PLAYERS else None for n in names]
        self.in_step = True  # every computer card so far is the one its level plays from the game's stream
        self.next = 1  # the hand the stream is at the start of
        self.want_duplicate = duplicate

    def follow(self, played: PlayedHand) -> int:
        """Replay a hand's computer cards from the stream; returns the stream's state at the hand's start."""
        return self._walk(played, None)

    def review(self, played: PlayedHand) -> HandReview:
        seat, variant = self.seat, self.variant
        stage1: list[Decision] = []
        stage2: list[Decision] = []
        final = played.state
        exact = Exact(seat, final.trump, final.mode)
        rng = Rng(mix32(self.seed ^ mix32(played.number)))  # the same review every time

        def judge(st: HandState, c: int) -> None:
            if st.stock_left:
                stage1.append(stage1_decision(st, seat, c, rng, variant))
            else:
                stage2.append(stage2_decision(st, seat, c, exact, variant))

        start = self._walk(played, judge)
        counted = final.counted_tricks()
        review = HandReview(played.number, seat, (self.names[seat], self.names[1 - seat]), variant, final.trump,
                            final.mode, (counted[seat], counted[1 - seat]), (played.points[seat], played.points[1 - seat]),
                            stage1, stage2, None)
        self.perfect_stage2(review, final)
        if not self.want_duplicate:
            review.no_duplicate = "not asked for"
        elif self.players[1 - seat] is None:
            other = self.names[1 - seat]
            review.no_duplicate = ("the other seat was played by a person" if other == HUMAN
                                   else f"the other seat's player '{other}' is not a level this version has")
        elif not self.in_step:
            review.no_duplicate = ("the computer's cards do not follow its level from the game's start "
                                   "(hands missing, or another version of the game)")
        else:
            review.duplicate = self.duplicate(final.deal, start)
        return review

    def perfect_stage2(self, review: HandReview, final: HandState) -> None:
        """What perfect play on both sides takes from stage 2's start, against the cards the hands really held."""
        seat, variant = self.seat, self.variant
        st = HandState(variant.deck, variant.scoring, final.deal)
        for c in (c for t in final.history for c in (t.lead, t.follow)):
            if not st.stock_left and st.lead < 0:
                break
            st.apply(c)
        n = st.hands[seat].bit_count()
        own = stage2_tricks([split(st.hands[0]), split(st.hands[1])], st.trump, st.mode, st.leader, seat)
        review.stage2_took = (final.won[1][seat], final.won[1][1 - seat])
        review.stage2_perfect = (own, n - own)
        so_far = counted_so_far(st, seat)
        tricks = (so_far[0] + own, so_far[1] + n - own)
        pts = hand_points(variant.scoring, variant.deck, st.mode, tricks if seat == 0 else tricks[::-1])
        review.stage2_points = (pts[seat], pts[1 - seat])

    def _walk(self, played: PlayedHand, judge: Callable[[HandState, int], None] | None) -> int:
        if played.number != self.next:
            self.in_step = False  # the hands between were not seen: the stream is lost
        self.next = played.number + 1
        start = self.rng.state
        st = HandState(self.variant.deck, self.variant.scoring, played.state.deal)
        for t in played.state.history:
            for c in (t.lead, t.follow):
                p = st.turn
                player = self.players[p]
                if player is not None and self.in_step:
                    self.in_step = player.choose(st.observation(p), st.legal_mask()) == c
                if judge is not None and p == self.seat:
                    judge(st, c)
                st.apply(c)
        return start

    def duplicate(self, deal, start: int) -> Duplicate:
        """Master in the seat, the opponent's level in the other, both drawing from the stream as the hand began."""
        rng = Rng(start)
        seats = [make_player(MASTER, rng), make_player(self.names[1 - self.seat], rng)]
        if self.seat == 1:
            seats.reverse()
        st = HandState(self.variant.deck, self.variant.scoring, deal)
        while not st.is_over():
            p = st.turn
            st.apply(seats[p].choose(st.observation(p), st.legal_mask()))
        counted = st.counted_tricks()
        pts = hand_points(self.variant.scoring, self.variant.deck, st.mode, counted)
        s = self.seat
        return Duplicate((counted[s], counted[1 - s]), (pts[s], pts[1 - s]))


@dataclass(frozen=True)
class Saved:
    """Where a game stood after a reviewed hand: enough to review its next hand when the game line is not sent
    again (a game continued from the device's save, or a review started again after the cable came out)."""

    header: str  # the game line
    next: int  # the hand that comes next
    totals: tuple[int, int]
    stream: int  # the game's AI stream as that hand begins
    in_step: bool


class Session:
    """Trace lines in, reviews out: each ``game`` line starts a game, each scored hand is reviewed at once.

    A device sends its games one after another (the title's demo, then the
    person's games), so a new ``game`` line ends the game before it. Games
    with no seat played by a person are passed over when ``demos`` is set (a
    live device), unless a seat was chosen. Hands that come without their
    game line are reviewed when one of ``known`` deals them (:attr:`saved`
    says where a game stands).
    """

    def __init__(self, seat: int | None = None, duplicate: bool = True, demos: bool = False,
                 known: list[Saved] = ()) -> None:
        self.seat, self.want_duplicate, self.demos = seat, duplicate, demos
        self.known = list(known)
        self.reader: Reader | None = None
        self.reviewer: Reviewer | None = None
        self.reviewed = 0
        self.told = False  # the note on a game whose game line was not seen was given
        self.passing = False  # the lines are a demo's, until the next game line
        self.pending: list[tuple[int, str]] = []  # a hand's first lines, before its game is known

    def feed(self, n: int, line: str) -> HandReview | str | None:
        """Line ``n`` of the stream: the review of the hand it ends, a note for the player, or None.

        Comments and blank lines are passed over; a line that breaks the
        rules raises ReviewError naming it.
        """
        line = line.rstrip("\r\n")
        if not line.strip() or line.startswith("#"):
            return None
        if line.startswith("game "):
            self.reader, self.reviewer, self.passing = Reader(), None, False
        elif self.reader is None:
            return None if self.passing else self._orphan(n, line)
        try:
            hand = self.reader.feed(n, line)
        except TraceError as e:
            raise ReviewError(f"{e}; the trace does not replay") from None
        if self.reviewer is None:
            names = self.reader.names
            if self.seat is None and HUMAN not in names and self.demos:
                self.reader, self.passing = None, True  # the title's demo: nobody to coach
                return None
            self.reviewer = Reviewer(self.reader.seed, self.reader.variant, names, self.seat, self.want_duplicate)
        if hand is None:
            return None
        self.reviewed += 1
        return self.reviewer.review(hand)

    def _orphan(self, n: int, line: str) -> str | None:
        """A line of a game whose game line was not seen: a known game's next hand is read on, else one note."""
        if line.startswith("hand "):
            self.pending = [(n, line)]
            return None
        if not self.pending:
            return None
        self.pending.append((n, line))
        found = self._known_game(self.pending[0][1], line)
        pending, self.pending = self.pending, []
        if found is None:
            if self.told:
                return None
            self.told = True
            return ("a hand came without its game's first line (a game continued on the device, or begun "
                    "before the review listened): only games it has seen begin are reviewed")
        self.reader = Reader()
        self.reader.resume(found.header, found.next, found.totals)
        r = self.reviewer = Reviewer(self.reader.seed, self.reader.variant, self.reader.names, self.seat,
                                     self.want_duplicate)
        r.rng.state, r.next, r.in_step = found.stream, found.next, found.in_step
        for k, text in pending:
            self.feed(k, text)
        return None

    def _known_game(self, hand_line: str, hand0_line: str) -> Saved | None:
        """The known game whose next hand deals these cards to seat 0."""
        for g in self.known:
            try:
                seed, variant, _ = parse_header(g.header)
            except ValueError:
                continue
            d = deal(seed, g.next, variant.deck)
            st = HandState(variant.deck, variant.scoring, d)
            if hand_header(d, st.trump, st.mode)[:2] == [hand_line, hand0_line]:
                return g
        return None

    @property
    def saved(self) -> Saved | None:
        """Where the game under review stands, once a hand of it has been reviewed."""
        r, v = self.reader, self.reviewer
        if r is None or v is None or r.result is not None or r.in_hand or v.next != r.number:
            return None
        return Saved(r.header, r.number, r.totals, v.rng.state, v.in_step)

    @property
    def cut(self) -> str | None:
        """The hand under way when the stream stopped, or None between games."""
        r = self.reader
        if r is None or r.result is not None or r.variant is None:
            return None
        return f"hand {r.number}"

    def close(self) -> None:
        """The end of a trace: raise ReviewError if it stops inside a hand (a hand left unfinished on a device is never sent)."""
        r = self.reader
        if r is not None and r.in_hand:
            raise ReviewError(f"the trace ends inside hand {r.number}, which is cut short; the whole hand is needed "
                              "(a device sends it at once when the hand ends)")
        if self.reviewed == 0 and r is None and not self.told:
            raise ReviewError("no game in it: a trace starts with its 'game v1 ...' line")
