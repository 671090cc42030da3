"""The computer's thinking time on the device, in exact emulator cycles.

Fast serial games bracket every ``chooseAI`` call with the markers
MARK_THINK / MARK_MOVED (generator/codegen/protocol.py, firmware/app.cpp): the search alone, for many hands.
What a player waits for adds the think hook's redraws of the table (about 5%): ``table_decisions`` replays a
hand on the table and times each search by the writes that set and clear the hook's pointer, with no
marker in the firmware (there is no flash for one). What the player waits for at the table, the pace
included, is ``press_to_turn``: the emulator frames from the press that plays a card to the next turn.
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..ai.players import DEVICE_PLAYERS, FIRST_LEVEL, make_player
from ..engine.bounded import check, read
from ..engine.cards import DECKS
from ..engine.game import play_hand
from ..engine.prng import ai_rng
from .emulator import Emulator, FxImage
from .intelhex import HEX
from .package import ELF, symbols
from ..codegen.protocol import MARK_MOVED, MARK_THINK, play_command
from ..engine.rules import Variant

CLOCK_HZ = 16_000_000
FRAME_CYCLES = CLOCK_HZ * 16 // 1000  # hw::FRAME_MS: a frame is due every 16 ms
# The table's pace in frames (firmware/table.cpp, app.cpp): a finished stage-1 trick's beat, hold and
# slide at the normal speed, its beat and hold at the fast one, and the computer's pause before its answer.
PACE = {"normal": 20 + 90 + 32, "fast": 8 + 30, "pause": 24, "pause fast": 8}
HOOK_SYMBOL = "thinkHook_"  # whist_core.cpp's think hook pointer: set around every search on the table
DATA_BASE = 0x800000  # where avr-nm puts the data space


@dataclass(frozen=True)
class Decision:
    deck: int
    stage: int
    cycles: int
    hand: int = 0  # which measured hand (hand_seed)


def play_single_hand(emu: Emulator, seed: int, deck: int, player: str, fast: bool) -> None:
    """A single last13 hand of ``player`` against itself over serial, to its end: fast (no frames) or on the table."""
    emu.serial_read()
    emu.serial_write(play_command(seed, Variant.make(deck, "last13", 0), player, player, fast=fast) + "\n")
    if not emu.run_until_serial("end winner=", max_cycles=2_000_000_000 if fast else 20_000_000_000):
        raise RuntimeError(f"seed {seed}: the hand did not finish" + ("" if fast else " on the table"))


def hand_decisions(emu: Emulator, seed: int, deck: int, player: str, hand: int = 0) -> list[Decision]:
    """Play one fast single hand of ``player`` against itself; one Decision per card played."""
    emu.markers()
    play_single_hand(emu, seed, deck, player, fast=True)
    starts = [c for v, c in emu.markers() if v in (MARK_THINK, MARK_MOVED)]
    pairs = list(zip(starts[::2], starts[1::2]))
    stage1 = DECKS[deck].hand_size * 2  # cards played while the stock lasts
    return [Decision(deck, 1 if i < stage1 else 2, end - start, hand) for i, (start, end) in enumerate(pairs)]


def check_elf(hex_path: Path, elf: Path) -> None:
    """Raises ValueError unless ``elf`` is the build of ``hex_path`` (its symbols would be another's)."""
    check(elf, ELF)  # avr-objcopy reads it: a regular file of an ELF's size
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "elf.hex"
        run = subprocess.run(["avr-objcopy", "-O", "ihex", "-R", ".eeprom", str(elf), str(out)],
                             capture_output=True, text=True)
        if run.returncode:
            raise ValueError(f"avr-objcopy {elf}: {run.stderr.strip()}")
        if out.read_bytes() != read(hex_path, HEX):
            raise ValueError(f"{elf} is not the build of {hex_path}: rebuild both with `make hex`")


def hook_address(elf: Path) -> int:
    """The data address of the core's think hook pointer (2 bytes), from the ELF's symbols."""
    for parts in symbols(elf):
        if len(parts) == 4 and HOOK_SYMBOL in parts[3] and int(parts[1], 16) == 2:
            return int(parts[0], 16) - DATA_BASE
    raise ValueError(f"{elf} has no {HOOK_SYMBOL}: not a build of this firmware")


def table_decisions(emu: Emulator, seed: int, deck: int, player: str, hook: int) -> list[int]:
    """Cycles of each decision of a single hand of ``player`` against itself played on the table.

    The game runs at the table's pace (``fast=0``), each search with the think hook that keeps the
    screen alive; a search lasts from the write that makes the hook's pointer non-zero to the one that
    clears it (setThinkHook around chooseAI in firmware/app.cpp's aiMove). Decisions made without a
    search (a single candidate) count too, as a few hundred cycles.
    """
    emu.watch([hook, hook + 1])
    emu.writes()
    play_single_hand(emu, seed, deck, player, fast=False)
    pointer = [0, 0]
    out: list[int] = []
    start = 0
    for address, value, cycle in emu.writes():
        was = pointer[0] | pointer[1]
        pointer[address - hook] = value
        now = pointer[0] | pointer[1]
        if now and not was:
            start = cycle
        elif was and not now:
            out.append(cycle - start)
    return out


def on_table(hex_path: Path, elf: Path, decisions: list[Decision], player: str = "hard",
             hands: int = 3) -> list[tuple[int, int, int]]:
    """The ``hands`` hands with the slowest decisions replayed on the table: (seed, fast, table) of the
    slowest decision of each on the table, with the same decision's fast cycles."""
    chosen = list(dict.fromkeys(d.hand for d in sorted(decisions, key=lambda d: -d.cycles)))[:hands]
    hook = hook_address(elf)
    out = []
    with Emulator(hex_path) as emu:
        emu.run_until_ready()
        for i in chosen:
            seed, deck = hand_seed(i)
            fast = [d.cycles for d in decisions if d.hand == i]
            table = table_decisions(emu, seed, deck, player, hook)
            if len(table) != len(fast):
                raise RuntimeError(f"seed {seed}: {len(table)} decisions on the table, {len(fast)} fast")
            k = max(range(len(table)), key=table.__getitem__)
            out.append((seed, fast[k], table[k]))
    return out


def hand_seed(i: int) -> tuple[int, int]:
    """Seed and deck of the i-th measured hand (0-based): spread seeds, alternating the decks."""
    return (i + 1) * 2246822519 % 2**32, (52, 28)[i % 2]


def engine_nodes(hands: int, player: str) -> list[int]:
    """The engine's node count for every decision of the same hands (0 without a search): the firmware's, node for node."""
    out: list[int] = []
    for i in range(hands):
        seed, deck = hand_seed(i)
        rng = ai_rng(seed)
        seats = [make_player(player, rng) for _ in range(2)]

        def choose(st, p):
            done = len(getattr(seats[p], "nodes", []))
            card = seats[p].choose(st.observation(p), st.legal_mask())
            nodes = getattr(seats[p], "nodes", [])
            out.append(nodes[-1] if len(nodes) > done else 0)
            return card

        play_hand(Variant.make(deck, "last13", 0), seed, 1, choose, lambda line: None)
    return out


def cycles_per_node(decisions: list[Decision], nodes: list[int], least: int = 1000) -> float:
    """Device cycles per solver node over the decisions that searched at least ``least`` nodes."""
    big = [(d.cycles, n) for d, n in zip(decisions, nodes, strict=True) if n >= least]
    return sum(c for c, _ in big) / sum(n for _, n in big) if big else 0.0


def measure(hex_path: Path, hands: int, player: str = "hard",
            progress: Callable[[], None] | None = None, fx: FxImage | None = None) -> list[Decision]:
    """``hands`` single hands, alternating the 52- and 28-card decks (``fx``: an FX edition's chip)."""
    out: list[Decision] = []
    with Emulator(hex_path, fx=fx) as emu:
        emu.run_until_ready()
        for i in range(hands):
            seed, deck = hand_seed(i)
            out += hand_decisions(emu, seed, deck, player, i)
            if progress:
                progress()
    return out


def summary(decisions: list[Decision]) -> list[str]:
    """Lines: worst and median per deck and stage, and over all."""
    def line(label: str, ds: list[Decision]) -> str:
        c = sorted(d.cycles for d in ds)
        return (f"{label}: {len(c)} decisions, median {statistics.median(c):,.0f} cycles "
                f"({statistics.median(c) / CLOCK_HZ * 1000:.1f} ms), worst {c[-1]:,} ({c[-1] / CLOCK_HZ * 1000:.0f} ms)")

    lines = [line("all", decisions)]
    for deck in (52, 28):
        for stage in (1, 2):
            ds = [d for d in decisions if d.deck == deck and d.stage == stage]
            if ds:
                lines.append(line(f"  {deck} cards, stage {stage}", ds))
    return lines


@dataclass(frozen=True)
class Wait:
    """Frames from the press that played the player's card to the next "Your turn", after a stage-1
    trick the computer won (so it leads): ``answered`` when the player's card ended the trick."""

    level: str
    fast: bool
    answered: bool
    frames: float


def press_to_turn(hex_path: Path, level: str, fast: bool, tricks: int = 20, adc_seed: int = 1,
                  fx: FxImage | None = None) -> list[Wait]:
    """At least ``tricks`` stage-1 tricks the computer wins, played on the buttons at ``level`` (Classic 52,
    the normal or the fast speed): the emulator frames from the press that plays the player's card to the
    next turn (the MARK_TURN marker), the whole pace and the computer's search included. Each game is
    left after stage 1 (pause, B twice) and a new one dealt. ``fx``: an FX edition's chip."""
    from .buttons import SCREEN, ButtonGame, Device

    n = len(DEVICE_PLAYERS)
    ai = (DEVICE_PLAYERS.index(level) - DEVICE_PLAYERS.index(FIRST_LEVEL)) % n
    out: list[Wait] = []
    with Emulator(hex_path, adc_seed=adc_seed, fx=fx) as emu:
        dev = Device(emu)
        dev.boot()
        dev.menu("settings")
        dev.change_settings({"ai": ai, "speed": int(fast)})
        dev.tap("B")
        while len(out) < tricks:
            dev.log = ""
            dev.waiting = False  # a turn left unplayed in the game before
            dev.menu("play", has_save=True)
            dev.run(5)
            if dev.screen != SCREEN["table"]:  # a saved game: the first A only warned
                dev.tap("A")
            game = ButtonGame(dev)
            game.start()
            for _ in range(DECKS[52].hand_size):
                line = game.lines[game.next]
                game.play_hand(tricks=1)
                if " win=1 " in line:
                    dev.wait_turn()
                    dev.waiting = True  # the turn is still to be played
                    frames = (dev.turn_at - dev.pressed_at) / FRAME_CYCLES
                    out.append(Wait(level, fast, line.split()[2].startswith("1:"), frames))
            dev.tap("UP")
            dev.wait_screen("pause")  # UP is kept while the computer searches; B, the table's review, is not
            dev.tap("B", 2)
            dev.wait_screen("menu")
    return out


def wait_summary(waits: list[Wait]) -> list[str]:
    """Lines: per level and speed, median and worst frames for each case."""
    lines = []
    for level in dict.fromkeys(w.level for w in waits):
        for fast in (False, True):
            for answered in (True, False):
                f = sorted(w.frames for w in waits if w.level == level and w.fast == fast and w.answered == answered)
                if f:
                    case = "you answered its lead" if answered else "you led, it answered"
                    lines.append(f"{level} {'fast' if fast else 'normal'}, {case}: {len(f)} tricks, median "
                                 f"{statistics.median(f):.0f} frames ({statistics.median(f) * 0.016:.2f} s), "
                                 f"worst {f[-1]:.0f} ({f[-1] * 0.016:.2f} s)")
    return lines
