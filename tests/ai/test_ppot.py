"""``ppot`` picks the card the original Arduboy Whist's own code picks, at every decision.

The original's opponent (Press-Play-On-Tape's GermanWhist, ../shared/ppot,
BSD-3) is compiled unmodified on the PC with g++ (``-fpermissive``, as the
Arduino IDE builds, and the stub headers in tests/host/ppot) into a driver
that reads commands on stdin. Games are played by the engine with ``ppot``
in one seat or both; each ``ppot`` seat has its own opponent object in the
driver, which is fed what the original game feeds its computer player
(../shared/ppot/README.md, "What the game feeds it"): the deal, its card
leaving its hand, ``addToPrev`` of both cards after each stage-1 trick,
then the card it takes or draws, and ``setSuitOpponent`` when its stage-2
lead is not followed. The other seat is the original's "human". At every
decision the driver is asked the original's card; one run answers them all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from generator.ai.players import seats
from generator.ai.ppot import NO_CARD, TO_PPOT_SUIT, from_ppot, to_ppot
from generator.engine.cards import card_name, suit_of
from generator.engine.rules import SCORINGS, Variant, deal, game_winner, hand_points
from generator.engine.state import HandState, Trick

ROOT = Path(__file__).resolve().parents[2]
STUBS = ROOT / "tests" / "host" / "ppot"
PPOT = Path(os.environ.get("WHIST_PPOT", ROOT.parent / "shared" / "ppot"))
SOURCES = ("entities/Player.cpp", "utils/CardUtils.cpp")
FETCH = ("put the original's opponent there: Whist/src of github.com/Press-Play-On-Tape/GermanWhist "
         "at commit b4651f281c1523ab5e8950f602e9c1e264599412 (or set WHIST_PPOT to a folder holding it)")


@pytest.fixture(scope="module")
def driver(tmp_path_factory) -> Path:
    """The original's opponent and tests/host/ppot/driver.cpp, compiled once."""
    src = PPOT / "Whist" / "src"
    if not all((src / s).is_file() for s in SOURCES):
        pytest.skip(f"the original's source is not in {src}: {FETCH}")
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed: apt-get install g++")
    exe = tmp_path_factory.mktemp("ppot") / "ppot_driver"
    # -fpermissive lets CardUtils.cpp:46 keep its `static` on a member definition (a warning, as avr-gcc
    # gives); the Print.h stub makes Utils.h:78's constexpr cast one that host g++ accepts.
    subprocess.run(["g++", "-std=c++11", "-O2", "-fpermissive", "-w", "-I", str(STUBS), "-I", str(src),
                    str(STUBS / "driver.cpp"), *(str(src / s) for s in SOURCES), "-o", str(exe)], check=True)
    return exe


class Feed:
    """Plays games with the engine and writes what the original's game would tell each ``ppot`` seat."""

    def __init__(self) -> None:
        self.commands: list[str] = []
        self.picks: list[tuple[int, str, tuple[str, int, int]]] = []  # (ppot's card, where, (stage, seat, leads))

    def game(self, seed: int, variant: Variant, names: tuple[str, str]) -> None:
        players = seats(seed, names)
        mine = [p for p in (0, 1) if names[p] == "ppot"]
        totals, number = (0, 0), 0
        while True:
            number += 1
            d = deal(seed, number, variant.deck)
            state = HandState(variant.deck, variant.scoring, d)
            for p in mine:
                self.commands.append(f"R {p}")
                self.commands += [f"H {p} {to_ppot(c)}" for c in d.hands[p]]
            while not state.is_over():
                p = state.turn
                card = players[p].choose(state.observation(p), state.legal_mask())
                if p in mine:
                    self.ask(state, p, card, f"seed {seed} {'/'.join(names)} {variant.deck.size} cards, "
                                             f"hand {number}, trick {state.trick_number}")
                trick = state.apply(card)
                if trick:
                    self.after(trick, mine)
            pts = hand_points(variant.scoring, variant.deck, state.mode, state.counted_tricks())
            totals = (totals[0] + pts[0], totals[1] + pts[1])
            if game_winner(variant.target, totals) is not None:
                return

    def ask(self, state: HandState, p: int, card: int, where: str) -> None:
        led = NO_CARD if state.lead < 0 else to_ppot(state.lead)
        trumps = TO_PPOT_SUIT[state.trump]
        if state.stock_left:
            self.commands.append(f"1 {p} {trumps} {to_ppot(state.stock[state.pos])} {led}")
        else:
            self.commands.append(f"2 {p} {trumps} {led}")
        kind = ("stage 1" if state.stock_left else "stage 2", p, state.lead < 0)
        self.picks.append((to_ppot(card), f"{where}: ppot played {card_name(card)}", kind))
        self.commands.append(f"X {p} {to_ppot(card)}")

    def after(self, t: Trick, mine: list[int]) -> None:
        for p in mine:
            own, other = (t.lead, t.follow) if t.leader == p else (t.follow, t.lead)
            if t.take >= 0:  # stage 1: both cards into its memory, then the card it takes or draws
                self.commands += [f"P {p} {to_ppot(other)}", f"P {p} {to_ppot(own)}",
                                  f"H {p} {to_ppot(t.take if t.winner == p else t.draw)}"]
            elif t.leader == p and suit_of(t.follow) != suit_of(t.lead):
                self.commands.append(f"V {p} {TO_PPOT_SUIT[suit_of(t.lead)]}")


# Every opponent the engine has that is quick in Python (and ppot itself: both seats at once), ppot in
# either seat, over both packs, every scoring, single hands and games to 10.
OPPONENTS = ("random", "greedy", "original", "easy", "ppot")


def games():
    scorings = list(SCORINGS)
    for i in range(220):
        other = OPPONENTS[i % len(OPPONENTS)]
        names = ("ppot", other) if i // len(OPPONENTS) % 2 == 0 else (other, "ppot")
        deck = 28 if i % 7 == 3 else 52
        yield 1000 + 7919 * i, Variant.make(deck, scorings[i % 4], 10 if i % 3 == 0 else 0), names


def test_ppot_picks_the_originals_card_at_every_decision(driver):
    feed = Feed()
    for seed, variant, names in games():
        feed.game(seed, variant, names)
    feed.game(5, Variant.make(52, "last13", 0), ("hard", "ppot"))  # and once against Master
    out = subprocess.run([str(driver)], input="\n".join(feed.commands) + "\n", capture_output=True, text=True,
                         check=True).stdout.split()
    assert len(out) == len(feed.picks)
    wrong = [f"{where}, the original {card_name(from_ppot(card)) if card != NO_CARD else 'no card'}"
             for (want, where, _), card in zip(feed.picks, map(int, out)) if card != want]
    kinds = Counter(kind for _, _, kind in feed.picks)
    print(f"{len(feed.picks)} decisions compared, {len(feed.picks) - len(wrong)} the same:", dict(kinds))
    assert not wrong, f"{len(wrong)} of {len(feed.picks)} decisions differ, first: " + "; ".join(wrong[:5])
    # both stages, both seats, leading and following
    assert len(kinds) == 8 and min(kinds.values()) > 500
