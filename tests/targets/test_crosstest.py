"""Cross-tests: identical seeds through the engine and the firmware in the emulator (avr8js).

`make test` plays a few games here that cover every deck x scoring, every target and the
four quick players in both seats, and Easy and Hard (Master) on both seats of single hands of
both packs, high and low; test_projectabe.py seats every player in ProjectABE. The 32-game and
16-hand subsets run in `make longtest`, `make crosstest SEEDS=1000` and `make crosstest-ai` the
long versions.
"""

from pathlib import Path

import pytest

from conftest import build_hex, needs_firmware
from test_serial import fast_pace
from generator.targets import crosstest
from generator.engine.cards import DECKS
from generator.targets.emulator import Emulator
from generator.engine import state
from generator.engine.rules import RANKS_PER_SUIT, SCORINGS, Variant

pytestmark = needs_firmware
CI_GAMES = 32  # every deck x scoring x seating; `make crosstest SEEDS=1000` runs the long version
CI_AI_GAMES = 16  # single hands, every deck x scoring and every seating; `make crosstest-ai` runs 200
QUICK = ("random", "greedy", "original", "easy")


def case(i: int, deck: int, scoring: str, target: int, p0: str, p1: str) -> crosstest.Case:
    """Game ``i`` of a hand-picked list (its seed spread over the u32 range as crosstest.cases spreads them)."""
    return crosstest.Case(i * 2654435761 % 2**32, Variant.make(deck, scoring, target), p0, p1)


# Every deck x scoring and target, each quick player in both seats: single hands but for the targets.
GAMES = [case(1, 52, "last13", 10, "random", "greedy"), case(2, 52, "every", 0, "greedy", "original"),
         case(3, 52, "diff", 0, "original", "easy"), case(4, 52, "highlow", 0, "easy", "random"),
         case(5, 28, "last13", 0, "easy", "greedy"), case(6, 28, "every", 25, "original", "random"),
         case(7, 28, "diff", 0, "random", "easy"), case(8, 28, "highlow", 50, "greedy", "original")]
# Hard (Master) and Easy on both seats, single hands of every scoring, and one of the full pack.
AI_HANDS = [case(11, 28, "last13", 0, "hard", "easy"), case(12, 28, "every", 0, "easy", "hard"),
            case(13, 28, "diff", 0, "hard", "hard"), case(14, 28, "highlow", 0, "hard", "hard"),
            case(15, 52, "highlow", 0, "hard", "random")]


def test_a_few_games_match_the_engine(firmware_hex):
    """The quick players' games and Master's hands above, in one emulator session."""
    assert {(c.variant.deck.size, c.variant.scoring.name) for c in GAMES} == {(d, s) for d in DECKS for s in SCORINGS}
    assert {c.variant.target for c in GAMES} == set(crosstest.TARGETS)
    assert {c.p0 for c in GAMES} == {c.p1 for c in GAMES} == set(QUICK)
    assert {c.variant.scoring.name for c in AI_HANDS if c.variant.deck.size == 28} == set(SCORINGS)
    assert {c.p0 for c in AI_HANDS} == {c.p1 for c in AI_HANDS} - {"random"} == {"easy", "hard"}
    assert {c.variant.target for c in AI_HANDS} == {0} and 52 in {c.variant.deck.size for c in AI_HANDS}
    report = crosstest.run(firmware_hex, GAMES + AI_HANDS)
    assert report.games == len(GAMES + AI_HANDS)
    assert report.differing == 0, report.first_failure


@pytest.mark.slow
def test_ci_subset_matches_the_engine(firmware_hex):
    games = list(crosstest.cases(CI_GAMES, players=("random", "greedy")))
    assert {(c.variant.deck.size, c.variant.scoring.name) for c in games} == {(d, s) for d in DECKS for s in SCORINGS}
    report = crosstest.run(firmware_hex, games)
    assert report.games == CI_GAMES
    assert report.differing == 0, report.first_failure


@pytest.mark.slow
def test_ai_players_match_the_engine(firmware_hex):
    """Easy and Hard on both seats: Hard's stage-1 search must draw the same worlds and play the same
    cards, and both stage-2 searches count the same nodes as the engine's."""
    games = crosstest.spread(CI_AI_GAMES, players=("easy", "hard"), targets=(0,))
    assert {(c.variant.deck.size, c.variant.scoring.name) for c in games} == {(d, s) for d in DECKS for s in SCORINGS}
    assert {(c.p0, c.p1) for c in games} == {(a, b) for a in ("easy", "hard") for b in ("easy", "hard")}
    report = crosstest.run(firmware_hex, games)
    assert report.differing == 0, report.first_failure


