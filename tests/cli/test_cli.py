"""The command line: happy paths and one clear line for every kind of bad input."""

import re

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.engine.rules import SCORINGS
from typist import play_by_typing

run = CliRunner().invoke


@pytest.mark.parametrize("scoring", list(SCORINGS))
@pytest.mark.parametrize("deck", ["52", "28"])
def test_trace_then_replay_agree(tmp_path, deck, scoring):
    r = run(main, ["trace", "--seed", "7", "--deck", deck, "--scoring", scoring, "--p1", "random"])
    assert r.exit_code == 0 and r.output.startswith("game v1 seed=7 ")
    f = tmp_path / "t.trace"
    f.write_text(r.output)
    r2 = run(main, ["replay", str(f)])
    assert r2.exit_code == 0, r2.output
    assert r2.output.startswith("ok: ")


def test_replay_reports_the_altered_line(tmp_path):
    out = run(main, ["trace", "--seed", "7"]).output.splitlines()
    out[10] = out[10][:-2] + "QQ"
    f = tmp_path / "bad.trace"
    f.write_text("\n".join(out) + "\n")
    r = run(main, ["replay", str(f)])
    assert r.exit_code == 1
    assert "line 11:" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["trace"], "--seed"),
        (["trace", "--seed", "-1"], "--seed"),
        (["trace", "--seed", "4294967296"], "--seed"),
        (["trace", "--seed", "x"], "--seed"),
        (["trace", "--seed", "1", "--deck", "32"], "--deck"),
        (["trace", "--seed", "1", "--scoring", "bridge"], "--scoring"),
        (["trace", "--seed", "1", "--target", "300"], "--target"),
        (["trace", "--seed", "1", "--p0", "wizard"], "--p0"),
        (["play", "--deck", "13"], "--deck"),
        (["bench", "--seconds", "0"], "--seconds"),
    ],
)
def test_bad_arguments_give_one_clear_error(args, words):
    r = run(main, args)
    assert r.exit_code == 2
    assert words in r.output and "Traceback" not in r.output


def test_replay_of_a_binary_or_empty_file(tmp_path):
    b = tmp_path / "x.bin"
    b.write_bytes(b"\xff\xfe\x00\x80garbage")
    r = run(main, ["replay", str(b)])
    assert r.exit_code == 1 and "error:" in r.output
    e = tmp_path / "empty.trace"
    e.write_text("")
    r = run(main, ["replay", str(e)])
    assert r.exit_code == 1 and "empty" in r.output


def test_play_in_the_terminal_with_bad_and_good_input():
    # a wrong card name and a card not held are refused in the device's words, then 'q' quits cleanly
    r = run(main, ["play", "--seed", "7", "--target", "0", "--deck", "28"], input="XX\nqh\nq\n")
    assert r.exit_code == 0
    assert "Not a card: 'XX'" in r.output and "You do not hold Q♥." in r.output
    assert "Your hand: 9♥   A♠ K♠ Q♠ J♠   9♦ 8♦" in r.output


def test_play_whole_games_by_typing_cards_as_shown():
    out = play_by_typing(["--seed", "3", "--target", "10", "--deck", "28"])
    assert "Hand 2." in out and "Press Enter for the next hand" in out  # a pause between hands
    assert "You win the game!" in out or "Reg wins the game." in out or "A draw!" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert not re.search(r"\b[01]:[2-9TJQKA]|win=|take=|draw=|\bT[SHDC]\b", out)  # no trace jargon, tens as 10
    assert "You play against Reg (Club, 3/5" in out
    assert "Stage 2: these 7 score, over 3. No more drawing." in out  # Last 7 in Small Whist
    assert 'Reg: "' in out  # Club's opponent has its words, as in the FX edition
    # each trick's header comes before its first card, whoever leads; the computer's lead after it
    lines = out.splitlines()
    leads = [i for i, x in enumerate(lines) if x.startswith("Reg leads ")]
    assert leads and all(lines[i - 1].startswith(("Trick ", "Face-up card:", "Stage 2:")) for i in leads)
    assert re.search(r"(You score|Reg scores) \d+ points? \((\d+ tricks: \d+ over \d+|SLAM: .*)\)\.", out)
    assert "Cpu" not in out and "computer" not in out  # one name for the opponent, as on the device


def test_play_in_the_terminal_explains_itself_on_a_question_mark():
    r = run(main, ["play", "--seed", "7", "--target", "0", "--deck", "28"], input="?\nq\n")
    assert r.exit_code == 0
    assert "? explains" in r.output and "Follow the suit led if you can" in r.output
    assert "Scoring: Last 7. Only the last 7 tricks count. Winner scores tricks over 3." in r.output
    assert r.output.count("Your hand:") == 2  # shown again after the help


def test_play_offers_the_device_levels_and_expert_only_when_asked():
    r = run(main, ["play", "--help"])
    assert "beginner" in r.output and "master" in r.output and "--expert" in r.output
    assert run(main, ["play", "--level", "expert"]).exit_code == 2
    r = run(main, ["play", "--expert", "--seed", "1", "--target", "0"], input="q\n")
    assert r.exit_code == 0 and "against Expert" in r.output


def test_help_lists_the_commands():
    r = run(main, ["--help"])
    assert r.exit_code == 0
    for cmd in ("trace", "replay", "play", "bench"):
        assert cmd in r.output


@pytest.mark.slow  # a review of a hand of each variant: 14 s (make longtest)
def test_bench_times_the_review_of_a_hand_of_each_variant():
    r = run(main, ["bench", "--seconds", "0.1", "--review-hands", "1"])
    assert r.exit_code == 0, r.output
    for kind in ("52 cards, last13", "28 cards, last13", "52 cards, every", "52 cards, highlow"):
        assert re.search(kind + r".* median [0-9.]+ s, worst [0-9.]+ s, [01] of 1 over 3 s", r.output), r.output
