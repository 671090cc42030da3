"""AI benchmarks (make bench): duplicate-deal win rates, stage-2 loss against perfect play, nodes per decision.

Figures are printed, never asserted. Usage: python benchmarks/ai.py [--deals 2000] [--hands 1000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import click  # noqa: E402

from generator.ai.arena import run_arena  # noqa: E402
from generator.engine.game import play_hand  # noqa: E402
from generator.ai.players import make_player  # noqa: E402
from generator.ai.hard import hard  # noqa: E402
from generator.engine.prng import ai_rng  # noqa: E402
from generator.engine.rules import Variant  # noqa: E402
from generator.ai.solver import Search, decide, move_reaches, split  # noqa: E402


def exact_value(h, trump, mode, me, leader, lead, card) -> int:
    """Tricks the counted player takes after ``me`` plays ``card``, with perfect play from there."""
    counted = me if mode == 0 else 1 - me
    s = Search([list(h[0]), list(h[1])], trump, me, counted, None, True)
    n = sum(x.bit_count() for x in h[me])
    v = 0
    while v < n and move_reaches(s, me, leader, lead, card, v + 1):
        v += 1
    return v


def hand_quality(seed: int) -> tuple[int, list[int]]:
    """One hand of hard vs original (hard in seat seed & 1): hard's stage-2 trick loss and its node counts."""
    variant = Variant.make(52, "last13", 0)
    me = seed & 1
    player = hard()
    other = make_player("original", ai_rng(seed))
    loss = 0

    def choose(state, p):
        nonlocal loss
        obs = state.observation(p)
        if p != me:
            return other.choose(obs, state.legal_mask())
        card = player.choose(obs, state.legal_mask())
        if obs.stage == 2 and player.nodes[-1]:
            h = [[0] * 4, [0] * 4]
            h[me], h[1 - me] = split(obs.hand), split(obs.opponent_hand())
            d = decide(h, obs.trump, obs.mode, me, obs.leader, obs.lead, budget=None, exact_table=True)
            if not decide(h, obs.trump, obs.mode, me, obs.leader, obs.lead).exact:  # else proven best
                loss += d.value - exact_value(h, obs.trump, obs.mode, me, obs.leader, obs.lead, card)
        return card

    play_hand(variant, seed, 1, choose, lambda line: None)
    return loss, player.nodes


def quality(hands: int, jobs: int) -> list[str]:
    with Pool(jobs) as pool, click.progressbar(pool.imap(hand_quality, range(1, hands + 1)), length=hands,
                                               label="stage-2 quality", file=sys.stderr) as bar:
        results = list(bar)
    losses = [r[0] for r in results]
    nodes = sorted(n for r in results for n in r[1] if n)
    searches = [n for r in results for n in r[1]]
    pct = lambda q: nodes[min(len(nodes) - 1, int(q * len(nodes)))]  # noqa: E731
    return [
        f"hard stage 2 vs perfect play, {hands} hands: {sum(losses) / hands:.3f} tricks lost per hand "
        f"({sum(1 for x in losses if x)} hands with a loss)",
        f"hard stage-2 nodes per decision ({len(searches)} decisions, {len(nodes)} searched): "
        f"median {statistics.median(searches):.0f} (searched only {statistics.median(nodes):.0f}), "
        f"90% {pct(0.9)}, worst {nodes[-1]}",
    ]


def arena(a: str, b: str, deals: int, jobs: int) -> list[str]:
    with click.progressbar(length=deals, label=f"{a} vs {b}", file=sys.stderr) as bar:
        def progress(it):
            for x in it:
                bar.update(1)
                yield x
        return run_arena(a, b, deals, jobs, progress=progress).lines()


# The ladder (each device level against the one below it), every device search
# level against both PC yardsticks, and the PC expert against everything.
LADDER = (("greedy", "random"), ("original", "greedy"), ("easy", "original"), ("hard", "easy"))
YARDSTICKS = ("original-exact", "hard-exact")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--expert-deals", type=int, default=200, help="deals for each match of the (slow) PC expert")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    matches = [(a, b, args.deals) for a, b in LADDER]
    matches += [(a, b, args.deals) for a in ("hard", "easy") for b in ("original", *YARDSTICKS)]
    matches += [("expert", b, args.expert_deals) for b in ("hard", "original", *YARDSTICKS)]
    for a, b, n in matches:
        for line in arena(a, b, n, args.jobs):
            print(line, flush=True)
    for line in quality(args.hands, args.jobs):
        print(line, flush=True)


if __name__ == "__main__":
    main()
