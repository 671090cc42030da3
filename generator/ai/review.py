"""Where a hand was lost: the coach behind ``whist review``.

A played hand is walked again decision by decision for one seat:

- Stage 2 is judged exactly. Every legal card is valued against perfect play
  from that position on (in stage 2 a player who remembers the cards knows
  the opponent's hand), by the compiled exact solver (:mod:`.native`); a card
  that takes fewer tricks than the best one lost the difference, and the
  points it cost follow from the hand's scoring.
- Stage 1 is estimated as the PC expert (:mod:`.expert`) weighs its own
  cards: deals of the cards the seat had not seen, consistent with what it
  knew, each card played in every deal, the rest of stage 1 played out by
  Hard's rollout rule on both sides and the stage-2 position it reaches
  valued exactly, scored in points. A decision is listed when the card
  played cost at least :data:`WORTH_LISTING` points on average over the
  deals and the 95% interval of that is above nothing.
- The duplicate comparison plays the same deal again with the top device
  level (Master) in the seat, against the same opponent: the game's AI
  stream is replayed from the first hand, so the opponent draws what it drew
  and plays as its level does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine.cards import cards_of
from ..engine.prng import Rng, ai_rng, mix32
from ..engine.rules import HIGH, Variant, deal, hand_points
from ..engine.state import HandState
from ..engine.trace import PlayedHand, Reader, TraceError, hand_header, parse_header
from . import expert, rollout
from .native import exact_value
from .players import HUMAN, PLAYERS, make_player
from .solver import follow_moves, follower_wins, run_lows, split

MASTER = "hard"  # the top device level, the duplicate comparison's player
WORTH_LISTING = 0.25  # points: a stage-1 card that cost less on average is within the estimate's noise
FIRST_DEALS = 4  # sampled deals every candidate card is played in
MORE_DEALS = 6  # fresh deals at a time for the card played and its best rival
MOST_DEALS = 30  # of them at most


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
    interval: tuple[float, float] | None = None  # stage 1: 95% interval of lost_points

    @property
    def mistake(self) -> bool:
        """A real loss: a trick in stage 2; in stage 1 a quarter of a point or more, surely more than nothing."""
        if self.stage == 2:
            return self.lost_tricks > 0
        return self.lost_points >= WORTH_LISTING and self.interval is not None and self.interval[0] > 0


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

    @property
    def mistakes(self) -> list[Decision]:
        return [d for d in self.stage1 + self.stage2 if d.mistake]

    def lost(self, stage: int) -> float:
        """Points lost in a stage: its listed decisions' losses."""
        return sum(d.lost_points for d in (self.stage1 if stage == 1 else self.stage2) if d.mistake)

    @property
    def lost_tricks(self) -> int:
        return sum(d.lost_tricks for d in self.stage2)

    def costliest(self, k: int = 3) -> list[Decision]:
        return sorted(self.mistakes, key=lambda d: (-d.lost_points, d.trick))[:k]


def net_points(variant: Variant, mode: int, seat: int, tricks: tuple[int, int]) -> int:
    """The seat's points less the opponent's for counted tricks (seat, opponent)."""
    pair = tricks if seat == 0 else (tricks[1], tricks[0])
    pts = hand_points(variant.scoring, variant.deck, mode, pair)
    return pts[seat] - pts[1 - seat]


def counted_so_far(state: HandState, seat: int) -> tuple[int, int]:
    """Tricks that count under the hand's scoring already taken (seat, opponent)."""
    won = state.won
    t = (won[1][seat], won[1][1 - seat])
    if state.scoring.counts_stage1:
        t = (t[0] + won[0][seat], t[1] + won[0][1 - seat])
    return t


# -- stage 2: exact ----------------------------------------------------------------------------------

