"""AI benchmarks (make bench): duplicate-deal win rates, how often Club picks the original game's card, Hard's stage-2 loss against a perfect opponent.

Figures are printed, never asserted. Usage: python benchmarks/ai.py [--deals 2000] [--hands 1000] [--jobs 2] [--only ppot,fidelity]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import click  # noqa: E402

from generator.ai.arena import rate_interval, run_arena  # noqa: E402
from generator.ai.players import DEVICE_PLAYERS, make_player  # noqa: E402
from generator.ai import native  # noqa: E402
from generator.ai import endgame, judge_fit, rollout  # noqa: E402
from generator.ai.hard import SearchPlayer, hard_rule, stage1_choice  # noqa: E402
from generator.engine.prng import ai_rng  # noqa: E402
from generator.engine.rules import Variant  # noqa: E402
from generator.ai.solver import FX_WORK_BUDGET, WORK_BUDGET, follow_moves, follower_wins, lead_moves, split  # noqa: E402
from generator.engine.cards import DECKS  # noqa: E402
from generator.engine.rules import HIGH, deal  # noqa: E402
from generator.engine.state import HandState, Observation  # noqa: E402


def boundary(h, trump: int, leader: int, seat: int) -> int:
    """Tricks ``seat`` takes from a trick boundary with perfect play on both sides (high game)."""
    return native.exact_value(h, trump, leader, seat, seat)


def value_after(h, trump: int, p: int, leader: int, lead: int, c: int) -> int:
    """Seat ``p``'s exact tricks from here after it plays ``c`` (the other seat then plays perfectly)."""
    def settle(a: int, b: int, first: int) -> int:
        w = 1 - first if follower_wins(a, b, trump) else first
        return (w == p) + boundary(h, trump, w, p)

    h[p][c // 13] ^= 1 << (c % 13)
    try:
        if lead >= 0:
            return settle(lead, c, leader)
        best = None
        for b in follow_moves(h[1 - p], h[p], c, trump):
            h[1 - p][b // 13] ^= 1 << (b % 13)
            v = settle(c, b, p)
            h[1 - p][b // 13] ^= 1 << (b % 13)
            best = v if best is None else min(best, v)
        return best
    finally:
        h[p][c // 13] ^= 1 << (c % 13)


def perfect_reply(h, trump: int, p: int, leader: int, lead: int) -> int:
    """A card keeping seat ``p``'s exact value (one card per run; ties: the first in search order)."""
    moves = lead_moves(h[p], h[1 - p], trump) if lead < 0 else follow_moves(h[p], h[1 - p], lead, trump)
    if len(moves) == 1:
        return moves[0]
    values = [value_after(h, trump, p, leader, lead, c) for c in moves]
    return moves[values.index(max(values))]


def stage2_player(name: str) -> SearchPlayer:
    """The stage 2 of Master (``hard``: the solver with the device budget and the carried proof; hard-rule's is
    the same) or of the FX edition's Master (``hard-fx``: the solver down to the endgame tables)."""
    if name == "hard-fx":
        return SearchPlayer("hard-fx", stage1_choice, FX_WORK_BUDGET, endgame.load())
    return hard_rule()


def stage2_loss(h, trump: int, leader: int, name: str = "hard") -> tuple[int, int, int]:
    """Tricks ``name``'s stage 2 (seat 0) loses against a perfect seat 1 from this position, the most
    work units one of its decisions spent, and how many of its decisions the budget cut."""
    deck = DECKS[52]
    h = [list(h[0]), list(h[1])]
    player = stage2_player(name)
    want = boundary(h, trump, leader, 0)
    got = [0, 0]
    lead = -1
    for trick in range(1, sum(x.bit_count() for x in h[0]) + 1):
        for _ in range(2):
            p = leader if lead < 0 else 1 - leader
            if p == 0:
                hand = sum(m << (13 * s) for s, m in enumerate(h[0]))
                left = hand | sum(m << (13 * s) for s, m in enumerate(h[1]))
                obs = Observation(0, deck, trump, HIGH, hand, -1, 0, leader, lead, deck.mask & ~left, 0, 0,
                                  ((0, 0), (got[0], got[1])), trick)
                c = player.choose(obs, hand if lead < 0 or not h[0][lead // 13] else h[0][lead // 13] << (13 * (lead // 13)))
            else:
                c = perfect_reply(h, trump, 1, leader, lead)
            h[p][c // 13] ^= 1 << (c % 13)
            if lead < 0:
                lead = c
            else:
                leader = p if follower_wins(lead, c, trump) else leader
                got[leader] += 1
                lead = -1
    return want - got[0], max(player.work, default=0), sum(w >= player.budget for w in player.work)


def stage2_start(seed: int, p0: str, p1: str):
    """The stage-2 start of hand 1 of seed ``seed`` (last13, 52 cards) between ``p0`` and ``p1``."""
    variant = Variant.make(52, "last13", 0)
    state = HandState(variant.deck, variant.scoring, deal(seed, 1, variant.deck))
    rng = ai_rng(seed)
    seats = [make_player(p0, rng), make_player(p1, rng)]
    while state.stock_left:
        p = state.turn
        state.apply(seats[p].choose(state.observation(p), state.legal_mask()))
    return [split(state.hands[0]), split(state.hands[1])], state.trump, state.leader


def real_positions(count: int):
    """Stage-2 starts of hands of hard-rule vs original, seeds 1..count.

    Both players are frozen yardsticks, so the positions stay the same when Hard's stage 1 changes
    and the figure compares across changes.
    """
    return (stage2_start(seed, "hard-rule", "original") for seed in range(1, count + 1))


def _own_start(seed: int):
    return stage2_start(seed, "hard", "hard")


def own_positions(count: int, jobs: int):
    """Stage-2 starts of Master against Master, seeds 1..count: the positions Master meets in its own
    games (they move with its stage 1). `whist review` of Master's seat is held to this figure."""
    with Pool(jobs) as pool, click.progressbar(pool.imap(_own_start, range(1, count + 1)), length=count,
                                               label="Master's own stage-2 starts", file=sys.stderr) as bar:
        return list(bar)


def random_positions(count: int):
    """Random 13-card hands from a shuffled pack, a random trump suit and leader (seeded, repeatable)."""
    rnd = random.Random(16)
    for _ in range(count):
        cards = rnd.sample(range(52), 26)
        yield ([split(sum(1 << c for c in cards[:13])), split(sum(1 << c for c in cards[13:]))],
               rnd.randrange(4), rnd.randrange(2))


def _loss(job) -> tuple[int, int, int]:
    pos, name = job
    return stage2_loss(*pos, name)


def quality(count: int, jobs: int, name: str = "hard") -> list[str]:
    """``name``'s stage 2 against a perfect opponent: tricks lost per hand (hard-fx: real and random positions)."""
    lines = []
    kinds = [("real-game", real_positions(count)), ("random", random_positions(count))]
    if name == "hard":
        kinds.append(("Master-vs-Master", own_positions(count, jobs)))
    for label, positions in kinds:
        positions = [(pos, name) for pos in positions]
        with Pool(jobs) as pool, click.progressbar(pool.imap(_loss, positions), length=count,
                                                   label=f"{name} stage-2 loss, {label}", file=sys.stderr) as bar:
            results = list(bar)
        losses = [loss for loss, _, _ in results]
        budget = FX_WORK_BUDGET if name == "hard-fx" else WORK_BUDGET
        lo, hi = rate_interval(sum(losses), count)
        lines.append(f"{name} stage 2 vs a perfect opponent, {count} {label} positions: "
                     f"{sum(losses) / count:.3f} tricks lost per hand (95% CI {lo:.3f}..{hi:.3f}; "
                     f"{sum(1 for x in losses if x)} with a loss; most work in one decision "
                     f"{max(w for _, w, _ in results):,} units of {budget:,}; "
                     f"{sum(c for _, _, c in results)} decisions cut by it)")
    return lines


def _starts(seed: int) -> list:
    return list(judge_fit.rollout_starts(range(seed, seed + 1), Variant.make(52, "last13", 0)))


def judge_figures(count: int, jobs: int) -> list[str]:
    """Each edition's judge's error against exact values on ``count`` stage-2 starts that Master's rollouts
    reach in Last 13 hands the fit never saw (seeds from JUDGE_SEED), and the linear estimate's (the classic
    Master's before the judge)."""
    starts: list = []
    seed = JUDGE_SEED
    with Pool(jobs) as pool, click.progressbar(length=count, label="held-out stage-2 starts", file=sys.stderr) as bar:
        while len(starts) < count:
            for part in pool.map(_starts, range(seed, seed + 4 * jobs)):
                starts += part
                bar.update(len(part))
            seed += 4 * jobs
    starts = starts[:count]
    exact = [judge_fit.leader_tricks(st.hands(), st.trump, st.mode, st.leader) for st in starts]
    tables = endgame.load()
    judged = [judge_fit.judge_value(st, tables) - e for st, e in zip(starts, exact)]
    played = [judge_fit.judge_value(st) - e for st, e in zip(starts, exact)]
    guessed = []
    for st, e in zip(starts, exact):
        h = st.hands()
        n = sum(m.bit_count() for m in h[0])
        guessed.append(abs((n + rollout.estimate(h[st.leader], h[1 - st.leader], st.trump, True)) // 2 - e))
    return [f"the FX judge (played on to 8 tricks, then the tables) misjudges {count:,} held-out stage-2 starts "
            f"(Last 13, seeds {JUDGE_SEED}..{seed - 1}) by {sum(map(abs, judged)) / count:.3f} tricks on average "
            f"(mean signed error {sum(judged) / count:+.3f}, exact in {judged.count(0) / count:.1%})",
            f"the classic judge (played on to the end) by {sum(map(abs, played)) / count:.3f} tricks "
            f"(mean signed error {sum(played) / count:+.3f}, exact in {played.count(0) / count:.1%})",
            f"the linear estimate (the classic Master's before the judge): {sum(guessed) / count:.3f} tricks "
            f"on average"]


def fidelity(deals: int, opponents: tuple[str, ...] = ("random", "greedy", "original", "easy")) -> list[str]:
    """How often ``original`` (Club) picks the card the original game's code (``ppot``) picks.

    ``ppot`` plays ``deals`` deals (seeds 1..) in each seat against each opponent, last13 on 52 cards;
    at each of its decisions ``original`` is asked too, from the same observation.
    """
    variant = Variant.make(52, "last13", 0)
    same, total = Counter(), Counter()
    for b in opponents:
        for seed in range(1, deals + 1):
            for seat in (0, 1):
                names = ("ppot", b) if seat == 0 else (b, "ppot")
                rng = ai_rng(seed)
                players = [make_player(n, rng) for n in names]
                model = make_player("original", rng)
                state = HandState(variant.deck, variant.scoring, deal(seed, 1, variant.deck))
                while not state.is_over():
                    p, legal = state.turn, state.legal_mask()
                    obs = state.observation(p)
                    card = players[p].choose(obs, legal)
                    if p == seat:
                        kind = (obs.stage, "lead" if obs.lead < 0 else "follow")
                        total[kind] += 1
                        same[kind] += model.choose(obs, legal) == card
                    state.apply(card)
    parts = [f"stage {st} {how}s {100 * same[st, how] / total[st, how]:.1f}% of {total[st, how]}"
             for st in (1, 2) for how in ("lead", "follow")]
    n = sum(total.values())
    return [f"original picks ppot's card: {100 * sum(same.values()) / n:.1f}% of {n} decisions "
            f"(ppot vs {', '.join(opponents)}, {deals} deals each, both seats); " + "; ".join(parts)]


def arena(a: str, b: str, deals: int, jobs: int) -> list[str]:
    with click.progressbar(length=deals, label=f"{a} vs {b}", file=sys.stderr) as bar:
        def progress(it):
            for x in it:
                bar.update(1)
                yield x
        return run_arena(a, b, deals, jobs, progress=progress).lines()


# The ladder (each device level against the one below it), every device level
# against the original game's own code (ppot), every device search level
# against both PC yardsticks, and the PC expert against everything.
LADDER = (("greedy", "random"), ("original", "greedy"), ("easy", "original"), ("hard", "easy"))
YARDSTICKS = ("original-exact", "hard-exact")
PARTS = ("ladder", "ppot", "yardsticks", "expert", "fidelity", "stage2", "judge", "stage2-fx")
JUDGE_SEED = 10_001  # the judge's held-out hands: the fit's are seeds 1..judge_fit.FIT_HANDS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--hands", type=int, default=1000, help="stage-2 positions of each kind (real-game, random, Master-vs-Master)")
    ap.add_argument("--expert-deals", type=int, default=200, help="deals for each match of the (slow) PC expert")
    ap.add_argument("--fidelity-deals", type=int, default=125,
                    help="deals of ppot against each opponent, both seats, for how often original picks its card")
    ap.add_argument("--judge-starts", type=int, default=20_000, help="held-out stage-2 starts for the judge's error")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=",".join(PARTS[:-1]),  # stage2 has stage2-fx's figures too
                    help=f"comma-separated parts to run: {', '.join(PARTS)}")
    args = ap.parse_args()
    parts = args.only.split(",")
    if unknown := set(parts) - set(PARTS):
        ap.error(f"unknown part {', '.join(sorted(unknown))}: choose from {', '.join(PARTS)}")

    def deals(a: str, b: str) -> int:
        return args.expert_deals if "expert" in (a, b) else args.deals

    matches = {
        "ladder": list(LADDER),
        "ppot": [(a, "ppot") for a in DEVICE_PLAYERS],
        "yardsticks": [("easy", b) for b in YARDSTICKS]  # easy vs original is in the ladder
        + [("hard", b) for b in ("hard-rule", "original", *YARDSTICKS)],
        "expert": [("expert", b) for b in ("hard", "hard-rule", "original", *YARDSTICKS)],
    }
    figures = {
        "fidelity": lambda: fidelity(args.fidelity_deals),
        "stage2": lambda: quality(args.hands, args.jobs) + quality(args.hands, args.jobs, "hard-fx"),
        "stage2-fx": lambda: quality(args.hands, args.jobs, "hard-fx"),
        "judge": lambda: judge_figures(args.judge_starts, args.jobs),
    }
    for part in parts:
        lines = figures[part]() if part in figures else [
            line for a, b in matches[part] for line in arena(a, b, deals(a, b), args.jobs)]
        for line in lines:
            print(line, flush=True)


if __name__ == "__main__":
    main()
