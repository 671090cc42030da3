"""``whist review``: a hand's review as the player reads it, or as JSON.

The words and card names are the device's and the terminal game's
(``You``, the opponent's name, ``Reg``, ``10♥``; letters where the terminal cannot show the suit
signs, and in the JSON), the hands sorted as the device shows them. What
the review found comes from :mod:`generator.ai.review`.
"""

from __future__ import annotations

import json
import textwrap

from ..ai import persona
from ..ai.players import FX_TWINS, HUMAN, LEVEL_NAMES
from ..ai.estimate import AGAIN
from ..ai.review import Decision, HandReview
from ..ai.stage2 import Played
from ..ai.summary import Summary
from ..engine.rules import LOW
from .table import SUIT_WORDS, Table


def level_title(name: str) -> str:
    """A player as the device's menus name it (Master, Club...; the FX edition's Master too); the PC's own
    players by their names."""
    level = next((p for p, twin in FX_TWINS.items() if twin == name), name)
    return LEVEL_NAMES[level][0] if level in LEVEL_NAMES else name.capitalize()


class Words:
    """Who is who in a review, as the table says it: "you" and the opponent's name ("Reg", persona.py) at a
    person's game, "P1" and "P2" in a game of two computers (the demo's captions)."""

    def __init__(self, r: HandReview) -> None:
        seat, other = r.names
        if HUMAN in r.names:
            self.me, self.them = ("you", persona.name(other)) if seat == HUMAN else (persona.name(seat), "you")
        else:
            self.me, self.them = f"P{r.seat + 1}", f"P{2 - r.seat}"
        self.who = {self.me: seat, self.them: other}

    def named(self, word: str) -> str:
        """The seat with its level: "you", "Max (Master)"."""
        name = self.who[word]
        return word if name == HUMAN else f"{word} ({level_title(name)})"

    @staticmethod
    def cap(word: str) -> str:
        return word[:1].upper() + word[1:]

    def mine(self) -> str:
        return "Your" if self.me == "you" else f"{self.me}'s"

    def theirs(self) -> str:
        return "Your" if self.them == "you" else f"{self.them}'s"


def plural(n: float, word: str) -> str:
    return f"{n:g} {word}" if n == 1 else f"{n:g} {word}s"


def about(x: float) -> str:
    """An estimate in points: two decimals under 1 (a card listed at a quarter point or more never reads
    0.2), one from 1 on."""
    return f"{x:.2f}" if abs(x) < 1 else f"{x:.1f}"


WIDTH = 80  # the terminal game's lines fit in 80 columns


def fit(line: str, indent: str) -> list[str]:
    """A line too wide for the terminal broken after its "; " (the rest indented)."""
    if len(line) <= WIDTH or "; " not in line:
        return [line]
    head, tail = line.split("; ", 1)
    return [head + ";", indent + tail]


def either(t: Table, cards: list[int], trump: int, named: int = -1) -> str:
    """Cards as a player says them: "K♠", "K♠ or 9♠", "K♠, 9♠ or 3♦" (device order, three at most, ``named``
    among them: the card the line of play below starts from)."""
    names = t.cards(sum(1 << c for c in cards), trump).split()
    if len(names) > 3:
        keep = t.card(named) if named >= 0 else names[2]
        return ", ".join(names[:3] if keep in names[:3] else names[:2] + [keep]) + " or another"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def position(t: Table, w: Words, d: Decision, trump: int) -> list[str]:
    """The position as the device showed it: the lead, the face-up card, the tricks, the hand(s)."""
    who = "You lead" if w.me == "you" else f"{Words.cap(w.me)} leads"
    if d.lead >= 0:
        who = f"{Words.cap(w.them)} led {t.card(d.lead)}"
    up = f" Face-up card: {t.card(d.upcard)}." if d.upcard >= 0 else ""
    lines = [f"{who}.{up} Tricks this stage: {w.me} {d.tricks[0]}, {w.them} {d.tricks[1]}.",
             f"{w.mine()} hand: {t.cards(d.hand, trump)}"]
    if d.other:
        lines.append(f"{w.theirs()} hand: {t.cards(d.other, trump)}")
    return lines


