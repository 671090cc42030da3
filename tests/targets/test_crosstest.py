"""Cross-tests: identical seeds through the engine and the firmware in the emulator.

The CI subset covers every deck x scoring combination and every seating of the
device's players; `make crosstest SEEDS=1000` runs the long version.
"""

from pathlib import Path

import pytest

from conftest import build_hex, needs_firmware
from generator.targets import crosstest
from generator.engine.cards import DECKS
from generator.targets.emulator import Emulator
from generator.engine.rules import SCORINGS

pytestmark = needs_firmware
CI_GAMES = 32  # every deck x scoring x seating; `make crosstest SEEDS=1000` runs the long version
CI_AI_GAMES = 16  # single hands, every deck x scoring and every seating; `make crosstest-ai` runs 200


def test_ci_subset_matches_the_engine(firmware_hex):
    games = list(crosstest.cases(CI_GAMES, players=("random", "greedy")))
    assert {(c.variant.deck.size, c.variant.scoring.name) for c in games} == {(d, s) for d in DECKS for s in SCORINGS}
    report = crosstest.run(firmware_hex, games)
    assert report.games == CI_GAMES
    assert report.differing == 0, report.first_failure


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
    with Emulator(firmware_hex) as emu:
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
