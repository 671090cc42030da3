"""Engine speed of this tree against another revision, measured in the same run.

Runs ``whist bench``'s random play (generator.targets.bench.hands_per_second:
deal, play with RandomPlayer, trace lines formatted) for both trees in turn,
each in a fresh Python process, so load on a shared machine hits both alike.
The other revision's ``generator/`` is taken with ``git archive``; nothing is
checked out. Figures are printed, never asserted.

Usage: python benchmarks/engine_speed.py [--against ac63e84] [--rounds 5] [--seconds 2]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECKS = (52, 28)

# Run inside each tree: import its own engine and bench, print one figure per deck.
PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from generator.targets.bench import hands_per_second
from generator.engine.rules import Variant
for deck in ({decks}):
    print(hands_per_second(Variant.make(deck, "last13", 10), float(sys.argv[2])))
"""


def extract(revision: str, into: Path) -> None:
    """The revision's ``generator/`` package, unpacked into ``into``."""
    try:
        data = subprocess.run(["git", "archive", revision, "generator"], cwd=ROOT, check=True,
                              capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        sys.exit(f"error: git archive {revision} failed: {e.stderr.decode().strip()}; name a commit of this repository")
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def measure(tree: Path, seconds: float) -> list[float]:
    """Hands per second for each deck, from one fresh process using ``tree``'s code."""
    probe = PROBE.format(decks=", ".join(map(str, DECKS)))
    out = subprocess.run([sys.executable, "-c", probe, str(tree), str(seconds)], check=True,
                         capture_output=True, text=True).stdout
    return [float(x) for x in out.split()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", default="ac63e84", help="the revision to compare with")
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs of each tree")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    args = ap.parse_args()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip() or "this tree"
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp)
        extract(args.against, other)
        trees = {f"{head} (this tree)": ROOT, args.against: other}
        runs: dict[str, list[list[float]]] = {name: [] for name in trees}
        for r in range(args.rounds):
            for name, tree in trees.items():
                figures = measure(tree, args.seconds)
                runs[name].append(figures)
                print(f"round {r + 1}  {name:<22}" + "".join(f"  {d} cards {f:>8,.0f}" for d, f in zip(DECKS, figures)),
                      flush=True)
    print("median hands/s (random play, trace lines formatted, one core):")
    medians = {name: [statistics.median(run[i] for run in rs) for i in range(len(DECKS))] for name, rs in runs.items()}
    for name, m in medians.items():
        print(f"  {name:<22}" + "".join(f"  {d} cards {f:>8,.0f}" for d, f in zip(DECKS, m)))
    mine, theirs = medians.values()
    print("  speed-up              " + "".join(f"  {d} cards {a / b:>7.2f}x" for d, a, b in zip(DECKS, mine, theirs)))


if __name__ == "__main__":
    main()