def stage2_line(t: Table, d: Decision, trump: int, low: bool) -> str:
    n = d.lost_tricks
    better = either(t, d.best, trump, min(d.best))  # the line of play starts from the lowest
    tricks = "a trick" if n == 1 else f"{n} tricks"
    them = "it" if n == 1 else "them"
    cost = f" ({plural(d.lost_points, 'point')})"
    if low:  # fewest tricks win: the card left the seat more to take
        more = "one more" if n == 1 else f"{n} more"
        return (f"Trick {d.trick}: {t.card(d.card)} cost {tricks}: {more} to take{cost}; "
                f"{better} did not.")
    return f"Trick {d.trick}: {t.card(d.card)} lost {tricks}{cost}; {better} kept {them}."


def trick_words(t: Table, w: Words, p: Played, seat: int) -> str:
    """A trick of a line of play: "6♠ 8♥ (Reg)", the card led first, who takes it in brackets."""
    return f"{t.card(p.lead)} {t.card(p.follow)} ({w.me if p.winner == seat else w.them})"


def why(t: Table, w: Words, d: Decision, seat: int, low: bool) -> list[str]:
    """The perfect continuation from the best card, and the later trick the card played gives away."""
    line = ", ".join(trick_words(t, w, p, seat) for p in d.line)
    lost, kept = d.lost_at, d.kept_at
    best = t.card(d.line[0].lead if d.line[0].leader == seat else d.line[0].follow)
    taker = w.me if lost.winner == seat else w.them
    goes = f"{taker} has to take trick {lost.number}" if low else f"trick {lost.number} goes to {taker}"
    return [f"Perfect play on from {best}: {line}{'...' if len(d.line) > 1 else ''}",
            f"After {t.card(d.card)}, with perfect play on, {goes}: {trick_words(t, w, lost, seat)}; "
            f"after {best}, trick {kept.number} is {trick_words(t, w, kept, seat)}."]


def stage1_line(t: Table, d: Decision, trump: int) -> str:
    lo, hi = d.interval
    return (f"Trick {d.trick}: {t.card(d.card)} cost {about(d.lost_points)} points on average "
            f"({about(lo)} to {about(hi)}); {either(t, d.best, trump)} was better.")


RANGE_MEANS = (f"(A range is where a new measurement over {AGAIN} fresh deals would fall 19 times in 20, so it "
               "holds the true average over all the deals you could have faced at least as often. A card is "
               "picked out when its deals put its cost at a quarter point or more and surely above 0; its figure "
               "and range then come from fresh deals, so that being picked out does not flatter it, and it is "
               "listed if they put it at a quarter point or more too.)")


def result(w: Words, tricks: tuple[int, int] | None, points: tuple[int, int], verb: str = "scored") -> str:
    """Who scored what, as the scoreboard says it, with the counted tricks unless ``tricks`` is None."""
    score = f" ({plural(tricks[0], 'trick')} to {tricks[1]})" if tricks else ""
    def said(who: str) -> str:  # "you score", "Reg scores"
        return verb[:-1] if who == "you" and verb.endswith("es") else verb

    if points[0]:
        return f"{w.me} {said(w.me)} {plural(points[0], 'point')}{score}"
    if points[1]:
        return f"{w.them} {said(w.them)} {plural(points[1], 'point')}{score}"
    return f"no points{score}"


def stage2_totals(w: Words, r: HandReview, low: bool) -> str:
    """What perfect play from stage 2's start takes against these cards, next to what the seat took."""
    (mine, theirs), (took, gave) = r.stage2_perfect, r.stage2_took
    back = (took - mine if not low else mine - took) + r.lost_tricks  # the other seat's own losses
    given = f"; {w.them}'s cards gave {plural(back, 'trick')} back" if back > 0 else ""
    return (f"Stage 2, exact: perfect play from its start takes {w.me} {plural(mine, 'trick')} to {theirs} "
            f"({result(w, None, r.stage2_points, 'scores')}); {w.me} took {took} to {gave}{given}.")


