"""The computer players: no peeking, and the generated C++ makes the same choices with the same node counts."""

import random
import subprocess
from pathlib import Path

import pytest

from generator.engine.cards import cards_of, mask_of
from generator.codegen import text
from generator.codegen.core import generate_core
from generator.engine.game import play_game
from generator.ai.expert import ExpertPlayer
from generator.ai.players import PLAYERS, make_player
from generator.engine.prng import Rng, ai_rng
from generator.codegen.protocol import play_command
from generator.engine.rules import SCORINGS, Variant, deal
from generator.engine.state import HandState

HOST = Path(__file__).parents[1] / "host" / "trace_host.cpp"
AI_PLAYERS = ("original", "easy", "hard")
WARN = ["-Wall", "-Wextra", "-Werror"]


class Noting:
    """Wraps a player and writes "# work=<n>" after each search, as tests/host/trace_host.cpp does."""

    def __init__(self, inner, out: list[str]) -> None:
        self.inner, self.out, self.name = inner, out, inner.name

    def choose(self, obs, legal):
        before = len(getattr(self.inner, "work", []))
        card = self.inner.choose(obs, legal)
        work = getattr(self.inner, "work", [])
        if len(work) > before and work[-1]:
            self.out.append(f"# work={work[-1]}")
        return card


def engine_lines(seed: int, variant: Variant, p0: str, p1: str) -> list[str]:
    lines: list[str] = []
    rng = ai_rng(seed)
    seats = [Noting(make_player(p, rng), lines) for p in (p0, p1)]
    play_game(seed, variant, seats, emit=lines.append)
    return lines


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("aigen")
    generate_core(out)
    text.generate(Path(__file__).parents[2] / "assets", out)  # the serial texts are packed with the screen's
    exe = out / "trace_host"
    subprocess.run(["g++", "-std=c++11", "-O2", *WARN, "-I", str(out), str(HOST), str(out / "whist_core.cpp"),
                    str(out / "text.cpp"), "-o", str(exe)], check=True)
    return exe


PAIRS = [(a, b) for a in AI_PLAYERS for b in ("random", "greedy", "original", "hard")] + [("greedy", "hard")]


@pytest.mark.xdist_group("host_core")  # one worker: the host core is compiled once
@pytest.mark.parametrize("deck,seeds", [(52, 4), (28, 4), pytest.param(52, 12, marks=pytest.mark.slow),
                                        pytest.param(28, 12, marks=pytest.mark.slow)])
def test_host_core_plays_like_the_engine_with_the_same_node_counts(host, deck, seeds):
    """Every AI in both seats, 4 seeds per pair (12 in `make longtest`), every scoring: traces and node
    counts match."""
    cmds, want = [], []
    scorings = list(SCORINGS)
    for a, b in PAIRS:
        for i in range(seeds):
            seed = (i * 2654435761 + hash(a + b) % 1000) % 2**32
            p0, p1 = (a, b) if i % 2 == 0 else (b, a)
            v = Variant.make(deck, scorings[i % 4], 0)
            cmds.append(play_command(seed, v, p0, p1))
            want.extend(engine_lines(seed, v, p0, p1))
    got = subprocess.run([str(host)], input="\n".join(cmds) + "\n", capture_output=True, text=True,
                         check=True).stdout.splitlines()
    for i, (x, y) in enumerate(zip(want, got)):
        assert x == y, f"first difference at line {i + 1}:\n engine: {x}\n core:   {y}"
    assert len(got) == len(want)


def hidden_permutations(state: HandState, player: int, rnd: random.Random):
    """Copies of ``state`` with the cards ``player`` cannot know shuffled: the opponent's unknown cards and the stock below the face-up card."""
    obs = state.observation(player)
    opp = 1 - player
    unknown_opp = state.hands[opp] & ~obs.opp_taken
    hidden_stock = list(state.stock[state.pos + 1:])
    pool = list(cards_of(unknown_opp)) + hidden_stock
    for _ in range(3):
        rnd.shuffle(pool)
        k = unknown_opp.bit_count()
        copy = HandState.__new__(HandState)
        for slot in HandState.__slots__:
            setattr(copy, slot, getattr(state, slot))
        copy.hands = list(state.hands)
        copy.hands[opp] = (state.hands[opp] & obs.opp_taken) | mask_of(pool[:k])
        copy.stock = tuple(state.stock[: state.pos + 1]) + tuple(pool[k:])
        yield copy


# The PC expert with 2 worlds a decision instead of 24: the same code paths, a tenth of the time.
QUICK = {"expert": lambda rng: ExpertPlayer(rng, samples=2)}


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_no_player_peeks_at_hidden_cards(name, request):
    """Shuffling what a seat cannot know never changes its choice (and it draws the same random numbers)."""
    if name in ("hard-fx", "hard-ceiling"):  # hard-ceiling plays without them too, only slower
        request.getfixturevalue("endgame_tables")
    make = QUICK.get(name) or (lambda rng: make_player(name, rng))
    rnd = random.Random(name)
    v = Variant.make(52, "last13", 0)
    checked = 0
    for seed in range(4):
        state = HandState(v.deck, v.scoring, deal(seed, 1, v.deck))
        players = [make_player("greedy", Rng(1)), make_player("greedy", Rng(1))]
        while not state.is_over():
            p = state.turn
            if state.trick_number % 3 == seed % 3:
                obs = state.observation(p)
                want = make(Rng(seed + 7)).choose(obs, state.legal_mask())
                for other in hidden_permutations(state, p, rnd):
                    assert other.observation(p) == obs
                    got = make(Rng(seed + 7)).choose(other.observation(p), other.legal_mask())
                    assert got == want
                    checked += 1
            state.apply(players[p].choose(state.observation(p), state.legal_mask()))
    assert checked > 30


def test_every_device_level_has_a_player_name_and_hint() -> None:
    from generator.ai.players import DEVICE_PLAYERS, LEVEL_NAMES

    assert tuple(LEVEL_NAMES) == DEVICE_PLAYERS
    names = [n for n, _ in LEVEL_NAMES.values()]
    assert len(set(names)) == len(names) and all(len(n) <= 8 for n in names)
    assert all(0 < len(h) <= 34 for _, h in LEVEL_NAMES.values())