def test_thinking_time_is_measured_for_every_card(firmware_hex):
    from generator.targets import thinktime

    decisions = thinktime.measure(firmware_hex, 2, "easy")
    assert [(d.deck, d.stage) for d in decisions] == [(52, 1)] * 26 + [(52, 2)] * 26 + [(28, 1)] * 14 + [(28, 2)] * 14
    assert all(d.cycles > 0 for d in decisions)


def test_the_table_times_every_search_with_its_redraws(firmware_hex, firmware_elf):
    """On the table a decision is timed by the writes that set and clear the think hook: one per card
    played, the same search as in a fast game plus the hook's redraws (rollouts and search alike)."""
    from generator.targets import thinktime

    thinktime.check_elf(firmware_hex, firmware_elf)
    seed, deck = thinktime.hand_seed(1)
    with Emulator(firmware_hex, eeprom=fast_pace(firmware_hex)) as emu:  # the table at the quick pace
        emu.run_until_ready()
        fast = [d.cycles for d in thinktime.hand_decisions(emu, seed, deck, "hard")]
        table = thinktime.table_decisions(emu, seed, deck, "hard", thinktime.hook_address(firmware_elf))
    assert deck == 28 and len(table) == len(fast) == 28
    slow = [(t, f) for t, f in zip(table, fast) if f > 1_000_000]
    assert slow and all(1.01 < t / f < 1.15 for t, f in slow)


def test_the_table_needs_the_elf_of_its_hex(firmware_hex, firmware_elf, tmp_path):
    from generator.targets import thinktime

    other = tmp_path / "other.hex"
    text = firmware_hex.read_text().splitlines(keepends=True)
    other.write_text("".join(text[:-2] + text[-1:]))  # a data line short
    with pytest.raises(ValueError, match="is not the build of"):
        thinktime.check_elf(other, firmware_elf)


@pytest.fixture(scope="module")
def inverted_trump_hex(tmp_path_factory) -> Path:
    """A deliberately wrong firmware: a trump played to a side suit loses instead of winning."""

    def invert(gen: Path) -> None:
        core = gen / "whist_core.cpp"
        text = core.read_text()
        assert "return fs == trump;" in text
        core.write_text(text.replace("return fs == trump;", "return fs != trump && fs == ls;"))

    return build_hex(tmp_path_factory.mktemp("wrong"), invert)


def test_a_wrong_engine_is_caught(firmware_hex, monkeypatch):
    """The test below without its second build: the same wrong rule (a trump played to a side suit
    loses) in the engine instead, against the right firmware; the report says where they part."""
    def wins(lead: int, follow: int) -> bool:
        return lead // RANKS_PER_SUIT == follow // RANKS_PER_SUIT and follow > lead

    cards = range(4 * RANKS_PER_SUIT)
    monkeypatch.setattr(state, "BEATERS", tuple(tuple(sum(1 << f for f in cards if wins(lead, f)) for lead in cards)
                                                for _ in range(4)))
    report = crosstest.run(firmware_hex, list(crosstest.cases(2, players=("random", "greedy"))))
    assert report.differing > 0
    assert "first difference at trace line" in report.first_failure and "engine: trick" in report.first_failure


@pytest.mark.slow
def test_a_wrong_firmware_is_caught(inverted_trump_hex):
    report = crosstest.run(inverted_trump_hex, list(crosstest.cases(8, players=("random", "greedy"))))
    assert report.differing > 0
    assert "first difference at trace line" in report.first_failure and "engine: trick" in report.first_failure


def test_malformed_play_lines_get_an_error_not_a_hang(firmware_hex):
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        for line in ("play seed=1 deck=30", "hello", "play seed=1 fast=1 " + "x" * 200):
            emu.serial_read()
            emu.serial_write(line + "\n")
            assert emu.run_until_serial("error ", max_cycles=50_000_000), line
        emu.serial_read()
        emu.serial_write("play seed=5 fast=1\n")  # still alive and playing
        assert emu.run_until_serial("end winner=", max_cycles=400_000_000)
