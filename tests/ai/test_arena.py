"""Duplicate-deal arena: seats swapped per deal, figures and the command."""

from click.testing import CliRunner

from generator.ai.arena import play_deal, run_arena
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
    assert "original vs greedy: 5 duplicate deals, 10 hands" in out.output
    assert "hands won:" in out.output and "95% CI" in out.output and "points per hand:" in out.output
