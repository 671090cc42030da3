"""The generated game core: compiles cleanly, and reproduces `whist trace` when host-compiled."""

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.codegen import text
from generator.codegen.core import CORE_FILES, generate_core
from generator.ai.players import seats
from generator.engine.game import play_game
from generator.codegen.protocol import ERRORS, play_command
from generator.engine import display
from generator.engine.cards import DECKS
from generator.engine.rules import HIGH, LOW, SCORINGS, Variant, hand_points

pytestmark = pytest.mark.xdist_group("test_codegen")  # one worker: the host core is compiled once
HOST = Path(__file__).parents[1] / "host" / "trace_host.cpp"
REASON_HOST = Path(__file__).parents[1] / "host" / "reason_host.cpp"
ROOT = Path(__file__).parents[2]
SEEDS = 1000
WARN = ["-Wall", "-Wextra", "-Werror"]


@pytest.fixture(scope="module")
def gen(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gen")
    generate_core(out)
    text.generate(ROOT / "assets", out)  # the serial texts are packed with the screen's
    return out


@pytest.fixture(scope="module")
def host(gen) -> Path:
    exe = gen / "trace_host"
    subprocess.run(["g++", "-std=c++11", "-O2", *WARN, "-I", str(gen), str(HOST), str(gen / "whist_core.cpp"),
                    str(gen / "text.cpp"), "-o", str(exe)], check=True)
    return exe


def run_host(exe: Path, lines: list[str]) -> str:
    return subprocess.run([str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          check=True).stdout


def test_generation_is_deterministic(gen, tmp_path):
    generate_core(tmp_path)
    for name in CORE_FILES:
        assert (tmp_path / name).read_bytes() == (gen / name).read_bytes()


def test_the_build_used_a_fresh_generation(gen):
    """build/gen (written by make hex) must equal what the engine generates now."""
    built = ROOT / "build" / "gen"
    if not (built / CORE_FILES[0]).exists():
        pytest.skip("no build/gen yet: make hex has not run in this tree")
    for name in CORE_FILES:
        assert (built / name).read_text() == (gen / name).read_text(), f"build/gen/{name} is stale: run make hex"


@pytest.mark.skipif(shutil.which("avr-g++") is None, reason="avr-g++ not installed (make hex installs it)")
def test_core_compiles_for_the_avr_without_warnings(gen):
    subprocess.run(["avr-g++", "-mmcu=atmega32u4", "-std=gnu++11", "-Os", *WARN, "-c", str(gen / "whist_core.cpp"),
                    "-o", str(gen / "core.avr.o")], check=True)


@pytest.mark.parametrize("scoring", list(SCORINGS))
@pytest.mark.parametrize("deck", [52, 28])
def test_host_core_reproduces_whist_trace(host, deck, scoring):
    players = [("random", "greedy"), ("greedy", "random"), ("random", "random"), ("greedy", "greedy")]
    targets = [10, 25, 0, 10]
    cmds, want = [], []
    for seed in range(SEEDS):
        p0, p1 = players[seed % 4]
        v = Variant.make(deck, scoring, targets[seed % 4])
        s = seed * 2654435761 % 2**32
        cmds.append(play_command(s, v, p0, p1))
        want.extend(play_game(s, v, seats(s, (p0, p1))).lines)
    got = run_host(host, cmds).splitlines()
    for i, (a, b) in enumerate(zip(want, got)):
        assert a == b, f"first difference at line {i + 1}:\n engine: {a}\n core:   {b}"
    assert len(got) == len(want)


@pytest.mark.parametrize(
    "line, error",
    [
        ("hello", "usage"),
        ("play", "seed"),
        ("play deck=28", "seed"),
        ("play seed=x", "seed"),
        ("play seed=4294967296", "seed"),
        ("play seed=1 deck=30", "deck"),
        ("play seed=1 scoring=bridge", "scoring"),
        ("play seed=1 target=256", "target"),
        ("play seed=1 p0=wizard", "player"),
        ("play seed=1 fast=2", "fast"),
        ("play seed=1 colour=red", "key"),
        ("play seed=1 deck", "key"),
        ("playseed=1", "usage"),
    ],
)
def test_bad_play_lines_get_an_error_line(host, line, error):
    assert run_host(host, [line]) == f"error {ERRORS[error]}\n"


def test_defaults_match_whist_trace(host):
    want = play_game(99, Variant.make(), seats(99, ("greedy", "greedy"))).lines
    assert run_host(host, ["play seed=99"]).splitlines() == want


def test_the_longest_play_command_fits_the_device_line():
    from generator.ai.players import DEVICE_PLAYERS
    from generator.codegen.protocol import LINE_MAX

    longest = max(DEVICE_PLAYERS, key=len)
    scoring = max(SCORINGS, key=len)
    line = play_command(4294967295, Variant.make(52, scoring, 255), longest, longest)
    assert len(line) <= LINE_MAX


def test_the_scoreboards_reason_is_the_engines_for_every_variant(gen):
    """whist::handReason (the kind and numbers of the scoreboard's reason line) against display.hand_reason:
    every scoring, both packs, high and low hands, every split of the counted tricks."""
    exe = gen / "reason_host"
    subprocess.run(["g++", "-std=c++11", "-O2", *WARN, "-I", str(gen), str(REASON_HOST), str(gen / "whist_core.cpp"),
                    str(gen / "text.cpp"), "-o", str(exe)], check=True)
    cases, want = [], []
    for si, scoring in enumerate(SCORINGS.values()):
        for di, deck in enumerate(DECKS.values()):
            counted = deck.hand_size * (2 if scoring.counts_stage1 else 1)
            for mode in (HIGH, LOW) if scoring.colour_mode else (HIGH,):
                for a in range(counted + 1):
                    tricks = (a, counted - a)
                    points = hand_points(scoring, deck, mode, tricks)
                    cases.append(f"{di} {si} {mode} {a} {counted - a} {points[0]} {points[1]}")
                    kind, numbers = display.hand_reason(scoring, deck, mode, tricks)
                    want.append(" ".join(map(str, (list(display.REASONS).index(kind), *numbers))))
    assert run_host(exe, cases).splitlines() == want
    assert {w.split()[0] for w in want} == {str(i) for i in range(len(display.REASONS))}  # every kind is met