def text(r: HandReview, signs: bool, explain_range: bool = True) -> list[str]:
    """The review of one hand, for the terminal (every line within 80 columns but the hands).

    ``explain_range``: say what a range means the first time one appears.
    """
    t = Table(signs)
    w = Words(r)
    low = r.mode == LOW
    against = w.named(w.them)
    out = [f"Hand {r.number}, {w.named(w.me)} against {against}. Trumps: {t.suit(r.trump)} {SUIT_WORDS[r.trump]}."
           + (" Low hand: fewest tricks win." if low else ""),
           f"Result: {result(w, r.tricks, r.points)}."]
    listed1 = [d for d in r.stage1 if d.mistake]
    total, lo, hi = r.stage1_lost()
    out.append("")
    cards = "your cards" if w.me == "you" else f"{w.me}'s cards"
    head = (f"Stage 1, estimated over sampled deals: {cards} lost about {about(total)} points over the stage "
            f"({about(lo)} to {about(hi)})")
    if listed1:
        out += wrap(head + f", {plural(len(listed1), 'card')} picked out as costing a quarter point or more:", "  ")
        if explain_range:
            out += wrap("  " + RANGE_MEANS, "  ")
        for d in listed1:
            out += fit("  " + stage1_line(t, d, r.trump), "      ")
            out += ["      " + x for x in position(t, w, d, r.trump)]
    else:
        out += wrap(head + "; no card cost a quarter point or more.", "  ")
        if explain_range:
            out += wrap("  " + RANGE_MEANS, "  ")
    listed2 = [d for d in r.stage2 if d.mistake]
    out += wrap(stage2_totals(w, r, low), "  ")
    if listed2:
        out.append(f"  {Words.cap(cards)} lost {plural(r.lost_tricks, 'trick')} against perfect play, "
                   f"{plural(r.lost(2), 'point')}:")
        for d in listed2:
            out += fit("  " + stage2_line(t, d, r.trump, low), "      ")
            out += ["      " + x for x in position(t, w, d, r.trump)]
            out += [y for x in why(t, w, d, r.seat, low) for y in wrap("      " + x, "        ")]
    else:
        out.append("  No trick lost: every card was a best card.")
    out.append("")
    if r.duplicate is not None:
        me = "your" if w.me == "you" else f"{w.me}'s"
        out += wrap(f"Master with {me} cards: {result(w, r.duplicate.tricks, r.duplicate.points)}; "
                    f"as {w.me} played: {result(w, None, r.points)}. The same deal, but once Master's play "
                    f"differs from {'yours' if w.me == 'you' else me}, the cards each side draws from the "
                    "stock differ too.", "  ")
    elif r.no_duplicate != "not asked for":
        out.append(f"No replay with Master: {r.no_duplicate}.")
    top = r.costliest()
    if top:
        cost = [about(d.lost_points) if d.stage == 1 else f"{d.lost_points:g}" for d in top]
        cost[0] += " point" if cost[0] == "1" else " points"
        out.append("Costliest: " + ", ".join(f"trick {d.trick} ({t.card(d.card)}, {c})" for d, c in zip(top, cost)) + ".")
    return out


