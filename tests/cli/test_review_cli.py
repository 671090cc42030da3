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
    assert "you against Reg (Club)" in r.output and "Master with your cards:" in r.output
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
    assert "Hand 1, Reg (Club) against you." in r.output and "Master with" not in r.output
    assert "Your hand:" in r.output or "Reg's hand:" in r.output


def test_a_game_between_computers_is_told_in_the_third_person(tmp_path):
    """No person played: the seat reviewed is P1, and the replay with Master says "P1's" (not "P1s")."""
    lines = play_game(4, Variant.make(28, "last13", 0), seats(4, ("greedy", "original"))).lines
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n")
    r = run(main, ["review", str(path), "--seat", "0"])
    assert r.exit_code == 0, r.output
    assert "Master with P1's cards:" in r.output and "differs from P1's, the cards" in r.output.replace("\n  ", " ")


def test_the_terminal_game_offers_the_review_after_a_hand():
    """whist play: r at the end of a hand prints its review, then Enter plays on; leaving after two reviewed
    hands prints their summary."""
    out = play_by_typing(["--seed", "5", "--target", "10", "--deck", "28", "--level", "club"],
                         between=["r", "", "r", "q"])
    review = out[out.index("Reviewing the hand..."):]
    assert "Hand 1, you against Reg (Club)." in review and "Master with your cards:" in review
    assert "Hand 2, you against Reg (Club)." in review and "Session: 2 hands reviewed." in review
    assert review.count("(A range is where") == 1  # what a range means, said once
    assert max(len(line) for line in review.splitlines() if not line.startswith("Press Enter")) <= 80


@pytest.mark.parametrize("args, says", [
    (["no-such-game.txt"], "no-such-game.txt: no such file"),
    (["{dir}"], "a folder, not a file; give a trace"),
    (["{game}", "--seat", "2"], "--seat 2: there are two seats, 0 and 1"),
    (["{game}", "--seat", "one"], "--seat one: there are two seats, 0 and 1"),
])
def test_a_wrong_file_or_seat_is_one_line_without_a_traceback(game, tmp_path, args, says):
    path, _ = game
    args = [a.format(dir=tmp_path, game=path) for a in args]
    r = CliRunner().invoke(main, ["review", *args], catch_exceptions=False)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], r.output


def test_png_draws_each_mistake_on_the_devices_table(game, tmp_path):
    """One picture a mistake: the device's screen enlarged, the card played framed red, the better one green."""
    from PIL import Image

    from generator.cli.picture import BETTER, CAPTION, HEIGHT, PLAYED, SCALE, WIDTH

    path, _ = game
    folder = tmp_path / "pictures"
    r = run(main, ["review", str(path), "--json", "--no-master", "--png", str(folder)])
    assert r.exit_code == 0, r.output
    reviews = [json.loads(line) for line in r.output.splitlines() if line.startswith('{"hand"')]
    want = sorted(f"hand-{x['hand']}-trick-{d['trick']}.png" for x in reviews
                  for stage in ("stage1", "stage2") for d in x[stage]["decisions"] if d["mistake"])
    assert want and sorted(p.name for p in folder.iterdir()) == want
    img = Image.open(folder / want[0]).convert("RGB")
    assert img.size == (WIDTH * SCALE, HEIGHT * SCALE + CAPTION)
    colours = {c for _, c in img.getcolors(1 << 20)}
    assert PLAYED in colours and BETTER in colours
    screen = img.crop((0, 0, WIDTH * SCALE, HEIGHT * SCALE))
    assert {c for _, c in screen.getcolors(1 << 20)} <= {(0, 0, 0), (255, 255, 255), PLAYED, BETTER}  # the device's two colours
    from generator.cli.picture import PANEL_X
    from generator.targets.screentext import read

    small = screen.resize((WIDTH, HEIGHT), Image.NEAREST).convert("1")
    pages = bytes(sum(small.getpixel((x, 8 * p + b)) // 255 << b for b in range(8)) for p in range(8) for x in range(WIDTH))
    assert [read(pages, y, PANEL_X, 3) for y in (14, 21)] == ["Reg", "You"]  # the opponent named as on the device


def test_the_table_is_drawn_from_the_devices_sprites():
    """The picture's card is the firmware's card: the face sprite, the rank and suit frames where
    table::drawCard puts them."""
    from generator.cli.picture import Screen, frame

    sc = Screen()
    sc.card(10, 20, 13 * 1 + 12)  # A of hearts
    face_lit, face_mask = frame("card_face", 0)
    rank, _ = frame("ranks", 12)
    got = sc.img.crop((10, 20, 26, 44))
    for x in range(16):
        for y in range(24):
            if not face_mask.getpixel((x, y)):
                assert not got.getpixel((x, y))  # transparent corners stay black
    for x in range(rank.width):
        for y in range(rank.height):
            if rank.getpixel((x, y)):
                assert not got.getpixel((2 + x, 2 + y))  # the rank in black ink on the white face
