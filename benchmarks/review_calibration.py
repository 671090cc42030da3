"""Can the coach's stage-1 figures be trusted? Planted blunders, each judged decision re-measured in 200 deals.

A stand-in person plays single hands of German Whist (52 cards, Last 13)
against Club: Master's stage-1 rule as it stood before the judge
(rollout.choose on its own stream, its rollouts ending in the estimate,
which keeps the set the same hands) and a perfect stage 2, except that now and then it spends its highest trump to win
a worthless trick (a low lead it cannot follow, or its own lead when the
face-up card is low): the planted blunders. `whist review` judges every hand;
then every planted blunder and every flagged decision is measured again over
RECHECK fresh deals of the same sampler, every candidate card in each:

- recall: of the blunders whose re-measured cost (best card's mean less the
  card played's) is at least 0.25 points, the share the review flagged;
- false flags: of the flags, the share whose re-check does not find the card
  the review named better than the card played (its mean <= 0); the share
  below 0.25 is printed too;
- coverage: of the flags, the share whose printed 95% range holds the
  re-checked figure for the same two cards (the printed range is where a
  re-measurement over 200 fresh deals falls 19 times in 20: estimate.AGAIN);
  how often a perfect 95% range of the true cost would hold it is printed
  too, to show why the printed range allows for the re-check's own noise;
- bias: the flags' mean printed cost against their mean re-checked cost.

Figures are printed, never asserted. Re-checks depend only on the hands, so
they are kept in --cache (keyed by each hand's trace) and shared by runs of
different review code.
Usage: python benchmarks/review_calibration.py [--hands 56] [--jobs 2] [--cache build/recheck.json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
import zlib
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.ai import expert, rollout  # noqa: E402
from generator.ai.hard import stage2_choice  # noqa: E402
from generator.ai.players import HUMAN, make_player  # noqa: E402
from generator.ai.estimate import deal_points  # noqa: E402
from generator.ai.review import Session  # noqa: E402
from generator.engine import trace  # noqa: E402
from generator.engine.prng import Rng, ai_rng, mix32  # noqa: E402
from generator.engine.rules import Variant, deal, hand_points  # noqa: E402
from generator.engine.state import HandState  # noqa: E402

VARIANT = Variant.make(52, "last13", 0)
RECHECK = 200  # fresh deals a judged decision is measured again in
WORTH = 0.25  # a blunder worth finding costs at least this much
PLANTS = 2  # blunders planted a hand at most
LOW_RANK = 7  # a face-up card or a lead of rank 9 or lower is not worth a top trump


def top_trump(st: HandState) -> int:
    """The seat's highest legal trump, or -1."""
    trumps = st.legal_mask() >> (13 * st.trump) & 0x1FFF
    return 13 * st.trump + trumps.bit_length() - 1 if trumps else -1


