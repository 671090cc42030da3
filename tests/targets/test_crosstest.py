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
from generator.ai.players import seats
from generator.engine.game import play_game
from generator.ai.players import GreedyPlayer, HUMAN
from generator.engine.rules import SCORINGS, Variant
from generator.engine.trace import first_difference, trick_line

pytestmark = needs_firmware
CI_GAMES = 64
CI_AI_GAMES = 32  # single hands, every deck x scoring x seating; `make crosstest-ai` runs 200


def test_ci_subset_matches_the_engine(firmware_hex):
    games = list(crosstest.cases(CI_GAMES, players=("random", "greedy")))
    assert {(c.variant.deck.size, c.variant.scoring.name) for c in games} == {(d, s) for d in DECKS for s in SCORINGS}
    report = crosstest.run(firmware_hex, games)
    assert report.games == CI_GAMES
    assert report.differing == 0, report.first_failure


def test_ai_players_match_the_engine(firmware_hex):
    """Easy and Hard on both seats: their stage-2 searches must count the same nodes as the engine's."""
    games = list(crosstest.cases(CI_AI_GAMES, players=("easy", "hard"), targets=(0,)))
    assert {(c.p0, c.p1) for c in games} == {(a, b) for a in ("easy", "hard") for b in ("easy", "hard")}
    report = crosstest.run(firmware_hex, games)
    assert report.differing == 0, report.first_failure


def test_thinking_time_is_measured_for_every_card(firmware_hex):
    from generator.targets import thinktime

    decisions = thinktime.measure(firmware_hex, 2, "easy")
    assert [(d.deck, d.stage) for d in decisions] == [(52, 1)] * 26 + [(52, 2)] * 26 + [(28, 1)] * 14 + [(28, 2)] * 14
    assert all(d.cycles > 0 for d in decisions)


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
        assert emu.run_until_serial("# whist ")
        for line in ("play seed=1 deck=30", "hello", "play seed=1 fast=1 " + "x" * 200):
            emu.serial_read()
            emu.serial_write(line + "\n")
            assert emu.run_until_serial("error ", max_cycles=50_000_000), line
        emu.serial_read()
        emu.serial_write("play seed=5 fast=1\n")  # still alive and playing
        assert emu.run_until_serial("end winner=", max_cycles=400_000_000)


def device_order(hand: int, trump: int) -> list[int]:
    """Seat 0's cards as the device shows them: suits in the alternate order, high ranks first."""
    from generator.engine.cards import cards_of, suit_of
    from generator.engine.display import suit_order

    return [c for s in suit_order(trump, "alternate") for c in sorted(cards_of(hand), reverse=True) if suit_of(c) == s]


def tap(emu: Emulator, button: str) -> None:
    emu.press(button)
    emu.run_frames(3)
    emu.release(button)
    emu.run_frames(2)


def test_a_hand_played_with_the_buttons_matches_the_engine(firmware_hex):
    """Seat 0 is played by pressing LEFT/RIGHT/A to pick the cards a Python player picks."""
    from generator.engine.rules import deal
    from generator.engine.state import HandState

    with Emulator(firmware_hex, adc_seed=3) as emu:
        assert emu.run_until_serial("# whist ")
        emu.run_frames(2)
        tap(emu, "A")  # title -> main menu
        tap(emu, "A")  # Play (first in the menu without a saved game): a game against the default greedy opponent
        assert emu.run_until_serial("trump ", max_cycles=50_000_000)
        header = emu.serial_read().decode()
        seed = int(header.split("game v1 seed=")[1].split()[0])
        variant = Variant.make()
        state = HandState(variant.deck, variant.scoring, deal(seed, 1, variant.deck))
        me, opponent = GreedyPlayer(), GreedyPlayer()
        selected = 0
        while not state.is_over():
            if state.turn == 0:
                emu.run_frames(80)  # the finished trick's display and the computer's pause are over
                card = me.choose(state.observation(0), state.legal_mask())
                order = device_order(state.hands[0], state.trump)
                for _ in range((order.index(card) - selected) % len(order)):
                    tap(emu, "RIGHT")
                selected = order.index(card)
                tap(emu, "A")
            else:
                card = opponent.choose(state.observation(1), state.legal_mask())
            trick = state.apply(card)
            selected = min(selected, max(bin(state.hands[0]).count("1") - 1, 0))
            if trick:  # in step with the device: its trick line is out before the next decision
                assert emu.run_until_serial(trick_line(trick) + "\n", max_cycles=100_000_000)
        assert emu.run_until_serial(r"score [^\n]*\n", regex=True, max_cycles=200_000_000)
        got = [line for line in (header + emu.serial_read().decode()).splitlines() if not line.startswith("#")]

    class Human(GreedyPlayer):
        name = HUMAN

    want = play_game(seed, variant, seats(seed, (Human(), "greedy"))).lines
    assert got[-1].startswith("score ") and len(got) == 6 + 26 + 1
    assert first_difference(want[: len(got)], got) is None
