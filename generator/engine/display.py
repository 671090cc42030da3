"""What the device shows that follows from the game: the order of suits in a hand, why a hand scored.

The orders come from the app manual in the rules folder; the firmware's table
is generated from :func:`suit_order`. The scoreboard's reason line is
:data:`REASONS` filled in by :func:`hand_reason`, from the scoring rows of
:mod:`.rules`; the firmware's texts and its ``handReason`` are generated from them,
as stage 2's notice (:data:`NOTICES`, :func:`stage2_notice`) and ``stage2Notice`` are.
"""

from __future__ import annotations

import re

from .cards import RED_SUITS
from .rules import LOW, hand_points

SUIT_ORDER_STYLES = ("alternate", "classic")


def suit_order(trump: int, style: str) -> tuple[int, ...]:
    """Suits left to right. ``alternate``: trumps first, then alternating colours
    (after a black trump hearts precede diamonds, after a red one spades precede
    clubs); ``classic``: S H D C."""
    if style == "classic":
        return (0, 1, 2, 3)
    red = trump in RED_SUITS
    others = [s for s in (0, 1, 2, 3) if s != trump]
    blacks = [s for s in others if s not in RED_SUITS]
    reds = [s for s in others if s in RED_SUITS]
    first, second = (blacks, reds) if red else (reds, blacks)
    order = [trump]
    while first or second:
        if first:
            order.append(first.pop(0))
        first, second = second, first
    return tuple(order)

# Menu titles of the packs (by size) and suit-order styles, as the app manual names them.
DECK_TITLES = {52: "Classic 52", 28: "Small Whist 28"}
SUIT_ORDER_TITLES = {"alternate": "Alternate", "classic": "Classic"}
HELP_WIDTH = 32  # characters in a line of the 128-pixel screen


def scoring_title(scoring, deck) -> str:
    """The scoring's name with this pack: "Last 13" counts the last 7 tricks of Small Whist."""
    return f"Last {deck.hand_size}" if scoring.name == "last13" else scoring.title


def scoring_help(scoring, deck) -> list[str]:
    """How a scoring variant scores with this pack, in lines the device's rules screen shows."""
    n = deck.hand_size
    counted = f"All {2 * n} tricks count." if scoring.counts_stage1 else f"Only the last {n} tricks count."
    lines = [f"Scoring: {scoring_title(scoring, deck)}", counted]
    if scoring.colour_mode:
        lines += ["A black trump card makes the", "hand low: fewest tricks wins."]
    if scoring.difference:
        lines.append("Winner scores the difference.")
    else:
        lines.append(f"Winner scores tricks over {scoring.over[deck.size]}.")
    if scoring.slam:
        lines += [f"Taking all {n}: {scoring.slam[deck.size]} points."]
    too_long = [line for line in lines if len(line) > HELP_WIDTH]
    assert not too_long, too_long
    return lines


# The scoreboard's line saying why a hand scored what it did, by kind; "#n" is the n-th number of
# hand_reason: 0 the most tricks counted, 1 the fewest, 2 the points, 3 the tricks a winner must exceed.
REASONS = {
    "tie": "#0 tricks each",
    "over": "#0 tricks: #2 over #3",
    "slam": "SLAM: #0 tricks = #2 points",
    "difference": "#0 - #1 = #2",
    "low": "Low: #1 beats #0, #2 over #3",
}


def hand_reason(scoring, deck, mode: int, tricks: tuple[int, int]) -> tuple[str, tuple[int, int, int, int]]:
    """The kind of :data:`REASONS` for a hand that ended with these counted tricks, and its numbers."""
    a, b = tricks
    top, low = max(a, b), min(a, b)
    numbers = (top, low, max(hand_points(scoring, deck, mode, tricks)), scoring.over[deck.size])
    if a == b:
        kind = "tie"
    elif scoring.difference:
        kind = "difference"
    elif scoring.slam and low == 0:
        kind = "slam"
    else:
        kind = "low" if mode == LOW else "over"
    return kind, numbers


# Stage 2's notice, at the player's first turn in it: which tricks score. "#0" is the number of tricks
# counted (the hand's, when every trick counts), "#1" the tricks a winner must exceed.
NOTICES = {
    "over": "Stage 2: these #0 score, over #1",
    "every": "Stage 2: all #0 count, over #1",
    "difference": "Stage 2: #0 tricks score the gap",
    "low": "Stage 2: fewest of #0 tricks win",
}


# The FX edition's coach (firmware/table.cpp drawCoach, app.cpp): after a hand, the scoreboard says how
# many stage-2 cards lost how many tricks against perfect play ("#0": cards, "#1": tricks; COST_ONE for one
# card that lost one, PERFECT when none lost any) and DOWN shows a page of them, a line each: "Trick 17: 2C
# lost, 8H kept it" ("Trick 17" then COLON, the card played in the game's rank and suit glyphs, LOST, a card
# that kept the trick, KEPT), or for a card that lost more than one "Trick 17: 2C lost 2, best 8H" (LOST_MORE,
# "#0" the tricks). At the easier levels a hint on request (DOWN) on the player's stage-2 turns: the cards
# that keep the most tricks marked (their corners inverted, as a card just drawn in stage 1 is) and HINT on
# the top line; TIP says so at the first stage-2 turn after power-on, LATER at a stage-1 turn, NO_HINT at
# the levels without one.
COACH = {
    "title": "Stage 2: cards that lost tricks",
    "trick": "Trick ",
    "lost": " lost, ",
    "kept": " kept it",
    "lost_more": " lost #0, best ",
    "unjudged": "not judged",
    "none": "No stage-2 card lost a trick",
    "more": "DOWN: next page",
    "back": "DOWN: the scores",
    "hint": "Hint: the marked cards are best",
    "tip": "Tip: DOWN marks the best cards",
    "later": "DOWN: a hint, in stage 2",
    "no_hint": "No hints at Pro and Master",
    "perfect": "Perfect stage 2!",
    "cost_one": "1 card cost you a trick (DOWN)",
    "cost_one_n": "1 card cost you #1 tricks (DOWN)",
    "cost_n": "#0 cards cost #1 tricks (DOWN)",
}
COACH_LINES = 6  # loss lines on a page of the coach


def notice_kind(scoring, mode: int) -> str:
    """The kind of :data:`NOTICES` that says what scores in this hand's stage 2."""
    if scoring.counts_stage1:
        return "every"
    if scoring.difference:
        return "difference"
    return "low" if mode == LOW else "over"


def stage2_notice(scoring, deck, mode: int) -> str:
    """Stage 2's notice as the table shows it: "Stage 2: these 13 score, over 6"."""
    counted = deck.hand_size * (2 if scoring.counts_stage1 else 1)
    numbers = (counted, scoring.over[deck.size])
    return re.sub(r"#(\d)", lambda m: str(numbers[int(m[1])]), NOTICES[notice_kind(scoring, mode)])


def score_reason(scoring, deck, mode: int, tricks: tuple[int, int]) -> str:
    """The reason line as the scoreboard shows it: "9 tricks: 3 over 6", "SLAM: 13 tricks = 10 points"."""
    kind, numbers = hand_reason(scoring, deck, mode, tricks)
    return re.sub(r"#(\d)", lambda m: str(numbers[int(m[1])]), REASONS[kind])
