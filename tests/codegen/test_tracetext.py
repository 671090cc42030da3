"""The serial texts (generator/codegen/tracetext.py): the engine's trace templates with their fields
as placeholders, filled in here the way the core's printer (`say`) does, must give the engine's lines."""

from __future__ import annotations

import re

import pytest

from generator.codegen import protocol, tracetext
from generator.engine import trace
from generator.engine.cards import card_name

# A Game as the printer sees it: each field table entry's value (a seat for COUNTED).
GAME = {"seed": 4294967295, "deck": 1, "scoring": 3, "target": 10, "who[0]": 5, "who[1]": 4, "handNo": 300,
        "dealer": 1, "trump": 2, "mode": 1, "trickNo": 14, "last.leader": 1, "last.lead": 51,
        "last.follow": 0, "last.winner": 0, "last.take": 12, "last.draw": 26, "points[0]": 3,
        "points[1]": 0, "total[0]": 1000, "total[1]": 9, "winner": -1}
COUNTED = [7, 6]


def fill(text: str, texts: list[tuple[str, str]]) -> str:
    """The printer in Python: each placeholder replaced by its field's value from GAME."""
    table = tracetext.fields()
    out, i = "", 0
    while i < len(text):
        kind = ord(text[i]) - tracetext.KIND_CHAR
        if not 0 <= kind < len(tracetext.KINDS):
            out += text[i]
            i += 1
            continue
        kind = tracetext.KINDS[kind]
        entry = table[ord(text[i + 1]) - tracetext.FIELD_CHAR]
        i += 2
        if kind == "COUNTED":
            out += str(COUNTED[int(entry)])
            continue
        v = GAME[re.fullmatch(r"offsetof\(Game, (.*)\)", entry)[1]]
        if kind == "NAME":
            out += texts[ord(text[i]) - tracetext.FIELD_CHAR + v][1]
            i += 1
        else:
            out += {"CARD": card_name, "OTHER": lambda x: str(1 - x), "SUIT": lambda x: "SHDC"[x],
                    "SIGNED": lambda x: "-" if x < 0 else str(x)}.get(kind, str)(v)
    return out


def test_the_printer_gives_the_engines_lines() -> None:
    texts = tracetext.texts()
    got = {name: fill(t, texts) for name, t in texts[:len(tracetext.LINES)]}
    g = GAME
    assert got["TRACE_GAME"] == trace.GAME_LINE.format(version=trace.VERSION, seed=4294967295, deck=28,
                                                       scoring="highlow", target=10, p0="human", p1="hard") + "\n"
    assert got["TRACE_HAND"] == "hand 300 dealer=1\n" and got["TRACE_TRUMP"] == "trump D mode=low\n"
    assert got["TRACE_CARDS_1"] == "hand1" and got["TRACE_STOCK"] == "stock"
    assert got["TRACE_TRICK"] + got["TRACE_DRAWS"] == trace.TRICK_LINE.format(
        number=14, leader=1, lead="AC", follower=0, follow="2S", winner=0) + trace.DRAWS_PART.format(
        winner=0, take="AS", loser=1, draw="2D")
    assert got["TRACE_SCORE"] == "score tricks=7,6 points=3,0 total=1000,9\n"
    assert got["TRACE_END"] == trace.END_LINE.format(winner="-", total0=g["total[0]"], total1=g["total[1]"]) + "\n"


def test_the_protocols_texts_follow_the_lines() -> None:
    texts = dict(tracetext.texts())
    assert texts["TRACE_COMMAND"] == protocol.COMMAND
    assert [texts[f"TRACE_KEY_{i}"] for i in range(len(protocol.PLAY_KEYS))] == list(protocol.PLAY_KEYS)
    assert texts["TRACE_ERROR_SEED"] == f"error {protocol.ERRORS['seed']}\n"
    assert re.fullmatch(r"# whist \S+ ready\n", texts["TRACE_READY"])
    assert texts["TRACE_FIGURE_1"] == "# serial dropped="
    assert tracetext.readable(texts["TRACE_HAND"]) == "hand {U16} dealer={U8}\n"


def test_a_field_without_a_place_in_the_game_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [("X", "x={nowhere}", {})]
    monkeypatch.setattr(tracetext, "LINES", lines)
    with pytest.raises(tracetext.TraceTextError, match=r"trace line X: no place .* for field \{nowhere\}"):
        tracetext.texts()


def test_the_fx_edition_names_its_master_hard_fx() -> None:
    """Its Master reads the endgame tables, so its traces, `play` command and its error name it hard-fx;
    nothing else differs."""
    from generator.ai.players import DEVICE_PLAYERS

    classic, fx = dict(tracetext.texts()), dict(tracetext.texts(fx=True))
    master = f"TRACE_PLAYER_{DEVICE_PLAYERS.index('hard')}"
    assert (classic[master], fx[master]) == ("hard", "hard-fx")
    assert [k for k in classic if classic[k] != fx[k]] == [master, "TRACE_ERROR_PLAYER"]
    assert fx["TRACE_ERROR_PLAYER"].endswith("|hard-fx\n")
