"""Trace v1: the line format the engine and the firmware both print.

docs/trace.md is the specification. This module writes the lines and checks a
trace against the rules (:func:`replay`), so any trace, from the engine, an
emulator or a device, can be verified line by line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Iterator, Sequence

from .bounded import Kind, quote
from .cards import DECKS, NAMES, SUITS, CardError, card_name, parse_card, suit_of
from .rules import MODE_NAMES, SCORINGS, Deal, Variant, deal, game_winner, hand_points, trick_winner
from .state import HandState, Trick

VERSION = "v1"


# The lines, as str.format templates: the engine fills them in below, and the
# firmware prints them from the same templates (generator/codegen/tracefmt.py).
# A hand's cards follow CARDS_LINE and STOCK_LINE, each after a space.
GAME_LINE = "game {version} seed={seed} deck={deck} scoring={scoring} target={target} p0={p0} p1={p1}"
HAND_LINE = "hand {hand} dealer={dealer}"
CARDS_LINE = "hand{seat}"
STOCK_LINE = "stock"
TRUMP_LINE = "trump {trump} mode={mode}"
TRICK_LINE = "trick {number} {leader}:{lead} {follower}:{follow} win={winner}"
DRAWS_PART = " take={winner}:{take} draw={loser}:{draw}"  # stage 1 only
SCORE_LINE = "score tricks={tricks0},{tricks1} points={points0},{points1} total={total0},{total1}"
END_LINE = "end winner={winner} total={total0},{total1}"


# A trace file as a command reads it (generator/engine/bounded.py). Its longest line is the game line with the
# largest fields and names, under 100 characters (tests/engine/test_trace.py checks it); a line of 256 leaves room
# for a person's note. A file is a game's trace or a serial log of a session: a hand a minute, day and night, for a
# month, at about 1.5 KB a hand, comments included, is 64 MB.
TRACE_LINE = 256
TRACE_BYTES = 64 << 20
TRACE = Kind("a trace", TRACE_BYTES, "give a trace written by 'whist trace' or saved from the device", line=TRACE_LINE)
SENT = replace(TRACE, fix="is Whist running on the device?")  # the same, as a device sends it


SPACED_NAMES = tuple(" " + name for name in NAMES)  # a hand's cards each after a space, without joining two strings a card


def cards_text(cards: Iterable[int]) -> str:
    return "".join([SPACED_NAMES[c] for c in cards])


def game_header(seed: int, variant: Variant, names: Sequence[str]) -> str:
    return GAME_LINE.format(version=VERSION, seed=seed, deck=variant.deck.size, scoring=variant.scoring.name,
                       target=variant.target, p0=names[0], p1=names[1])


SEAT_HEADS = tuple(CARDS_LINE.format(seat=seat) for seat in (0, 1))  # the hands' lines before their cards
TRUMP_LINES = tuple(tuple(TRUMP_LINE.format(trump=suit, mode=mode) for mode in MODE_NAMES) for suit in SUITS)  # [trump][mode]


def hand_header(d: Deal, trump: int, mode: int) -> list[str]:
    return [
        HAND_LINE.format(hand=d.hand, dealer=d.dealer),
        SEAT_HEADS[0] + cards_text(d.hands[0]),
        SEAT_HEADS[1] + cards_text(d.hands[1]),
        STOCK_LINE + cards_text(d.stock),
        TRUMP_LINES[trump][mode],
    ]


def _pieces(template: str, cards: tuple[str, ...], **fields: object) -> tuple[str, ...]:
    """``template`` filled in but for its ``cards`` fields, cut where they go (in that order): the text around them."""
    marks = [chr(1 + i) for i in range(len(cards))]  # control characters no template holds
    text = template.format(**fields, **dict(zip(cards, marks)))
    if [ch for ch in text if ch < " "] != marks:
        raise ValueError(f"the fields {cards} of {template!r} must each come once, in that order")
    return tuple(re.split("[\x01-\x1f]", text))


def _trick_pieces(number: int) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Trick ``number``'s line for each (leader, winner), [2 * leader + winner], cut around its cards: (stage 2:
    around lead and follow; stage 1: around lead, follow, take and draw). Made from the templates above once."""
    out = []
    for leader in (0, 1):
        for winner in (0, 1):
            line = _pieces(TRICK_LINE, ("lead", "follow"), number=number, leader=leader, follower=1 - leader,
                           winner=winner)
            draws = _pieces(DRAWS_PART, ("take", "draw"), winner=winner, loser=1 - winner)
            out.append((line, line[:-1] + (line[-1] + draws[0],) + draws[1:]))
    return tuple(out)


