"""Duplicate-deal arena: seats swapped per deal, figures and the command."""

import pytest
from click.testing import CliRunner

from generator.ai.arena import play_deal, rate_interval, run_arena
from generator.cli import main


def test_a_player_against_itself_wins_exactly_half_of_a_duplicate_deal():
    r = play_deal(("greedy", "greedy", 7, 52, "last13"))
    assert r.wins == r.losses == 1 and r.points == 0


def test_hard_beats_random():
    r = run_arena("hard", "random", 6, deck=28)
    assert r.wins > r.losses and sum(r.points) > 0


def test_arena_command_prints_win_rate_and_points():
    out = CliRunner().invoke(main, ["arena", "--p0", "original", "--p1", "greedy", "--deals", "5"])
    assert out.exit_code == 0
    assert "original vs greedy: 5 duplicate deals (seeds 1..5), 10 hands" in out.output
    assert "hands won:" in out.output and "95% CI" in out.output and "points per hand:" in out.output


def test_first_seed_extends_a_match_with_new_deals():
    out = CliRunner().invoke(main, ["arena", "--p0", "original", "--p1", "greedy", "--deals", "2", "--first-seed", "4"])
    assert out.exit_code == 0 and "2 duplicate deals (seeds 4..5)" in out.output
    whole = run_arena("original", "greedy", 5)
    assert run_arena("original", "greedy", 2, first_seed=4).points == whole.points[3:]


def test_the_rate_interval_is_the_exact_poisson_one():
    assert rate_interval(0, 1) == pytest.approx((0.0, 3.689), abs=1e-3)
    assert rate_interval(1, 1) == pytest.approx((0.0253, 5.572), abs=1e-3)
    assert rate_interval(10, 100) == pytest.approx((0.04795, 0.1839), abs=1e-4)