def wrap(line: str, indent: str) -> list[str]:
    """A line broken at spaces to fit the terminal's 80 columns, the rest indented."""
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def data(r: HandReview) -> dict:
    """The same review as plain data (``--json``), cards named as the terminal game names them without signs."""
    t = Table(False)

    def names(mask: int) -> list[str]:
        return t.cards(mask, r.trump).split()

    def trick(p: Played | None) -> dict | None:
        if p is None:
            return None
        return {"trick": p.number, "led": t.card(p.lead), "followed": t.card(p.follow),
                "won_by": "player" if p.winner == r.seat else "opponent"}

    def decision(d: Decision) -> dict:
        out = {
            "trick": d.trick, "card": t.card(d.card), "led": t.card(d.lead) if d.lead >= 0 else None,
            "hand": names(d.hand), "tricks_this_stage": list(d.tricks),
            "values": {t.card(c): round(v, 3) for c, v in sorted(d.values.items())},
            "best": [t.card(c) for c in d.best], "lost_points": round(d.lost_points, 3), "mistake": d.mistake,
        }
        if d.stage == 1:
            out.update(face_up=t.card(d.upcard), deals={t.card(c): n for c, n in sorted(d.deals.items())},
                       compared_with=t.card(d.rival) if d.rival >= 0 else None, compared_in=d.measured,
                       cost=round(d.change, 3),
                       interval=[round(x, 3) for x in d.interval] if d.interval else None)
        else:
            out.update(opponent_hand=names(d.other), lost_tricks=d.lost_tricks,
                       perfect_line=[trick(p) for p in d.line], lost_trick=trick(d.lost_at),
                       kept_trick=trick(d.kept_at))
        return out

    total, lo, hi = r.stage1_lost()
    return {
        "hand": r.number, "seat": r.seat, "player": r.names[0], "opponent": r.names[1],
        "deck": r.variant.deck.size, "scoring": r.variant.scoring.name, "trumps": SUIT_WORDS[r.trump],
        "low": r.mode == LOW, "tricks": list(r.tricks), "points": list(r.points),
        "stage1": {"points_lost": round(total, 3), "interval": [round(lo, 3), round(hi, 3)],
                   "decisions": [decision(d) for d in r.stage1]},
        "stage2": {"tricks_lost": r.lost_tricks, "points_lost": r.lost(2), "perfect_tricks": list(r.stage2_perfect),
                   "perfect_points": list(r.stage2_points), "tricks_taken": list(r.stage2_took),
                   "decisions": [decision(d) for d in r.stage2]},
        "master": None if r.duplicate is None else {"tricks": list(r.duplicate.tricks),
                                                    "points": list(r.duplicate.points)},
        "no_master": r.no_duplicate or None,
        "costliest": [{"trick": d.trick, "stage": d.stage, "card": t.card(d.card),
                       "lost_points": round(d.lost_points, 3)} for d in r.costliest()],
    }


def render(r: HandReview, as_json: bool, signs: bool, explain_range: bool = True) -> list[str]:
    return [json.dumps(data(r), ensure_ascii=False)] if as_json else text(r, signs, explain_range) + [""]


def summary_text(s: Summary) -> list[str]:
    """The session's summary for the terminal."""
    lo, hi = s.stage1_range()
    out = wrap(f"Session: {plural(s.hands, 'hand')} reviewed. Points lost: stage 1 about {about(s.stage1)} "
               f"({about(lo)} to {about(hi)}), stage 2 {s.stage2:g} ({plural(s.stage2_tricks, 'trick')}).", "  ")
    top = s.costliest()
    if top:
        out += wrap("Costliest kinds of mistake: " + ", ".join(
            f"{name} ({plural(k.times, 'time')}, {about(k.points)} points)" for name, k in top) + ".", "  ")
    else:
        out.append("No mistake listed.")
    return out


def summary_data(s: Summary) -> dict:
    """The same summary as plain data: one JSON line after the hands' lines (``--json``)."""
    lo, hi = s.stage1_range()
    return {"summary": {
        "hands": s.hands, "stage1_points_lost": round(s.stage1, 3), "stage1_interval": [round(lo, 3), round(hi, 3)],
        "stage2_points_lost": s.stage2, "stage2_tricks_lost": s.stage2_tricks,
        "costliest_kinds": [{"kind": name, "times": k.times, "points": round(k.points, 3)} for name, k in s.costliest()],
    }}


def render_summary(s: Summary, as_json: bool) -> list[str]:
    return [json.dumps(summary_data(s), ensure_ascii=False)] if as_json else summary_text(s)
