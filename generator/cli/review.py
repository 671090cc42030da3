"""``whist review``: a hand's review as the player reads it, or as JSON.

The words and card names are the device's and the terminal game's
(``You``, ``Cpu``, ``10♥``; letters where the terminal cannot show the suit
signs, and in the JSON), the hands sorted as the device shows them. What
the review found comes from :mod:`generator.ai.review`.
"""

from __future__ import annotations

import json

from ..ai.players import HUMAN, LEVEL_NAMES
from ..ai.review import Decision, HandReview
from ..engine.rules import LOW
from .table import SUIT_WORDS, Table


def level_title(name: str) -> str:
    """A player as the device's menus name it (Master, Club...); the PC's own players by their names."""
    return LEVEL_NAMES[name][0] if name in LEVEL_NAMES else name.capitalize()


class Words:
    """Who is who in a review, as the table says it: "you" and "Cpu" at a person's game, "P1" and "P2" in a
    game of two computers (the demo's captions)."""

    def __init__(self, r: HandReview) -> None:
        seat, other = r.names
        if HUMAN in r.names:
            self.me, self.them = ("you", "Cpu") if seat == HUMAN else ("Cpu", "you")
        else:
            self.me, self.them = f"P{r.seat + 1}", f"P{2 - r.seat}"
        self.who = {self.me: seat, self.them: other}

    def named(self, word: str) -> str:
        """The seat with its level: "you", "Cpu (Master)"."""
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
    """An estimate in points: one decimal, two below a tenth so that a small positive bound does not read 0.0."""
    return f"{x:.2f}" if abs(x) < 0.1 and x != 0 else f"{x:.1f}"


WIDTH = 80  # the terminal game's lines fit in 80 columns


def fit(line: str, indent: str) -> list[str]:
    """A line too wide for the terminal broken after its "; " (the rest indented)."""
    if len(line) <= WIDTH or "; " not in line:
        return [line]
    head, tail = line.split("; ", 1)
    return [head + ";", indent + tail]


def either(t: Table, cards: list[int], trump: int) -> str:
    """Cards as a player says them: "K♠", "K♠ or 9♠", "K♠, 9♠ or 3♦" (device order, three at most)."""
    names = t.cards(sum(1 << c for c in cards), trump).split()
    if len(names) > 3:
        names = names[:3]
        return ", ".join(names) + " or another"
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
    tricks = "a trick" if n == 1 else f"{n} tricks"
    them = "it" if n == 1 else "them"
    cost = f" ({plural(d.lost_points, 'point')})"
    if low:  # fewest tricks win: the card left the seat more to take
        more = "one more" if n == 1 else f"{n} more"
        return (f"Trick {d.trick}: {t.card(d.card)} cost {tricks}: {more} to take{cost}; "
                f"{either(t, d.best, trump)} did not.")
    return f"Trick {d.trick}: {t.card(d.card)} lost {tricks}{cost}; {either(t, d.best, trump)} kept {them}."


def stage1_line(t: Table, d: Decision, trump: int) -> str:
    lo, hi = d.interval
    return (f"Trick {d.trick}: {t.card(d.card)} cost {about(d.lost_points)} points on average "
            f"({about(lo)} to {about(hi)}); {either(t, d.best, trump)} was better.")


def result(w: Words, tricks: tuple[int, int] | None, points: tuple[int, int]) -> str:
    """Who scored what, as the scoreboard says it, with the counted tricks unless ``tricks`` is None."""
    score = f" ({plural(tricks[0], 'trick')} to {tricks[1]})" if tricks else ""
    if points[0]:
        return f"{w.me} scored {plural(points[0], 'point')}{score}"
    if points[1]:
        return f"{w.them} scored {plural(points[1], 'point')}{score}"
    return f"no points{score}"


