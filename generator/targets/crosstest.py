"""Cross-tests: the same seeds through the engine and the firmware in the emulator.

Seeds are spread over every deck x scoring combination and over the device's
players in both seats; every game is started with the serial `play` command
(fast) and its trace diffed with the engine's, byte for byte but for ``#``
comments.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

from ..engine.cards import DECKS
from .emulator import Backend, Emulator, FxImage
from ..engine.game import play_game
from ..ai.players import DEVICE_PLAYERS, FX_TWINS, seats
from ..codegen.protocol import play_command
from ..engine.rules import SCORINGS, Variant
from ..engine.trace import first_difference

TARGETS = (10, 25, 0, 50)
MAX_GAME_CYCLES = 4_000_000_000  # far above any game (about 10 M cycles for a fast game)


@dataclass(frozen=True)
class Case:
    seed: int
    variant: Variant
    p0: str
    p1: str

    @property
    def command(self) -> str:
        return play_command(self.seed, self.variant, self.p0, self.p1, fast=True)


def cases(count: int, players: tuple[str, ...] = DEVICE_PLAYERS, first_seed: int = 1,
          targets: tuple[int, ...] = TARGETS) -> Iterator[Case]:
    """``count`` games cycling through every deck x scoring x target x seating."""
    combos = list(itertools.product(DECKS, SCORINGS))
    seatings = list(itertools.product(players, repeat=2))
    for i in range(count):
        deck, scoring = combos[i % len(combos)]
        p0, p1 = seatings[(i // len(combos)) % len(seatings)]
        seed = (first_seed + i) * 2654435761 % 2**32  # spread over the whole u32 range
        yield Case(seed, Variant.make(deck, scoring, targets[i % len(targets)]), p0, p1)


def spread(count: int, players: tuple[str, ...] = DEVICE_PLAYERS, first_seed: int = 1,
           targets: tuple[int, ...] = TARGETS) -> list[Case]:
    """``count`` cases taken from :func:`cases` so that short runs cover everything.

    Case k is game 8k + k % 8 of cases(): any 8 consecutive cases cover every
    deck x scoring, any 4 every target, and any len(players)**2 every seating
    (with five players, 25 cases seat Easy and Hard on both sides).
    """
    combos = len(DECKS) * len(SCORINGS)
    pool = list(cases(combos * count, players, first_seed, targets))
    return [pool[combos * k + k % combos] for k in range(count)]


def device_trace(emu: Emulator, case: Case) -> list[str]:
    """Play one case on the emulated device and return its trace lines."""
    emu.serial_read()
    emu.serial_write(case.command + "\n")
    if not emu.run_until_serial(r"(end winner=|error )[^\n]*\n", regex=True, max_cycles=MAX_GAME_CYCLES):
        return emu.serial_read().decode(errors="replace").splitlines() + ["(no end line: the game did not finish)"]
    return emu.serial_read().decode(errors="replace").splitlines()


@dataclass
class Report:
    games: int = 0
    differing: int = 0
    seconds: float = 0.0
    first_failure: str = ""


def run(hex_path: Path, games: list[Case], progress: Callable[[Case, str | None], None] | None = None,
        backend: Backend | None = None, fx: FxImage | None = None) -> Report:
    """Diff the device and the engine for every case; stops at nothing, counts every difference.

    ``backend`` picks the emulator (default avr8js; emulator.backend("projectabe") for ProjectABE);
    ``fx`` gives an FX edition its flash chip; its Master is seated as hard-fx (the engine reads
    the endgame tables `make hex` wrote, the device those on its chip).
    """
    report = Report()
    start = time.perf_counter()
    with Emulator(hex_path, backend=backend, fx=fx) as emu:
        emu.run_until_ready()
        for case in games:
            if fx is not None:
                case = replace(case, p0=FX_TWINS.get(case.p0, case.p0), p1=FX_TWINS.get(case.p1, case.p1))
            want = play_game(case.seed, case.variant, seats(case.seed, (case.p0, case.p1))).lines
            diff = first_difference(want, device_trace(emu, case))
            report.games += 1
            if diff:
                report.differing += 1
                if not report.first_failure:
                    report.first_failure = f"{case.command}\n{diff}"
            if progress:
                progress(case, diff)
    report.seconds = time.perf_counter() - start
    return report
