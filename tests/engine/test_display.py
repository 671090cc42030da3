"""What the device says about a hand's score: the scoreboard's reason line, from the scoring rows."""

import pytest

from generator.engine.cards import DECKS
from generator.engine.display import HELP_WIDTH, score_reason
from generator.engine.rules import HIGH, LOW, SCORINGS


@pytest.mark.parametrize("scoring, deck, mode, tricks, line", [
    ("last13", 52, HIGH, (9, 4), "9 tricks: 3 over 6"),
    ("last13", 52, HIGH, (0, 13), "SLAM: 13 tricks = 10 points"),
    ("last13", 28, HIGH, (7, 0), "SLAM: 7 tricks = 5 points"),  # the 28-card pack's slam
    ("last13", 28, HIGH, (3, 4), "4 tricks: 1 over 3"),
    ("every", 52, HIGH, (16, 10), "16 tricks: 3 over 13"),
    ("every", 52, HIGH, (13, 13), "13 tricks each"),
    ("every", 28, HIGH, (14, 0), "14 tricks: 8 over 6"),  # no slam in this scoring
    ("diff", 52, HIGH, (4, 9), "9 - 4 = 5"),
    ("highlow", 52, HIGH, (9, 4), "9 tricks: 3 over 6"),
    ("highlow", 52, LOW, (9, 4), "Low: 4 beats 9, 3 over 6"),  # a low hand: the fewer tricks score
])
def test_the_reason_says_how_the_points_come_from_the_tricks(scoring, deck, mode, tricks, line):
    assert score_reason(SCORINGS[scoring], DECKS[deck], mode, tricks) == line


def test_every_reason_fits_the_screen():
    for scoring in SCORINGS.values():
        for deck in DECKS.values():
            n = deck.hand_size * 2
            for mode in (HIGH, LOW):
                for a in range(n + 1):
                    assert len(score_reason(scoring, deck, mode, (a, n - a))) <= HELP_WIDTH
