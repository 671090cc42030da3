"""Trace v1: golden files, replay of good traces, and the first wrong line of bad ones."""

from pathlib import Path

import pytest

from generator.ai.players import seats
from generator.engine.game import play_game
from generator.engine.rules import SCORINGS, Variant
from generator.engine.trace import TraceError, replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.trace"))


def golden_args(path: Path):
    seed, deck, scoring, target, p0, p1 = path.stem.split("-")
    return int(seed[4:]), Variant.make(int(deck), scoring, int(target[1:])), (p0, p1)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_trace_is_reproduced(path):
    seed, variant, players = golden_args(path)
    assert "\n".join(play_game(seed, variant, seats(seed, players)).lines) + "\n" == path.read_text()


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_trace_replays(path):
    replay(path.read_text().splitlines())


@pytest.mark.parametrize("scoring", list(SCORINGS))
@pytest.mark.parametrize("deck", [52, 28])
def test_seed_7_replays_in_every_variant(deck, scoring):
    lines = play_game(7, Variant.make(deck, scoring, 10), seats(7, ("greedy", "random"))).lines
    result = replay(lines)
    assert result.tricks == result.hands * (26 if deck == 52 else 14)


def lines_of_seed7():
    return play_game(7, Variant.make(52, "last13", 10), seats(7, ("random", "random"))).lines


def first_error(lines) -> TraceError:
    with pytest.raises(TraceError) as e:
        replay(lines)
    return e.value


def test_one_altered_card_fails_with_its_line_number():
    lines = lines_of_seed7()
    i = next(n for n, l in enumerate(lines) if l.startswith("trick 3 "))
    lines[i] = lines[i].replace(lines[i].split()[2][2:], "ZZ", 1)
    assert first_error(lines).line == i + 1


def test_an_illegal_but_well_formed_play_is_named():
    lines = lines_of_seed7()
    i = next(n for n, l in enumerate(lines) if l.startswith("trick 1 "))
    words = lines[i].split()
    words[2] = words[2][:2] + ("2C" if words[2][2:] != "2C" else "3C")
    lines[i] = " ".join(words)
    err = first_error(lines)
    assert err.line == i + 1 and "not a legal play" in str(err)


def test_an_altered_deal_line_is_caught():
    lines = lines_of_seed7()
    lines[2] = lines[2][:-2] + ("AS" if not lines[2].endswith("AS") else "KS")
    assert first_error(lines).line == 3


def test_wrong_winner_score_and_truncation_are_caught():
    lines = lines_of_seed7()
    i = next(n for n, l in enumerate(lines) if l.startswith("trick 20 "))
    lines2 = list(lines)
    lines2[i] = lines2[i].replace("win=0", "win=X") if "win=0" in lines2[i] else lines2[i].replace("win=1", "win=0")
    assert first_error(lines2).line == i + 1
    j = next(n for n, l in enumerate(lines) if l.startswith("score "))
    lines3 = list(lines)
    lines3[j] = lines3[j].replace("total=", "total=9")
    assert first_error(lines3).line == j + 1
    assert "ends early" in str(first_error(lines[:-1]))
    assert "after the end" in str(first_error(lines + ["trick 1 0:AS 1:KS win=0"]))


def test_comments_and_blank_lines_are_ignored():
    lines = lines_of_seed7()
    mixed = ["# device boot", ""] + [x for l in lines for x in (l, "# note")]
    assert replay(mixed).hands == replay(lines).hands


def test_bad_header():
    assert first_error(["game v2 seed=1"]).line == 1
    assert "32 bits" in str(first_error(["game v1 seed=4294967296 deck=52 scoring=last13 target=10 p0=a p1=b"]))
    assert first_error([]).line == 0
