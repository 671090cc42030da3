"""Engine benchmarks: figures printed, never asserted (make bench)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from ..engine.game import play_hand
from ..engine.prng import ai_rng
from ..ai.basic import RandomPlayer
from ..engine.rules import Variant
from .emulator import CYCLES_PER_MS, Emulator, FxImage, Press


THINK_HANDS = 26  # 13 of each deck by default; make bench measures 400 (200 of each)
PACE_TRICKS = 20  # stage-1 tricks the computer wins, per level and speed, in the table's wait


def hands_per_second(variant: Variant, seconds: float) -> float:
    """Deal and play random hands for about ``seconds``; return hands per second."""
    player = RandomPlayer(ai_rng(1))

    def choose(state, p):
        return player.choose(state.observation(p), state.legal_mask())

    def quiet(_line: str) -> None:
        pass

    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(50):
            n += 1
            play_hand(variant, n, 1, choose, quiet)
    return n / (time.perf_counter() - start)


def review_times(variant: Variant, hands: int, opponent: str = "hard") -> list[tuple[float, bool]]:
    """CPU seconds (one core) to review each of ``hands`` single hands of a person against ``opponent``, and
    whether the hand was low. The person is the screenshots' stand-in (greedy cards): a weak player's hand
    is the dearer to review, since more of its cards are compared again in fresh deals."""
    from ..ai.players import seats
    from ..ai.review import Session
    from ..engine.game import play_game
    from ..engine.rules import LOW
    from .buttons import Human

    out = []
    for seed in range(1, hands + 1):
        lines = play_game(seed, variant, seats(seed, (Human(), opponent))).lines
        session = Session()
        start = time.process_time()
        reviews = [r for n, line in enumerate(lines, 1) if (r := session.feed(n, line)) is not None]
        out.append((time.process_time() - start, reviews[0].mode == LOW))
    return out


def review_speed(hands: int, echo: Callable[[str], None]) -> None:
    """whist review's time a hand, the stage-1 estimates and the replay with Master included."""
    echo(f"whist review, a hand of a person against Master reviewed (CPU seconds on one core, {hands} hands each):")
    for deck, scoring in ((52, "last13"), (28, "last13"), (52, "every"), (52, "highlow")):
        times = review_times(Variant.make(deck, scoring, 0), hands)
        for low in (False, True):
            xs = sorted(t for t, is_low in times if is_low == low)
            if xs:
                kind = f"{deck} cards, {scoring}" + (", low hands" if low else ", high hands" if scoring == "highlow" else "")
                echo(f"  {kind:<28} median {xs[len(xs) // 2]:.2f} s, worst {xs[-1]:.2f} s, "
                     f"{sum(1 for x in xs if x > 3)} of {len(xs)} over 3 s")


def emulators(seconds: float, echo: Callable[[str], None], hex_path: str) -> None:
    """Both emulators side by side on the same hex and the same games: speed and cross-test games per minute."""
    from . import crosstest
    from .emulator import EmulatorError, backend, measure_speed

    quick = list(crosstest.cases(40, players=("random", "greedy")))
    mixed = crosstest.spread(25)  # every seating of every device player, Easy and Hard on both seats
    echo("emulators, same hex and games (16 M cycles/s = real time; games per minute of the cross-test):")
    echo(f"  {'back-end':<11} {'M cycles/s':>10} {'random/greedy (40)':>19} {'every seating (25)':>19}")
    for name in ("avr8js", "projectabe"):
        try:
            chosen = backend(name)
        except EmulatorError as e:
            echo(f"  {name:<11} skipped: {e}")
            continue
        speed = measure_speed(hex_path, seconds, chosen) / 1e6
        figures = []
        for games in (quick, mixed):
            report = crosstest.run(Path(hex_path), games, backend=chosen)
            figures.append(f"{60 * report.games / report.seconds:,.0f}" + (f" ({report.differing} DIFFER)" if report.differing else ""))
        echo(f"  {name:<11} {speed:>10.1f} {figures[0]:>19} {figures[1]:>19}")


