"""The command line: happy paths and one clear line for every kind of bad input."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.engine.rules import SCORINGS

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
        (["replay", "/nonexistent/file.trace"], "No such file"),
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
    # a wrong card name and an unplayable card are refused, then 'q' quits cleanly
    r = run(main, ["play", "--seed", "7", "--target", "0"], input="XX\nq\n")
    assert r.exit_code == 0
    assert "bad card name" in r.output and "your hand:" in r.output


def test_play_a_whole_hand_by_typing_legal_cards():
    # feed the first legal card each time by reading the prompt's list
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "play", "--seed", "3", "--target", "0", "--deck", "28"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out = ""
    while True:
        line = proc.stdout.readline()
        if not line:
            break
        out += line
        if line.strip().startswith("you may play:"):
            proc.stdin.write(line.split(":")[1].split()[0] + "\n")
            proc.stdin.flush()
    assert proc.wait(10) == 0
    assert "hand 1: tricks" in out and ("You win" in out or "computer wins" in out or "draw" in out)


def test_help_lists_the_commands():
    r = run(main, ["--help"])
    assert r.exit_code == 0
    for cmd in ("trace", "replay", "play", "bench"):
        assert cmd in r.output
