"""What the device says about a hand's score: stage 2's notice and the scoreboard's reason line, from the scoring rows."""

import pytest

from generator.engine.cards import DECKS
from generator.engine.display import HELP_WIDTH, score_reason, stage2_notice
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


@pytest.mark.parametrize("scoring, deck, mode, line", [
    ("last13", 52, HIGH, "Stage 2: these 13 score, over 6"),
    ("last13", 28, HIGH, "Stage 2: these 7 score, over 3"),
    ("every", 52, HIGH, "Stage 2: all 26 count, over 13"),
    ("diff", 28, HIGH, "Stage 2: 7 tricks score the gap"),
    ("highlow", 52, HIGH, "Stage 2: these 13 score, over 6"),
    ("highlow", 52, LOW, "Stage 2: fewest of 13 tricks win"),
])
def test_stage_2s_notice_says_which_tricks_score(scoring, deck, mode, line):
    assert stage2_notice(SCORINGS[scoring], DECKS[deck], mode) == line


def test_every_notice_fits_the_screen():
    assert all(len(stage2_notice(s, d, m)) <= HELP_WIDTH for s in SCORINGS.values() for d in DECKS.values()
               for m in (HIGH, LOW))
