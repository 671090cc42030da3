"""Self-play tuning (generator/ai/tuning.py): fair comparisons that can tell weights apart."""

from generator.ai.hard import WEIGHTS, Weights
from generator.ai.tuning import LIMITS, duel, neighbours, trial


def test_a_player_against_itself_scores_exactly_zero():
    assert all(duel((WEIGHTS, WEIGHTS, seed)) == 0 for seed in range(1, 21))


def test_neighbours_step_one_weight_within_the_limits():
    w = Weights(trump=LIMITS[0][1], want=0, spend=LIMITS[2][0])
    got = neighbours(w)
    assert Weights(LIMITS[0][1] - 1, 0, LIMITS[2][0]) in got
    assert Weights(LIMITS[0][1], 1, LIMITS[2][0]) in got and Weights(LIMITS[0][1], -1, LIMITS[2][0]) in got
    assert Weights(LIMITS[0][1], 0, LIMITS[2][0] + 1) in got
    assert len(got) == 4  # trump + 1 and spend - 1 are out of bounds


def test_a_clearly_worse_weight_set_loses_the_trial():
    reckless = Weights(trump=0, want=-4, spend=0)  # grabs every face-up card, trumps worth nothing
    t = trial(reckless, WEIGHTS, 150, None)
    assert t.mean < 0 and not t.better