TRICK_PIECES = tuple(_trick_pieces(n) for n in range(27))  # [number][2 * leader + winner]: no int formatted a trick


def trick_line(t: Trick) -> str:
    number, leader, lead, follow, winner, take, draw = t
    stage2, stage1 = TRICK_PIECES[number][2 * leader + winner]
    if take >= 0:
        a, b, c, d, e = stage1
        return "".join((a, NAMES[lead], b, NAMES[follow], c, NAMES[take], d, NAMES[draw], e))
    a, b, c = stage2
    return "".join((a, NAMES[lead], b, NAMES[follow], c))


def score_line(tricks: tuple[int, int], points: tuple[int, int], totals: tuple[int, int]) -> str:
    return SCORE_LINE.format(tricks0=tricks[0], tricks1=tricks[1], points0=points[0], points1=points[1],
                        total0=totals[0], total1=totals[1])


def end_line(winner: int, totals: tuple[int, int]) -> str:
    return END_LINE.format(winner="-" if winner < 0 else winner, total0=totals[0], total1=totals[1])


def content_lines(text: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(line number, line) for every line that is not blank or a ``#`` comment, as they are read."""
    for n, raw in enumerate(text, 1):
        line = raw.rstrip("\r\n")
        if line.strip() and not line.startswith("#"):
            yield n, line


def first_difference(want: Iterable[str], got: Iterable[str]) -> str | None:
    """None if two traces agree (``#`` comments and blank lines ignored), else a
    message with the first differing line of both."""
    a = [line for _, line in content_lines(want)]
    b = [line for _, line in content_lines(got)]
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"first difference at trace line {i + 1}:\n  engine: {x}\n  device: {y}"
    if len(a) != len(b):
        i = min(len(a), len(b))
        x = a[i] if i < len(a) else "(end of trace)"
        y = b[i] if i < len(b) else "(end of trace)"
        return f"first difference at trace line {i + 1}:\n  engine: {x}\n  device: {y}"
    return None


# -- replay -------------------------------------------------------------------

class TraceError(Exception):
    """The first line of a trace that breaks the rules or the format."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


HEADER = re.compile(
    r"game v1 seed=(\d+) deck=(52|28) scoring=(\w+) target=(\d+) p0=(\S+) p1=(\S+)"
)
TRICK = re.compile(r"trick (\d+) ([01]):(\S\S) ([01]):(\S\S) win=([01])(?: take=([01]):(\S\S) draw=([01]):(\S\S))?")


def parse_header(line: str) -> tuple[int, Variant, tuple[str, str]]:
    m = HEADER.fullmatch(line)
    if not m:
        raise ValueError(
            "expected 'game v1 seed=<u32> deck=52|28 scoring=<name> target=<n> p0=<who> p1=<who>'"
        )
    seed = int(m.group(1))
    if seed > 0xFFFFFFFF:
        raise ValueError(f"seed {seed} does not fit in 32 bits")
    variant = Variant.make(int(m.group(2)), m.group(3), int(m.group(4)))
    return seed, variant, (m.group(5), m.group(6))


@dataclass
class ReplayResult:
    hands: int
    tricks: int
    winner: int
    totals: tuple[int, int]


@dataclass
class PlayedHand:
    """A hand whose trace checked out, from its ``hand`` line to its ``score`` line."""

    number: int
    state: HandState  # after the last trick: the deal and every trick in ``history``
    points: tuple[int, int]
    totals: tuple[int, int]  # running totals after this hand


class Reader:
    """Checks a trace a line at a time, as it arrives, and hands back each hand once it is scored.

    A device sends a hand's trace only when the hand is over, so a reader fed
    from a serial port sees each hand whole, one after the other; ``replay``
    feeds it a file.
    """

    def __init__(self) -> None:
        self.seed = 0
        self.variant: Variant | None = None
        self.names: tuple[str, str] = ("", "")
        self.state: HandState | None = None  # the hand being read
        self.number = 0  # of the hand being read (or last read)
        self.totals = (0, 0)
        self.tricks = 0
        self.result: ReplayResult | None = None  # set by the ``end`` line
        self.header = ""  # the game line
        self._want: list[str] = []  # exact lines expected next (a hand's header, score, end)
        self._begun = False

    @property
    def expecting(self) -> str:
        """What the next line should be, as the error for a trace that stops here says it."""
        if self.variant is None:
            return "the game line"
        if self._want:
            return f"'{self._want[0]}'"
        return f"trick {self.state.trick_number}"

    @property
    def in_hand(self) -> bool:
        """A line of a hand has been read and its score line has not come yet."""
        return self._begun

    def feed(self, n: int, line: str) -> PlayedHand | None:
        """Check line ``n``; raise :class:`TraceError` if it is wrong, return the hand its score line ends."""
        if self.result is not None:
            raise TraceError(n, f"unexpected line after the end of the game: {quote(line)}")
        if self.variant is None:
            try:
                self.resume(line, 1, (0, 0))
            except ValueError as e:
                raise TraceError(n, str(e)) from None
            return None
        self._begun = self.state is not None
        if self._want:
            want = self._want.pop(0)
            if line != want:
                raise TraceError(n, f"expected '{want}', found {quote(line, want)}")
            if line.startswith("score "):
                return self._scored()
            if line.startswith("end "):
                self.result = ReplayResult(self.number, self.tricks, game_winner(self.variant.target, self.totals),
                                           self.totals)
            return None
        self._trick(n, line)
        return None

    def resume(self, header: str, number: int, totals: tuple[int, int]) -> None:
        """Read from hand ``number`` of the game ``header`` starts, its earlier hands (with these running totals) read before.

        A game continued from the device's save sends its hands without its game line.
        """
        self.seed, self.variant, self.names = parse_header(header)
        self.header, self.number, self.totals = header, number - 1, totals
        self._deal()

    def _deal(self) -> None:
        self.number += 1
        d = deal(self.seed, self.number, self.variant.deck)
        self.state = HandState(self.variant.deck, self.variant.scoring, d)
        self._want = hand_header(d, self.state.trump, self.state.mode)

    def _trick(self, n: int, got: str) -> None:
        state = self.state
        m = TRICK.fullmatch(got)
        if not m:
            raise TraceError(n, f"expected a trick line ('trick <i> <p>:<card> <p>:<card> win=<p> ...'), found {quote(got)}")
        try:
            lead, follow = parse_card(m.group(3)), parse_card(m.group(5))
        except CardError as e:
            raise TraceError(n, str(e)) from None
        for p, c, g in ((state.turn, lead, 2), (1 - state.turn, follow, 4)):
            if int(m.group(g)) != p:
                raise TraceError(n, f"player {p} should play {'first' if g == 2 else 'second'}, found player {m.group(g)}")
            if not state.legal_mask() >> c & 1:
                raise TraceError(n, f"{p}:{card_name(c)} is not a legal play ({_why_illegal(state, c)})")
            state.apply(c)
        want = trick_line(state.history[-1])
        if got != want:
            raise TraceError(n, f"expected '{want}', found {quote(got, want)}")
        self.tricks += 1
        if state.is_over():
            tricks = state.counted_tricks()
            self._points = hand_points(self.variant.scoring, self.variant.deck, state.mode, tricks)
            self.totals = (self.totals[0] + self._points[0], self.totals[1] + self._points[1])
            self._want = [score_line(tricks, self._points, self.totals)]

    def _scored(self) -> PlayedHand:
        hand = PlayedHand(self.number, self.state, self._points, self.totals)
        self.state = None
        self._begun = False
        winner = game_winner(self.variant.target, self.totals)
        if winner is None:
            self._deal()
        else:
            self._want = [end_line(winner, self.totals)]
        return hand


def replay(text: Iterable[str]) -> ReplayResult:
    """Check a whole trace against the rules; raise :class:`TraceError` at the first bad line."""
    reader, last = Reader(), 0
    for last, line in content_lines(text):
        reader.feed(last, line)
    if not last:
        raise TraceError(0, "the trace is empty")
    if reader.result is None:
        raise TraceError(last + 1, f"the trace ends early: expected {reader.expecting}")
    return reader.result


def _why_illegal(state: HandState, c: int) -> str:
    if not state.hands[state.turn] >> c & 1:
        return f"player {state.turn} does not hold {card_name(c)}"
    return f"must follow {SUITS[suit_of(state.lead)]}"


__all__ = [
    "game_header", "hand_header", "trick_line", "score_line", "end_line", "replay", "Reader", "PlayedHand",
    "TraceError", "parse_header", "content_lines", "DECKS", "SCORINGS", "trick_winner",
]
