"""whist review on the command line: a trace file or standard input, the player's words, --json, --seat."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from generator.ai.basic import GreedyPlayer
from generator.ai.players import HUMAN, seats
from generator.cli import main
from generator.engine.game import play_game
from generator.engine.rules import Variant
from typist import play_by_typing

run = CliRunner().invoke


class Person(GreedyPlayer):
    """Stands in for the person at the buttons (greedy cards, traced as the human)."""

    name = HUMAN


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A Small Whist game to 10 of a person against Club, as the device sends it."""
    lines = play_game(21, Variant.make(28, "last13", 10), seats(21, (Person(), "original"))).lines
    path = tmp_path_factory.mktemp("review") / "game.txt"
    path.write_text("# whist 0.1.0 ready\n" + "\n".join(lines) + "\n")
    return path, lines


def test_each_hand_is_reviewed_in_the_players_words(game):
    path, lines = game
    r = run(main, ["review", str(path)])
    assert r.exit_code == 0, r.output
    hands = sum(1 for line in lines if line.startswith("score "))
    assert r.output.count("\nHand ") + r.output.startswith("Hand ") == hands
    assert "you against Club" in r.output and "Master with your cards:" in r.output
    assert "Stage 1, estimated" in r.output and "Stage 2, exact" in r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80
    assert not re.search(r"\b[01]:[2-9TJQKA]|win=|take=|draw=|\bT[SHDC]\b|p0=|seat 0", r.output)  # no trace jargon


def test_standard_input_and_json_give_the_same_review(game):
    path, _ = game
    r = run(main, ["review", "-", "--json"], input=path.read_text())
    assert r.exit_code == 0, r.output
    *reviews, summary = [json.loads(line) for line in r.output.splitlines()]
    assert [x["hand"] for x in reviews] == list(range(1, len(reviews) + 1))
    summary = summary["summary"]  # several hands end with the session's summary
    assert summary["hands"] == len(reviews) > 1
    assert summary["stage2_tricks_lost"] == sum(x["stage2"]["tricks_lost"] for x in reviews)
    assert summary["stage1_points_lost"] == pytest.approx(sum(x["stage1"]["points_lost"] for x in reviews), abs=0.01)
    lo, hi = summary["stage1_interval"]
    assert lo <= summary["stage1_points_lost"] <= hi
    first = reviews[0]
    assert first["player"] == "human" and first["opponent"] == "original" and first["master"]["points"]
    assert {"stage1", "stage2", "costliest", "tricks", "points"} <= set(first)
    text = run(main, ["review", str(path)]).output
    for x in reviews:
        lost = x["stage2"]["tricks_lost"]
        assert (f"{lost} trick" in text) if lost else "No trick lost" in text
        for d in x["stage2"]["decisions"]:
            assert d["card"] in d["values"] and not re.search(r"\bT[SHDC]\b", d["card"])


def test_a_computer_seat_is_reviewed_with_seat(game):
    path, _ = game
    r = run(main, ["review", str(path), "--seat", "1", "--no-master"])
    assert r.exit_code == 0, r.output
    assert "Hand 1, Cpu (Club) against you." in r.output and "Master with" not in r.output
    assert "Your hand:" in r.output or "Cpu's hand:" in r.output


def test_the_terminal_game_offers_the_review_after_a_hand():
    """whist play: r at the end of a hand prints its review, then Enter plays on."""
    out = play_by_typing(["--seed", "5", "--target", "10", "--deck", "28", "--level", "club"], between=["r", "q"])
    review = out[out.index("Reviewing the hand..."):]
    assert "Hand 1, you against Club." in review and "Master with your cards:" in review
    assert max(len(line) for line in review.splitlines()) <= 80
