"""The opponents: names that fit the panel, lines that fit the bubble, chosen by the deal."""

import pytest

from generator.ai import persona
from generator.ai.players import DEVICE_PLAYERS


def test_every_level_is_an_opponent_whose_lines_fit():
    assert list(persona.OPPONENTS) == list(DEVICE_PLAYERS)
    assert len(set(persona.OPPONENTS.values())) == len(DEVICE_PLAYERS)
    persona.check()


def test_the_deal_chooses_the_line_and_every_line_is_said():
    for moment, count in persona.MOMENTS.items():
        said = {persona.line("hard", moment, seed, 1) for seed in range(50)}
        assert said == set(persona.LINES["hard"][moment]), moment
    assert persona.line("hard", "hand", 7, 2) == persona.line("hard", "hand", 7, 2)
    assert persona.line_index("hand", 255, 1) == 0  # the low byte of seed + hand, as the device adds them


def test_a_line_too_wide_for_the_bubble_is_refused(monkeypatch):
    lines = {p: dict(m) for p, m in persona.LINES.items()}
    lines["hard"]["won"] = ("x" * (persona.LINE_CHARS + 1),)
    monkeypatch.setattr(persona, "LINES", lines)
    with pytest.raises(ValueError, match="does not fit the bubble"):
        persona.check()
