"""What the device shows that follows from the game: the order of suits in a hand.

The orders come from the app manual in the rules folder; the firmware's table
is generated from :func:`suit_order`.
"""

from __future__ import annotations

from .cards import RED_SUITS

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