def text(r: HandReview, signs: bool) -> list[str]:
    """The review of one hand, for the terminal (every line within 80 columns but the hands)."""
    t = Table(signs)
    w = Words(r)
    low = r.mode == LOW
    against = level_title(r.names[1]) if w.me == "you" else w.named(w.them)
    out = [f"Hand {r.number}, {w.named(w.me)} against {against}. Trumps: {t.suit(r.trump)} {SUIT_WORDS[r.trump]}."
           + (" Low hand: fewest tricks win." if low else ""),
           f"Result: {result(w, r.tricks, r.points)}."]
    listed1 = [d for d in r.stage1 if d.mistake]
    out.append("")
    if listed1:
        out.append(f"Stage 1, estimated over sampled deals: {plural(len(listed1), 'card')} cost about "
                   f"{about(r.lost(1))} points.")
        for d in listed1:
            out += fit("  " + stage1_line(t, d, r.trump), "      ")
            out += ["      " + x for x in position(t, w, d, r.trump)]
    else:
        out.append("Stage 1, estimated over sampled deals: no card cost a quarter point or more.")
    listed2 = [d for d in r.stage2 if d.mistake]
    if listed2:
        out.append(f"Stage 2, exact: {plural(r.lost_tricks, 'trick')} lost, {plural(r.lost(2), 'point')}.")
        for d in listed2:
            out += fit("  " + stage2_line(t, d, r.trump, low), "      ")
            out += ["      " + x for x in position(t, w, d, r.trump)]
    else:
        out.append("Stage 2, exact: no trick lost, every card was a best card.")
    out.append("")
    if r.duplicate is not None:
        me = "your" if w.me == "you" else f"{w.me}'s"
        out += fit(f"Master with {me} cards: {result(w, r.duplicate.tricks, r.duplicate.points)}; "
                   f"as {w.me} played: {result(w, None, r.points)}.", "  ")
    elif r.no_duplicate != "not asked for":
        out.append(f"No replay with Master: {r.no_duplicate}.")
    top = r.costliest()
    if top:
        cost = [about(d.lost_points) if d.stage == 1 else f"{d.lost_points:g}" for d in top]
        cost[0] += " point" if cost[0] == "1" else " points"
        out.append("Costliest: " + ", ".join(f"trick {d.trick} ({t.card(d.card)}, {c})" for d, c in zip(top, cost)) + ".")
    return out


def data(r: HandReview) -> dict:
    """The same review as plain data (``--json``), cards named as the terminal game names them without signs."""
    t = Table(False)

    def names(mask: int) -> list[str]:
        return t.cards(mask, r.trump).split()

    def decision(d: Decision) -> dict:
        out = {
            "trick": d.trick, "card": t.card(d.card), "led": t.card(d.lead) if d.lead >= 0 else None,
            "hand": names(d.hand), "tricks_this_stage": list(d.tricks),
            "values": {t.card(c): round(v, 3) for c, v in sorted(d.values.items())},
            "best": [t.card(c) for c in d.best], "lost_points": round(d.lost_points, 3), "mistake": d.mistake,
        }
        if d.stage == 1:
            out.update(face_up=t.card(d.upcard), deals={t.card(c): n for c, n in sorted(d.deals.items())},
                       interval=[round(x, 3) for x in d.interval] if d.interval else None)
        else:
            out.update(opponent_hand=names(d.other), lost_tricks=d.lost_tricks)
        return out

    return {
        "hand": r.number, "seat": r.seat, "player": r.names[0], "opponent": r.names[1],
        "deck": r.variant.deck.size, "scoring": r.variant.scoring.name, "trumps": SUIT_WORDS[r.trump],
        "low": r.mode == LOW, "tricks": list(r.tricks), "points": list(r.points),
        "stage1": {"points_lost": round(r.lost(1), 3), "decisions": [decision(d) for d in r.stage1]},
        "stage2": {"tricks_lost": r.lost_tricks, "points_lost": r.lost(2), "decisions": [decision(d) for d in r.stage2]},
        "master": None if r.duplicate is None else {"tricks": list(r.duplicate.tricks),
                                                    "points": list(r.duplicate.points)},
        "no_master": r.no_duplicate or None,
        "costliest": [{"trick": d.trick, "stage": d.stage, "card": t.card(d.card),
                       "lost_points": round(d.lost_points, 3)} for d in r.costliest()],
    }


def render(r: HandReview, as_json: bool, signs: bool) -> list[str]:
    return [json.dumps(data(r), ensure_ascii=False)] if as_json else text(r, signs) + [""]
