"""What the firmware sends over USB serial, as texts packed with the screen's (text.py).

The trace lines are the engine's templates (generator/engine/trace.py) with
each field replaced by a placeholder, which the core's printer (``say`` in
whist_core.cpp) fills in from the Game: a kind code (above the font's
characters) and the field's index in :func:`fields`, whose C++ the core's
table turns into the field's offset in Game. A NAME field is followed by its
first name (counted from the first serial text), and its byte picks one of
them; a COUNTED field's entry is a seat, whose counted tricks it prints. Then
the play command's words, its errors and the comment lines of docs/trace.md,
from protocol.py.
"""

from __future__ import annotations

from string import Formatter

from .. import __version__
from ..ai.players import HUMAN, device_players
from ..engine import cards, rules, trace
from . import protocol

KINDS = ("U8", "U16", "U32", "CARD", "OTHER", "SUIT", "NAME", "SIGNED", "COUNTED")
KIND_CHAR = 127  # kind k is chr(KIND_CHAR + k), beyond '~': text.py gives these codes of their own
FIELD_CHAR = 32  # field i (and a NAME's first name) is chr(FIELD_CHAR + i), a character code



def names(fx: bool = False) -> dict[str, list[str]]:
    """The names a NAME field picks from, by the byte the Game holds (the FX edition's players by its names)."""
    return {
        "DECK": [str(d.size) for d in cards.DECKS.values()],
        "SCORING": list(rules.SCORINGS),
        "PLAYER": [*device_players(fx), HUMAN],  # whist::PlayerKind
        "MODE": list(rules.MODE_NAMES),
    }


# The trace lines: id, template (with its newline where the firmware ends the line
# with it), and each field's kind and place in Game (a member for offsetof; a seat
# for COUNTED; a NAME also says whose names).
LINES: list[tuple[str, str, dict[str, tuple[str, ...]]]] = [
    ("GAME", trace.GAME_LINE + "\n", {
        "seed": ("U32", "seed"), "deck": ("NAME", "deck", "DECK"), "scoring": ("NAME", "scoring", "SCORING"),
        "target": ("U8", "target"), "p0": ("NAME", "who[0]", "PLAYER"), "p1": ("NAME", "who[1]", "PLAYER")}),
    ("HAND", trace.HAND_LINE + "\n", {"hand": ("U16", "handNo"), "dealer": ("U8", "dealer")}),
    ("CARDS_0", trace.CARDS_LINE.format(seat=0), {}),
    ("CARDS_1", trace.CARDS_LINE.format(seat=1), {}),
    ("STOCK", trace.STOCK_LINE, {}),
    ("TRUMP", trace.TRUMP_LINE + "\n", {"trump": ("SUIT", "trump"), "mode": ("NAME", "mode", "MODE")}),
    ("TRICK", trace.TRICK_LINE, {
        "number": ("U8", "trickNo"), "leader": ("U8", "last.leader"), "lead": ("CARD", "last.lead"),
        "follower": ("OTHER", "last.leader"), "follow": ("CARD", "last.follow"),
        "winner": ("U8", "last.winner")}),
    ("DRAWS", trace.DRAWS_PART, {
        "winner": ("U8", "last.winner"), "take": ("CARD", "last.take"), "loser": ("OTHER", "last.winner"),
        "draw": ("CARD", "last.draw")}),
    ("SCORE", trace.SCORE_LINE + "\n", {
        "tricks0": ("COUNTED", "0"), "tricks1": ("COUNTED", "1"), "points0": ("U8", "points[0]"),
        "points1": ("U8", "points[1]"), "total0": ("U16", "total[0]"), "total1": ("U16", "total[1]")}),
    ("END", trace.END_LINE + "\n", {
        "winner": ("SIGNED", "winner"), "total0": ("U16", "total[0]"), "total1": ("U16", "total[1]")}),
]
VALUES = {"version": trace.VERSION}  # fields the generator fills in


class TraceTextError(ValueError):
    """A serial text the printer could not print as the engine does."""


def readable(text: str) -> str:
    """The text with each field shown as {KIND} (for the generated sources' comments)."""
    out, i = "", 0
    while i < len(text):
        k = ord(text[i]) - KIND_CHAR
        if 0 <= k < len(KINDS):
            out += "{" + KINDS[k] + "}"
            i += 3 if KINDS[k] == "NAME" else 2
        else:
            out += text[i]
            i += 1
    return out


def fields() -> list[str]:
    """The C++ of each field's table entry (an offset in Game, or a seat), in index order."""
    out: list[str] = []
    for _, _, specs in LINES:
        for kind, place, *_ in specs.values():
            entry = place if kind == "COUNTED" else f"offsetof(Game, {place})"
            if entry not in out:
                out.append(entry)
    return out


def _placeholder(spec: tuple[str, ...], table: list[str], first: dict[str, int]) -> str:
    kind, place, *names = spec
    entry = place if kind == "COUNTED" else f"offsetof(Game, {place})"
    out = chr(KIND_CHAR + KINDS.index(kind)) + chr(FIELD_CHAR + table.index(entry))
    return out + (chr(FIELD_CHAR + first[names[0]]) if kind == "NAME" else "")


def texts(fx: bool = False) -> list[tuple[str, str]]:
    """(id, text) of everything the firmware sends, in id order; ids start with TRACE_ (``fx``: the FX edition's)."""
    families = names(fx)
    names_ = [(f"{family}_{i}", name) for family, values in families.items() for i, name in enumerate(values)]
    first = {family: len(LINES) + next(i for i, (n, _) in enumerate(names_) if n.startswith(family + "_"))
             for family in families}
    table = fields()
    out = []
    for name, template, specs in LINES:
        body = ""
        for literal, field, _, _ in Formatter().parse(template):
            if any(ord(ch) >= KIND_CHAR for ch in literal):
                raise TraceTextError(f"trace line {name}: {literal!r} has a character the printer takes for a field")
            body += literal
            if field is None:
                continue
            if field in VALUES:
                body += VALUES[field]
            elif field in specs:
                body += _placeholder(specs[field], table, first)
            else:
                raise TraceTextError(f"trace line {name}: no place in the firmware's Game for field {{{field}}}")
        out.append((name, body))
    out += names_
    out.append(("COMMAND", protocol.COMMAND))
    out += [(f"KEY_{i}", key) for i, key in enumerate(protocol.PLAY_KEYS)]
    out += [(f"ERROR_{code.upper()}", f"error {message}\n") for code, message in protocol.errors(fx).items()]
    out.append(("READY", "# " + protocol.READY.format(version=__version__) + "\n"))
    out.append(("STACK", protocol.STACK))
    out += [(f"FIGURE_{i}", f"# {figure}=") for i, figure in enumerate(protocol.FIGURES)]
    return [(f"TRACE_{name}", t) for name, t in out]
