"""The opponents: names that fit the panel, lines that fit the bubble, chosen by the deal and the tricks."""

import pytest

from generator.ai import persona
from generator.ai.players import DEVICE_PLAYERS
from generator.engine.cards import parse_card
from generator.engine.state import Trick

SPADES, HEARTS = 0, 1


def test_every_level_is_an_opponent_whose_lines_fit():
    assert list(persona.OPPONENTS) == list(DEVICE_PLAYERS)
    assert len(set(persona.OPPONENTS.values())) == len(DEVICE_PLAYERS)
    assert persona.name("hard-fx") == "Max" and persona.name("expert") == "Expert"
    persona.check()


def test_the_deal_and_the_tricks_choose_the_line_and_every_line_is_said():
    for moment in persona.MOMENTS:
        said = {persona.line("hard", moment, seed, 1) for seed in range(50)}
        assert said == set(persona.LINES["hard"][moment]), moment
    assert persona.line("hard", "ruffs", 7, 2, 5) == persona.line("hard", "ruffs", 7, 2, 5)
    assert persona.line_index("hand", 255, 1) == 0  # the low byte of seed + hand + tricks, as the device adds them
    assert persona.line_index("ruffs", 250, 1, 5) == 0


def test_a_games_first_hand_is_greeted_as_the_first():
    assert persona.hand_moment(1) == "first" and persona.hand_moment(2) == "hand"
    assert persona.hand_moment(3, session_first=True) == "first"  # a game continued after power-on
    assert not any("nother" in t for lines in persona.LINES.values() for t in lines["first"])


def trick(number: int, leader: int, lead: str, follow: str, winner: int, take: str | None = None) -> Trick:
    return Trick(number, leader, parse_card(lead), parse_card(follow), winner, parse_card(take) if take else -1)


def test_the_moments_of_a_trick():
    """A big face-up card taken, a trump winning on another suit, stage 2 beginning; nothing else."""
    assert persona.trick_moment(trick(3, 0, "5H", "9H", 1, "AD"), SPADES, 13) == "big_won"
    assert persona.trick_moment(trick(3, 0, "5H", "9H", 0, "QS"), SPADES, 13) == "big_lost"
    assert persona.trick_moment(trick(3, 0, "5H", "9H", 0, "JS"), SPADES, 13) is None  # a jack is not big
    assert persona.trick_moment(trick(3, 0, "5H", "2S", 1, "4D"), SPADES, 13) == "ruffs"
    assert persona.trick_moment(trick(3, 1, "5H", "2S", 0, "4D"), SPADES, 13) == "ruffed"
    assert persona.trick_moment(trick(3, 0, "5S", "9S", 1, "4D"), SPADES, 13) is None  # trumps led: no ruff
    assert persona.trick_moment(trick(13, 0, "5H", "9H", 1, "AD"), SPADES, 13) == "stage2"
    assert persona.trick_moment(trick(20, 0, "5H", "2S", 1), SPADES, 13) == "ruffs"  # stage 2: no face-up card
    assert persona.slam_moment("slam", (0, 10)) == "slam" and persona.slam_moment("slam", (5, 0)) == "your_slam"
    assert persona.slam_moment("over", (0, 3)) is None


def test_the_next_opponent_is_named():
    """As Settings names it; the device draws the same words from its labels."""
    from pathlib import Path

    from generator.codegen.text import labels

    assert persona.next_line("original") == "Next up: AI level Pro: Ada"
    assert persona.next_line("hard") == "You beat them all!"
    device = dict(labels(Path(__file__).resolve().parents[2] / "assets"))
    assert (device["NEXT_UP"], device["TOP_BEATEN"]) == (persona.NEXT_UP, persona.TOP_BEATEN)


@pytest.mark.parametrize("bad", ["x" * (persona.LINE_CHARS + 1), "two\nrows"])
def test_a_line_that_does_not_fit_the_bubble_is_refused(monkeypatch, bad):
    lines = {p: dict(m) for p, m in persona.LINES.items()}
    lines["hard"]["won"] = (bad, lines["hard"]["won"][1])
    monkeypatch.setattr(persona, "LINES", lines)
    with pytest.raises(ValueError, match="does not fit the bubble"):
        persona.check()