def worthless(st: HandState) -> bool:
    """A trick not worth a top trump: a low face-up card, and no lead or a low lead of a side suit."""
    low_up = st.upcard // 13 != st.trump and st.upcard % 13 <= LOW_RANK
    return low_up and (st.lead < 0 or (st.lead // 13 != st.trump and st.lead % 13 <= LOW_RANK))


def stand_in_hand(seed: int) -> tuple[list[str], list[int]]:
    """A hand's trace (seat 0 the stand-in person, seat 1 Club) and the tricks where a blunder was planted."""
    st = HandState(VARIANT.deck, VARIANT.scoring, deal(seed, 1, VARIANT.deck))
    lines = [trace.game_header(seed, VARIANT, (HUMAN, "original")), *trace.hand_header(st.deal, st.trump, st.mode)]
    own, cpu, coin = Rng(seed + 1000), make_player("original", ai_rng(seed)), random.Random(seed)
    planted: list[int] = []
    while not st.is_over():
        obs, legal = st.observation(st.turn), st.legal_mask()
        if st.turn == 1:
            c = cpu.choose(obs, legal)
        elif st.stock_left:
            c = rollout.choose(obs, legal, own, judged=False)
            top = top_trump(st)
            if top >= 0 and top != c and worthless(st) and len(planted) < PLANTS and coin.random() < 0.8:
                c = top
                planted.append(st.trick_number)
        else:
            c = stage2_choice(obs, None).card
        done = st.apply(c)
        if done:
            lines.append(trace.trick_line(done))
    tricks = st.counted_tricks()
    pts = hand_points(VARIANT.scoring, VARIANT.deck, st.mode, tricks)
    lines += [trace.score_line(tricks, pts, pts), trace.end_line(-1 if pts[0] == pts[1] else pts.index(max(pts)), pts)]
    return lines, planted


def recheck(st: HandState, seed: int) -> dict[int, float]:
    """Each candidate card's mean points over RECHECK fresh deals (shared by the candidates)."""
    obs = st.observation(0)
    cands = expert.candidates(obs, st.legal_mask())
    rules = expert.void_rules(obs)
    rng = Rng(mix32(seed * 977 + st.trick_number) ^ 0x5EC0DE)
    totals = dict.fromkeys(cands, 0)
    for _ in range(RECHECK):
        theirs, stock = expert.sample_world(obs, rules, rng)
        for c in cands:
            totals[c] += deal_points(obs, theirs, stock, c, VARIANT)
    return {c: t / RECHECK for c, t in totals.items()}


def stands_for(cands: list[int], card: int) -> int:
    """The candidate of ``card``'s run (the highest candidate of its suit not above it)."""
    return max(c for c in cands if c // 13 == card // 13 and c <= card)


def one_hand(args: tuple[int, dict]) -> dict:
    """Review one stand-in hand, and re-check its planted and flagged decisions not yet in ``cached``."""
    seed, cached = args
    lines, planted = stand_in_hand(seed)
    start = time.process_time()
    session = Session(duplicate=False)
    review = [r for n, line in enumerate(lines, 1) if (r := session.feed(n, line)) is not None][0]
    seconds = time.process_time() - start
    judged = {d.trick: d for d in review.stage1}
    out = {"seed": seed, "seconds": seconds, "planted": planted, "decisions": [], "recheck": {},
           "hand": zlib.crc32("\n".join(lines).encode())}
    reader = trace.Reader()
    hand = [h for n, line in enumerate(lines, 1) if (h := reader.feed(n, line)) is not None][0]
    st = HandState(VARIANT.deck, VARIANT.scoring, hand.state.deal)
    for c in [c for t in hand.state.history for c in (t.lead, t.follow)]:
        d = judged.get(st.trick_number) if st.turn == 0 and st.stock_left else None
        if d is not None:
            cands = expert.candidates(st.observation(0), st.legal_mask())
            rec = {"trick": d.trick, "played": stands_for(cands, d.card), "planted": d.trick in planted,
                   "flag": d.mistake, "estimate": d.lost_points, "range": list(d.interval or (0, 0)),
                   "rival": stands_for(cands, d.rival) if d.rival >= 0 else -1,
                   "sure": d.sure, "picked": d.picked, "measured": d.measured,
                   "spread": math.sqrt(d.variance * d.measured) if d.measured else None}
            if d.mistake:
                rec.update(better=stands_for(cands, d.best[0]), cost=d.lost_points)
            out["decisions"].append(rec)
            key = recheck_key(out, d.trick)
            if (rec["flag"] or rec["planted"]) and key not in cached:
                out["recheck"][key] = {str(x): v for x, v in recheck(st, seed).items()}
        st.apply(c)
    return out


def recheck_key(hand: dict, trick: int) -> str:
    """A re-check's key in the cache: the seed, the trick and the hand's trace (the stand-in plays Master's
    stage-1 rule, so a change to that rule changes the hands, and their old re-checks must not be read)."""
    return f"{hand['seed']}/{trick}/{hand['hand']:08x}"


def expected(d: dict) -> float:
    """How often an exact 95% range of the true cost, as wide as this decision's standard error makes it,
    would hold a RECHECK-deal figure that has its own noise.

    Both figures are means of the same paired difference: the review's over
    its measuring deals, the re-check's over RECHECK, so the re-check misses
    such a range by chance alone more often than one time in twenty.
    """
    if not d.get("spread"):
        return 1.0
    review = d["spread"] / math.sqrt(d["measured"])
    again = d["spread"] / math.sqrt(RECHECK)
    return math.erf(1.96 * review / math.hypot(review, again) / math.sqrt(2))


def figures(results: list[dict], cache: dict) -> list[str]:
    blunders = found = 0
    flags: list[tuple[float, float, float, float, float]] = []  # cost, lo, hi, re-checked, expected coverage
    for r in results:
        for d in r["decisions"]:
            key = recheck_key(r, d["trick"])
            means = {int(c): v for c, v in cache.get(key, {}).items()}
            if d["planted"] and max(means.values()) - means[d["played"]] >= WORTH:
                blunders += 1
                found += d["flag"]
            if d["flag"]:
                flags.append((d["cost"], *d["range"], means[d["better"]] - means[d["played"]], expected(d)))
    seconds = sorted(r["seconds"] for r in results)
    n = len(flags)
    lines = [f"{len(results)} hands, {sum(len(r['planted']) for r in results)} blunders planted, "
             f"{sum(len(r['decisions']) for r in results)} stage-1 decisions judged; review CPU seconds a hand "
             f"(no replay with Master): median {statistics.median(seconds):.2f}, worst {seconds[-1]:.2f}",
             f"recall: {found} of {blunders} blunders costing >= {WORTH} flagged "
             f"({100 * found / max(blunders, 1):.1f}%)"]
    if n:
        wrong = sum(1 for f in flags if f[3] <= 0)
        small = sum(1 for f in flags if f[3] < WORTH)
        held = sum(1 for f in flags if f[1] <= f[3] <= f[2])
        cost, real = statistics.mean(f[0] for f in flags), statistics.mean(f[3] for f in flags)
        lines += [f"false flags: {wrong} of {n} flags not better in the {RECHECK}-deal re-check "
                  f"({100 * wrong / n:.1f}%); {small} ({100 * small / n:.1f}%) re-checked below {WORTH}",
                  f"coverage: {held} of {n} printed 95% ranges hold the re-checked figure ({100 * held / n:.1f}%; "
                  f"exact 95% ranges of the true cost would hold it {100 * statistics.mean(f[4] for f in flags):.1f}% "
                  "of the time, the re-check having its own noise)",
                  f"bias: mean flagged cost {cost:.2f}, re-checked {real:.2f} (ratio {cost / real:.2f})",
                  f"shown: {sum(1 for f in flags if f[0] < WORTH)} of {n} flags measured again at under {WORTH}, "
                  f"{sum(1 for f in flags if f[1] < 0)} with a printed range reaching below 0"]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=56)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, default=Path("build/review-recheck.json"))
    ap.add_argument("--results", type=Path, default=None, help="write each hand's judged decisions here (JSON)")
    args = ap.parse_args()
    cache = json.loads(args.cache.read_text()) if args.cache.exists() else {}
    with Pool(args.jobs) as pool:
        results = pool.map(one_hand, [(seed, cache) for seed in range(1, args.hands + 1)], chunksize=1)
    for r in results:
        cache.update(r["recheck"])
    args.cache.parent.mkdir(parents=True, exist_ok=True)
    args.cache.write_text(json.dumps(cache))
    if args.results:
        args.results.write_text(json.dumps(results))
    for line in figures(results, cache):
        print(line)


if __name__ == "__main__":
    main()