FRAME_MS = 16
# The busiest screens: a computer game at the table's pace (13 cards in hand, the trick, the panel),
# and the How to play page (the most text on one screen).
TABLE_GAME = "play seed=3 deck=52 scoring=last13 target=0 p0=random p1=random fast=0"
RULES_PRESSES = ("A", "DOWN", "DOWN", "DOWN", "DOWN", "A")


def frame_busy(hex_path: Path, fx: FxImage | None, scene: str, frames: int = 600) -> float:
    """Milliseconds of each frame the CPU is busy (not asleep waiting for the next) on ``scene``
    ("table" or "rules"), in the cycle-exact avr8js: what is left of the 16 ms is the margin."""
    with Emulator(hex_path, fx=fx) as emu:
        emu.run_until_ready()
        if scene == "table":
            emu.serial_write(TABLE_GAME + "\n")
            emu.run_frames(30)
        else:
            emu.run_frames(30)
            for button in RULES_PRESSES:
                emu.play(10, [Press(button, 0, 5)])
        before = emu.status()
        emu.run_frames(frames)
        after = emu.status()
    busy = (after["cycles"] - before["cycles"]) - (after["asleep"] - before["asleep"])
    return busy / (after["frames"] - before["frames"]) / CYCLES_PER_MS


def after_first_boot(fx: FxImage) -> FxImage:
    """The chip as the FX edition's first boot leaves it in avr8js's development layout: its whole data
    checked, the mark in its save block (fxdata.checked_save), so a boot takes a later boot's time."""
    from ..codegen import fxdata

    page = fxdata.CHIP_PAGES - (-(-len(fx.data) // fxdata.PAGE) + -(-len(fx.save) // fxdata.SECTOR) * 16)
    return FxImage(fx.device, fx.data, fxdata.checked_save(fx.data, page, len(fx.save)))


def fx_boot(hex_path: str, echo: Callable[[str], None]) -> None:
    """Cycles from power-on to the ready line of the FX edition (the package beside the classic hex): its
    first boot after an upload, which reads the whole data image (fx::verify), and a later one."""
    from .arduboyfile import read

    package = Path(hex_path).parent / "ArduboyFX" / "WhistFX.arduboy"
    if not package.exists():
        return
    program = read(package)
    cycles = []
    for fx in (program.fx, after_first_boot(program.fx)):
        with Emulator(package.parent / program.name, fx=fx) as emu:
            emu.run_until_ready(max_cycles=20 * 16_000_000)
            cycles.append(emu.status()["cycles"])
    echo(f"FX edition, power-on to ready (avr8js): the first boot after an upload {cycles[0]:,} cycles "
         f"({cycles[0] / CYCLES_PER_MS / 1000:.2f} s: all {len(program.fx.data):,} B of data checked), a later "
         f"boot {cycles[1]:,} cycles ({cycles[1] / CYCLES_PER_MS:.0f} ms)")


def frame_budget(hex_path: str, echo: Callable[[str], None]) -> None:
    """Each edition's busy time a frame on the busiest screens (the FX edition's from its package beside the hex)."""
    from .arduboyfile import read

    package = Path(hex_path).parent / "ArduboyFX" / "WhistFX.arduboy"
    editions = [("classic", Path(hex_path), None)]
    if package.exists():
        program = read(package)
        fx_hex = Path(hex_path).parent / "ArduboyFX" / program.name
        editions.append(("FX", fx_hex, after_first_boot(program.fx)))
    echo(f"each frame's busy time (ms of the {FRAME_MS} ms frame, avr8js; the FX edition reads its art and texts "
         "from the chip):")
    for name, path, fx in editions:
        table, rules = (frame_busy(path, fx, scene) for scene in ("table", "rules"))
        echo(f"  {name:<8} the table {table:.2f} ms, How to play {rules:.2f} ms")


FX_THINK_SHARE = 4  # the FX edition's Master plays a quarter as many hands: each reads the chip in avr8js


def fx_think(hex_path: str, hands: int, echo: Callable[[str], None]) -> None:
    """The FX edition's Master (hard-fx, reading the endgame tables from the chip) against itself:
    its thinking time, stage 2 apart (the package beside the classic hex, as frame_budget finds it)."""
    from . import thinktime
    from .arduboyfile import read

    package = Path(hex_path).parent / "ArduboyFX" / "WhistFX.arduboy"
    if not package.exists():
        return
    program = read(package)
    echo(f"device thinking time, FX edition, hard-fx vs hard-fx, {hands} single hands (both decks, both stages; "
         "stage 2 searched down to the endgame tables on the chip):")
    decisions = thinktime.measure(package.parent / program.name, hands, "hard-fx", fx=after_first_boot(program.fx))
    for line in thinktime.summary(decisions):
        echo("  " + line)


def tables_time(echo: Callable[[str], None]) -> None:
    """How long the endgame tables take to make from scratch (a build reads them from the cache after)."""
    from ..ai import endgame

    start = time.perf_counter()
    data = endgame.compute()
    echo(f"endgame tables (K = {endgame.K}, high and low games): {len(data):,} B, generated in "
         f"{time.perf_counter() - start:.1f} s on one core")


def run_bench(seconds: float, echo: Callable[[str], None], hex_path: str | None = None,
              think_hands: int = THINK_HANDS, elf_path: str | None = None, review_hands: int = 0) -> None:
    if hex_path:  # before the long runs, not after them
        from .intelhex import HexError, parse

        try:
            parse(Path(hex_path).read_text("latin-1"))
        except HexError as e:
            raise ValueError(f"{hex_path}: not an Intel HEX program ({e}); give a .hex built by 'make hex'") from None
    if hex_path and elf_path:
        from .thinktime import check_elf

        check_elf(Path(hex_path), Path(elf_path))
    for deck in (52, 28):
        v = Variant.make(deck, "last13", 10)
        echo(f"engine: random play, {deck}-card deck: {hands_per_second(v, seconds):,.0f} hands/s (one core, trace lines formatted)")
    if review_hands:
        review_speed(review_hands, echo)
    if hex_path:
        tables_time(echo)
        emulators(seconds, echo, hex_path)
        frame_budget(hex_path, echo)
        fx_boot(hex_path, echo)
        from . import thinktime

        echo("the table's wait: frames of 16 ms from the press that plays a card to the next 'Your turn', after "
             f"a stage-1 trick the computer wins and so leads (Classic 52, {PACE_TRICKS} tricks or more each; "
             f"the pace alone: {thinktime.PACE['normal']} frames at normal speed when your card ends the trick, "
             f"{thinktime.PACE['fast']} fast, plus {thinktime.PACE['pause']} ({thinktime.PACE['pause fast']} fast) "
             "before its answer when you lead):")
        for level in ("hard", "original"):
            for fast in (False, True):
                for line in thinktime.wait_summary(thinktime.press_to_turn(Path(hex_path), level, fast, PACE_TRICKS)):
                    echo("  " + line)

        for player in ("hard", "easy"):
            echo(f"device thinking time, {player} vs {player}, {think_hands} single hands (both decks, both stages):")
            decisions = thinktime.measure(Path(hex_path), think_hands, player)
            for line in thinktime.summary(decisions):
                echo("  " + line)
            cpn = thinktime.cycles_per_node(decisions, thinktime.engine_nodes(think_hands, player))
            if cpn:
                echo(f"  solver: {cpn:,.0f} cycles a node ({thinktime.CLOCK_HZ / cpn:,.0f} nodes/s) "
                     "over the decisions of 1,000 nodes or more")
            if elf_path and player == "hard":
                echo("  on the table, the think hook's redraws included (the 3 hands with the slowest decisions):")
                for seed, fast, table in thinktime.on_table(Path(hex_path), Path(elf_path), decisions, player):
                    echo(f"    seed {seed}: slowest {table:,} cycles ({table / thinktime.CLOCK_HZ * 1000:.0f} ms), "
                         f"{fast:,} fast (+{table / fast - 1:.1%})")
        fx_think(hex_path, max(1, think_hands // FX_THINK_SHARE), echo)