class Exact:
    """Exact stage-2 values for one seat: the counted seat's tricks with the seat making them the most."""

    def __init__(self, seat: int, trump: int, mode: int) -> None:
        self.seat, self.trump = seat, trump
        self.counted = seat if mode == HIGH else 1 - seat  # its own tricks, or in a low hand the other's

    def after(self, h: list[list[int]], leader: int, lead: int, follow: int) -> int:
        """The counted seat's tricks from a finished trick on (that trick included); ``h`` holds what is left."""
        winner = 1 - leader if follower_wins(lead, follow, self.trump) else leader
        return (winner == self.counted) + exact_value(h, self.trump, winner, self.seat, self.counted)

    def card_values(self, h: list[list[int]], leader: int, lead: int, legal: int) -> dict[int, int]:
        """The counted seat's tricks from this trick on for each legal card of the seat, perfect play after it.

        One card of each run is searched (the cards of a run are worth the same).
        """
        seat, opp = self.seat, 1 - self.seat
        values: dict[int, int] = {}
        for s in range(4):
            mine = legal >> (13 * s) & 0x1FFF
            led = 1 << lead % 13 if lead >= 0 and lead // 13 == s else 0
            lows = run_lows(mine, h[0][s] | h[1][s] | led) if mine else 0
            v = 0
            for r in range(13):
                if not mine >> r & 1:
                    continue
                if lows >> r & 1:
                    h[seat][s] ^= 1 << r
                    v = self.after(h, opp, lead, 13 * s + r) if lead >= 0 else self.worst_reply(h, 13 * s + r)
                    h[seat][s] ^= 1 << r
                values[13 * s + r] = v
        return values

    def worst_reply(self, h: list[list[int]], lead: int) -> int:
        """The counted seat's tricks after the seat leads ``lead``: the other seat answers as suits it."""
        seat, opp = self.seat, 1 - self.seat
        worst = None
        for b in follow_moves(h[opp], h[seat], lead, self.trump):
            h[opp][b // 13] ^= 1 << b % 13
            v = self.after(h, seat, lead, b)
            h[opp][b // 13] ^= 1 << b % 13
            worst = v if worst is None else min(worst, v)
        return worst


def stage2_decision(state: HandState, seat: int, card: int, exact: Exact, variant: Variant) -> Decision:
    h = [split(state.hands[0]), split(state.hands[1])]
    legal = state.legal_mask()
    left = state.hands[seat].bit_count()  # tricks still to play, this one included
    counted = exact.card_values(h, state.leader, state.lead, legal)
    own = {c: v if exact.counted == seat else left - v for c, v in counted.items()}
    so_far = counted_so_far(state, seat)
    pts = {c: net_points(variant, state.mode, seat, (so_far[0] + t, so_far[1] + left - t)) for c, t in own.items()}
    top = max(counted.values())
    return Decision(
        trick=state.trick_number, stage=2, card=card, lead=state.lead, hand=state.hands[seat],
        other=state.hands[1 - seat], upcard=-1, tricks=(state.won[1][seat], state.won[1][1 - seat]),
        values={c: float(t) for c, t in own.items()}, best=[c for c, v in counted.items() if v == top],
        lost_tricks=top - counted[card], lost_points=float(max(pts.values()) - pts[card]))


# -- stage 1: estimated --------------------------------------------------------------------------------

def playout(st: HandState, full: int) -> None:
    """Play the rest of stage 1 with Hard's rollout rule for both seats, hands open (rollout.policy)."""
    while st.stock_left:
        live = split(full & ~st.played)
        st.apply(rollout.policy(split(st.hands[st.turn]), live, st.stock[st.pos], st.trump, st.lead))


def world_points(st: HandState, seat: int, variant: Variant) -> int:
    """The seat's points less the opponent's once the stage-2 start ``st`` is played out perfectly."""
    counted = seat if st.mode == HIGH else 1 - seat
    n = st.hands[seat].bit_count()
    h = [split(st.hands[0]), split(st.hands[1])]
    guess = (n + rollout.estimate(h[counted], h[1 - counted], st.trump, st.leader == counted)) // 2
    v = exact_value(h, st.trump, st.leader, seat, counted, guess)
    own = v if counted == seat else n - v
    so_far = counted_so_far(st, seat)
    return net_points(variant, st.mode, seat, (so_far[0] + own, so_far[1] + n - own))


def candidate_of(cands: list[int], card: int) -> int:
    """The candidate standing for ``card``: the lowest card of its run (the highest candidate of its suit below it)."""
    return max(c for c in cands if c // 13 == card // 13 and c <= card)


def mean_interval(xs: list[int]) -> tuple[float, float, float]:
    """Mean and 95% interval (Student's t, by 1.96 + 2.4/df, within 0.07 of the table for df >= 3)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, m, m
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = (1.96 + 2.4 / (n - 1)) * sd / math.sqrt(n)
    return m, m - half, m + half


def stage1_decision(state: HandState, seat: int, card: int, rng: Rng, variant: Variant) -> Decision:
    """The card played against the best of its rivals, over sampled deals (see the module's docstring).

    Every candidate is played in :data:`FIRST_DEALS` deals. If the card played
    is not the best there, the best one and it are compared again in fresh
    deals, :data:`MORE_DEALS` at a time up to :data:`MOST_DEALS`, until the
    card played is no worse on average, or surely worse by at least
    :data:`WORTH_LISTING`: the first deals pick the rival, the fresh ones
    measure it, so the loss is not inflated by picking the luckiest of
    several cards.
    """
    obs = state.observation(seat)
    legal = state.legal_mask()
    cands = expert.candidates(obs, legal)
    d = Decision(trick=state.trick_number, stage=1, card=card, lead=state.lead, hand=state.hands[seat], other=0,
                 upcard=obs.upcard, tricks=(state.won[0][seat], state.won[0][1 - seat]), values={})
    if len(cands) == 1:  # every legal card is the same card
        return d
    played = candidate_of(cands, card)
    rules = expert.void_rules(obs)
    full = variant.deck.mask
    scores: dict[int, list[int]] = {c: [] for c in cands}

    def play_deal(who: list[int]) -> None:
        theirs, stock = expert.sample_world(obs, rules, rng)
        for c in who:
            st = expert.world_state(obs, theirs, stock)
            st.apply(c)
            playout(st, full)
            scores[c].append(world_points(st, seat, variant))

    for _ in range(FIRST_DEALS):
        play_deal(cands)
    rival = max(cands, key=lambda c: (sum(scores[c]), c == played))
    if rival != played:
        diffs: list[int] = []
        while len(diffs) < MOST_DEALS:
            for _ in range(MORE_DEALS):
                play_deal([rival, played])
                diffs.append(scores[rival][-1] - scores[played][-1])
            mean, lo, hi = mean_interval(diffs)
            if mean <= 0 or (lo > 0 and mean >= WORTH_LISTING):
                break
        mean, lo, hi = mean_interval(diffs)
        d.lost_points, d.interval = max(mean, 0.0), (lo, hi)
    best = rival if d.lost_points > 0 else played
    d.best = [c for c in cards_of(legal) if candidate_of(cands, c) == best]
    for c in cards_of(legal):
        rep = scores[candidate_of(cands, c)]
        d.values[c] = sum(rep) / len(rep)
        d.deals[c] = len(rep)
    return d


# -- a game, hand by hand ------------------------------------------------------------------------------

def default_seat(names: tuple[str, str]) -> int:
    """The seat played on the buttons (the trace names it ``human``)."""
    if HUMAN in names:
        return names.index(HUMAN)
    raise ReviewError(f"no seat of this game was played by a person (p0={names[0]} p1={names[1]}); "
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
