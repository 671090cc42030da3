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
