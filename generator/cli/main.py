"""The ``whist`` command line: one click group, one small function per command."""

from __future__ import annotations

import errno
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .. import __version__
from ..ai.players import PLAYERS
from ..engine.rules import FIRST_TARGET, MAX_TARGET, SCORINGS
from .terminal import FIRST, LEVELS

if TYPE_CHECKING:
    from ..engine.bounded import Kind
    from ..targets.emulator import FxImage

U32 = click.IntRange(0, 0xFFFFFFFF)


def variant_options(f):
    """The options every game-playing command shares, with the same meaning everywhere."""
    f = click.option("--p1", type=click.Choice(sorted(PLAYERS)), default="greedy", show_default=True, help="Player 1.")(f)
    f = click.option("--p0", type=click.Choice(sorted(PLAYERS)), default="greedy", show_default=True, help="Player 0.")(f)
    return rules_options(f)


def rules_options(f, target: int = 10):
    """The variant's options: pack, scoring, target (the serial protocol's default; a game in the terminal
    starts from the device's first setting, FIRST_TARGET)."""
    f = click.option("--target", type=click.IntRange(0, MAX_TARGET), default=target, show_default=True,
                     help="Points to win the game (10, 25, 50...); 0 plays a single hand.")(f)
    f = click.option("--scoring", type=click.Choice(list(SCORINGS)), default="last13", show_default=True,
                     help="last13: stage-2 tricks over 6; every: all tricks over 13; diff: the difference; "
                          "highlow: red trump card = most tricks wins, black = fewest.")(f)
    f = click.option("--deck", type=click.Choice(["52", "28"]), default="52", show_default=True,
                     help="52: classic German Whist; 28: Small Whist (8 to A).")(f)
    return f


def emulator_options(f):
    """--emulator, --projectabe DIR, --any-build: which emulator runs the hex (docs/emulator.md)."""
    f = click.option("--any-build", is_flag=True,
                     help="Accept a ProjectABE build whose sha256 differs from the pinned one.")(f)
    f = click.option("--projectabe", "projectabe_dir", metavar="DIR", default=None,
                     help="ProjectABE folder (app.js, layouts/Sim.html); default: $WHIST_PROJECTABE, "
                          "../shared/projectabe, then the cache of 'whist projectabe fetch'.")(f)
    f = click.option("--emulator", type=click.Choice(["avr8js", "projectabe"]), default="avr8js", show_default=True,
                     help="avr8js: our cycle-counted harness; projectabe: ProjectABE's own code, as players run it.")(f)
    return f


def arduboy_option(f):
    """--arduboy FILE: run a .arduboy package's first binary, with its FX data and save on the emulated chip."""
    return click.option("--arduboy", "arduboy_file", metavar="FILE", default=None,
                        help="Run this .arduboy package instead of a hex: its first binary, with its flash data "
                             "and save on the emulated FX chip.")(f)


@contextmanager
def firmware(hex_path: str | None, arduboy_file: str | None) -> Iterator[tuple[Path, FxImage | None]]:
    """The hex to run and its FxImage (or None): ``hex_path``, or the package's hex in a temporary file."""
    from ..targets.arduboyfile import ArduboyFileError, read

    if arduboy_file is None:
        yield Path(hex_path), None
        return
    try:
        program = read(arduboy_file)
    except ArduboyFileError as e:
        fail(e)
    from ..targets.emulator import EmulatorError

    with tempfile.TemporaryDirectory(prefix="whist-") as folder:
        hex_file = Path(folder) / Path(program.name).name
        hex_file.write_bytes(program.hex.encode("ascii"))
        try:
            yield hex_file, program.fx
        except EmulatorError as e:  # named as the user gave it, not as the temporary file
            raise EmulatorError(str(e).replace(str(hex_file), f"{arduboy_file} ({program.name})")) from None


def chosen_backend(emulator: str, projectabe_dir: str | None, any_build: bool):
    from ..targets.emulator import EmulatorError, backend

    try:
        return backend(emulator, projectabe_dir, any_build)
    except EmulatorError as e:
        fail(e)


class Whist(click.Group):
    """The command group; an OSError no command expected (a path it cannot write,
    a full disk under stdout) still ends as one line and exit status 1, and so do
    missing endgame tables wherever a command seats ``hard-fx``."""

    def invoke(self, ctx: click.Context):
        from ..ai.endgame import TablesError

        try:
            result = super().invoke(ctx)
        except TablesError as e:
            fail(e)
        sys.stdout.flush()  # a full disk shows here, inside main(), not at exit
        return result

    def main(self, *args, **kwargs):
        try:
            return super().main(*args, **kwargs)
        except OSError as e:
            if e.filename is None:  # stdout itself: nothing more may be written there
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                fail(f"cannot write the output ({e.strerror or e}); "
                     + ("free some disk space or " if e.errno == errno.ENOSPC else "")
                     + "send it to another file")
            fail(f"{e.filename}: {(e.strerror or str(e)).lower()}; check the path and that it may be written")


@click.group(cls=Whist, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="whist")
def main() -> None:
    """German Whist for the Arduboy: reference engine, firmware generator and tools.

    \b
    whist trace --seed 7            print the trace of an AI-vs-AI game
    whist replay FILE               check a trace against the rules
    whist play                      play against the engine in the terminal
    whist review FILE               where a hand was lost (or live: whist review)
    whist bench                     engine speed
    """


@main.command()
@click.option("--seed", type=U32, required=True, help="Game seed (deal number), 0..4294967295.")
@variant_options
@click.option("--port", metavar="PORT", default=None,
              help="Also play the game on an Arduboy on this serial port and diff its trace with the engine's.")
def trace(seed: int, deck: str, scoring: str, target: int, p0: str, p1: str, port: str | None) -> None:
    """Print the trace v1 of a whole game between two computer players (docs/trace.md).

    With --port, the same game is played on a device running Whist (the
    `play` command over USB serial) and the two traces are compared: exit 0
    if they are identical, 1 with the first differing line otherwise.
    """
    from ..ai.players import seats
    from ..engine.game import play_game
    from ..engine.rules import Variant

    variant = Variant.make(int(deck), scoring, target)
    if port is None:
        play_game(seed, variant, seats(seed, (p0, p1)), emit=click.echo)
        return
    from ..targets.device import DeviceError, run_trace
    from ..codegen.protocol import play_command
    from ..engine.trace import first_difference

    want = play_game(seed, variant, seats(seed, (p0, p1))).lines
    try:
        got = run_trace(port, play_command(seed, variant, p0, p1, fast=True))
    except DeviceError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(1)
    diff = first_difference(want, got)
    if diff:
        click.echo(diff, err=True)
        sys.exit(1)
    click.echo(f"identical: {len(want)} trace lines from the engine and from {port}")


@main.command()
@click.argument("file")
def replay(file: str) -> None:
    """Check a trace FILE ('-' for stdin) against the rules; report the first wrong line."""
    from ..engine.bounded import InputError, lines
    from ..engine.trace import TRACE, TraceError, replay as check

    name = "standard input" if file == "-" else file
    try:
        result = check(lines(file, TRACE))
    except TraceError as e:
        fail(f"{name}: {e}")
    except InputError as e:
        fail(e)
    except UnicodeDecodeError:
        fail(f"{name}: not a text file; give a trace written by 'whist trace'")
    w = "draw" if result.winner < 0 else f"player {result.winner}"
    click.echo(f"ok: {result.hands} hands, {result.tricks} tricks, winner {w}, total {result.totals[0]},{result.totals[1]}")


@main.command()
@click.argument("trace", required=False)
@click.option("--port", metavar="PORT", default=None,
              help="Listen to the Arduboy on this serial port (found by USB id when no TRACE or --emulator is given).")
@click.option("--emulator", type=click.Choice(["avr8js", "projectabe"]), is_flag=False, flag_value="avr8js",
              default=None, help="Listen to the emulator instead (avr8js if no value), running --hex with --press.")
@click.option("--hex", "hex_path", default=None,
              help="With --emulator: the firmware to run (default: distributable/Whist.hex).")
@click.option("--press", default="", metavar="SCHEDULE",
              help='With --emulator: buttons by frame, as for whist emulate ("A@60,RIGHT@90-120").')
@click.option("--frames", type=click.IntRange(1), default=None, help="With --emulator: frames to run (default: until Ctrl-C).")
@click.option("--projectabe", "projectabe_dir", metavar="DIR", default=None, help="As for whist emulate.")
@click.option("--any-build", is_flag=True, help="As for whist emulate.")
@click.option("--seat", "seat_text", metavar="0|1", default=None,
              help="The seat to review (default: the one played on the buttons); a computer's seat works too.")
@click.option("--json", "as_json", is_flag=True, help="Each hand's review as one line of JSON (and the session's summary).")
@click.option("--no-master", is_flag=True, help="Leave out the replay of the deal with Master (faster).")
@click.option("--png", "png_dir", metavar="DIR", default=None,
              help="Also draw each mistake's position as the device shows its table, one PNG a mistake, into DIR.")
def review(trace: str | None, port: str | None, emulator: str | None, hex_path: str | None, press: str,
           frames: int | None, projectabe_dir: str | None, any_build: bool, seat_text: str | None, as_json: bool,
           no_master: bool, png_dir: str | None) -> None:
    """Where a hand was lost: each hand of TRACE ('-' for stdin), or live from the Arduboy, reviewed.

    \b
    For the seat played on the buttons (or --seat): stage 2 exactly (every
    trick a card lost against perfect play, and the line that keeps it),
    stage 1 estimated over sampled deals (the stage's loss, and the cards
    that cost a quarter of a point or more), and the same deal played by
    Master in that seat against the same opponent. Several hands end with a
    summary. Live (--port, or no TRACE): play on the Arduboy; each hand's
    review is printed as soon as the hand ends, until Ctrl-C. See docs/review.md.
    """
    from ..ai.review import ReviewError, Session
    from ..ai.summary import Summary
    from ..engine.bounded import InputError
    from .review import render, render_summary
    from .table import can_show_signs

    if trace is not None and (port or emulator):
        raise click.UsageError("give a TRACE or a live source (--port, --emulator), not both")
    if seat_text is not None and seat_text not in ("0", "1"):
        fail(f"--seat {seat_text}: there are two seats, 0 and 1 (the trace's p0 and p1)")
    seat = None if seat_text is None else int(seat_text)
    source = open_trace(trace) if trace is not None else None
    if png_dir is not None:
        output_folder(Path(png_dir), "--png")
    signs = can_show_signs()
    session = Session(seat, duplicate=not no_master, demos=trace is None)
    summary = Summary()

    def show(got) -> None:
        if isinstance(got, str):
            click.echo(f"note: {got}", err=True)
            return
        for line in render(got, as_json, signs, explain_range=summary.hands == 0):
            click.echo(line)
        summary.add(got)
        if png_dir is not None:
            from .picture import draw_mistakes

            for path in draw_mistakes(got, Path(png_dir)):
                click.echo(f"drew {path}", err=True)
        sys.stdout.flush()

    def ended() -> None:
        """A session of several hands ends with its summary."""
        if summary.hands > 1:
            for line in render_summary(summary, as_json):
                click.echo(line)

    def kept() -> str:
        n = session.reviewed
        return f"; {n} hand{'s' if n != 1 else ''} reviewed above" if n else ""

    if source is not None:
        try:
            for n, line in enumerate(source, 1):
                got = session.feed(n, line)
                if got is not None:
                    show(got)
            session.close()
        except ReviewError as e:
            ended()
            fail(f"{trace}: {e}{kept()}")
        except InputError as e:
            ended()
            fail(f"{e}{kept()}")
        except UnicodeDecodeError:
            fail(f"{trace}: not a text file; give a trace written by 'whist trace' or sent by the device")
        ended()
        return
    try:
        listen(session, show, kept, port, emulator, hex_path, press, frames, projectabe_dir, any_build)
    finally:
        ended()


def open_trace(name: str):
    """The trace's lines to review ('-': standard input), or one line on what is wrong with the file."""
    from dataclasses import replace

    from ..engine.bounded import InputError, lines
    from ..engine.trace import TRACE

    try:
        return lines(name, replace(TRACE, fix=TRACE.fix + ", or no file to listen to the Arduboy"))
    except InputError as e:
        fail(e)


def listen(session, show, kept, port: str | None, emulator: str | None, hex_path: str | None, press: str,
           frames: int | None, projectabe_dir: str | None, any_build: bool) -> None:
    """whist review's live half: a device (or the emulator) until Ctrl-C, each hand reviewed as it ends."""
    from contextlib import ExitStack

    from ..ai.review import ReviewError
    from ..engine.bounded import InputError
    from ..targets.emulator import Emulator, EmulatorError, parse_schedule
    from ..targets.intelhex import HEX
    from ..targets.live import (Listener, LiveError, Vanished, emulator_chunks, find_port, load_games, open_port,
                                port_chunks, remember)

    session.known = load_games()
    with ExitStack() as stack:
        try:
            if emulator:
                presses = parse_schedule(press)
                hex_path = hex_path or "distributable/Whist.hex"
                readable(hex_path, HEX, "build it with 'make hex' or give --hex")
                emu = stack.enter_context(Emulator(hex_path, backend=chosen_backend(emulator, projectabe_dir, any_build)))
                source, chunks = "the emulator", emulator_chunks(emu, presses, frames)
            else:
                source = port or find_port()
                chunks = port_chunks(open_port(source))
                click.echo(f"Listening to {source}: play on the Arduboy; each hand is reviewed when it ends "
                           "(Ctrl-C stops).", err=True)
            listener = Listener(session, source)
            for chunk in chunks:
                for got in listener.feed(chunk):
                    show(got)
                    if session.saved:
                        remember(session.saved)
        except KeyboardInterrupt:
            click.echo(f"Stopped: {session.reviewed} hand{'s' if session.reviewed != 1 else ''} reviewed.", err=True)
        except Vanished as e:
            cut = session.cut
            during = f" during {cut}, which is not reviewed (a hand is sent only when it ends)" if cut else ""
            fail(f"{e}{during}{kept()}; reconnect it and run whist review again")
        except LiveError as e:
            fail(e)
        except ReviewError as e:
            fail(f"{source}: {e}{kept()}")
        except InputError as e:  # a line longer than any trace's: not Whist sending
            fail(f"{e}{kept()}")
        except (EmulatorError, ValueError) as e:
            fail(e)


@main.command()
@click.option("--seed", type=U32, default=None, help="Deal number to play (random if omitted).")
@lambda f: rules_options(f, target=FIRST_TARGET)
@click.option("--level", type=click.Choice(LEVELS), default=FIRST, show_default=True,
              help="The computer's level, as on the device: " + "; ".join(
                  f"{name}: {hint}" for name, (_, hint) in LEVELS.items()) + ".")
@click.option("--expert", is_flag=True, help="Play Expert instead, a level only this PC has (slower, stronger).")
def play(seed: int | None, deck: str, scoring: str, target: int, level: str, expert: bool) -> None:
    """Play a game in the terminal against the computer."""
    from .terminal import run

    run(seed, int(deck), scoring, target, "expert" if expert else level)


@main.command()
@click.option("--seconds", type=click.FloatRange(0.1, 600), default=2.0, show_default=True, help="Time per figure.")
@click.option("--hex", "hex_path", default=None,
              help="Also measure this firmware in both emulators (cycles/s, cross-test games per minute).")
@click.option("--think-hands", type=click.IntRange(2, 10_000), default=26, show_default=True,
              help="Single hands of each AI level against itself for the thinking time (alternating the decks).")
@click.option("--elf", "elf_path", default=None,
              help="The ELF the --hex was built from (build/avr/Whist.elf): the slowest hands are also "
                   "replayed on the table, the think hook's redraws included.")
@click.option("--review-hands", type=click.IntRange(0, 10_000), default=0, show_default=True,
              help="Also time whist review on this many hands of each variant (one core).")
def bench(seconds: float, hex_path: str | None, think_hands: int, elf_path: str | None, review_hands: int) -> None:
    """Print benchmark figures: engine hands/s, and with --hex both emulators side by side and the thinking time."""
    from ..targets.bench import run_bench
    from ..targets.emulator import EmulatorError
    from ..targets.intelhex import HEX
    from ..targets.package import ELF, BuildError

    readable(hex_path, HEX)
    readable(elf_path, ELF)
    try:
        run_bench(seconds, click.echo, hex_path, think_hands, elf_path, review_hands)
    except (EmulatorError, BuildError, ValueError) as e:
        fail(e)


@main.command()
@click.option("--games", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="Games to compare, spread over every deck, scoring, target and seating.")
@click.option("--hex", "hex_path", default=None,
              help="Firmware to run in the emulator (default: distributable/Whist.hex).")
@arduboy_option
@click.option("--first-seed", type=click.IntRange(0), default=1, show_default=True, help="Index of the first game.")
@click.option("--players", default=None, help="Comma-separated device players to seat (default: all of them).")
@click.option("--single-hand", is_flag=True, help="Play single hands (target 0) instead of cycling the targets.")
@emulator_options
def crosstest(games: int, hex_path: str | None, arduboy_file: str | None, first_seed: int, players: str | None,
              single_hand: bool, emulator: str, projectabe_dir: str | None, any_build: bool) -> None:
    """Play the same seeds in the engine and in the emulated firmware and diff the traces."""
    from ..targets import crosstest as ct
    from ..targets.emulator import EmulatorError
    from ..targets.intelhex import HEX
    from ..ai.players import DEVICE_PLAYERS

    if hex_path and arduboy_file:
        raise click.UsageError("give --hex or --arduboy, not both")
    seats = tuple(players.split(",")) if players else DEVICE_PLAYERS
    unknown = [p for p in seats if p not in DEVICE_PLAYERS]
    if unknown:
        raise click.BadParameter(f"{', '.join(unknown)}: not a device player ({', '.join(DEVICE_PLAYERS)})",
                                 param_hint="--players")
    cases = list(ct.cases(games, players=seats, first_seed=first_seed, targets=(0,) if single_hand else ct.TARGETS))
    chosen = chosen_backend(emulator, projectabe_dir, any_build)
    hex_path = hex_path or "distributable/Whist.hex"
    if not arduboy_file:
        readable(hex_path, HEX, "build it with 'make hex' or give --hex or --arduboy")
    try:
        with firmware(hex_path, arduboy_file) as (hex_file, fx), \
                click.progressbar(length=len(cases), label=f"cross-test ({emulator})", file=sys.stderr) as bar:
            report = ct.run(hex_file, cases, lambda case, diff: bar.update(1), backend=chosen, fx=fx)
    except EmulatorError as e:
        fail(e)
    click.echo(f"{emulator}: {report.games} games, {report.differing} differing in {report.seconds:,.0f} s, "
               f"{report.games / report.seconds:.1f} games/s ({60 * report.games / report.seconds:,.0f} per minute)")
    if report.differing:
        click.echo(report.first_failure, err=True)
        sys.exit(1)


@main.command()
@click.argument("file", default="distributable/Whist.hex")
@click.option("--port", metavar="PORT", default=None, help="Serial port (found by USB id if omitted).")
@click.option("--erase-saves", is_flag=True,
              help="FX games: write the package's blank save block even over this game's saves on the chip.")
@click.option("--overwrite-cart-end", is_flag=True,
              help="FX games on a chip with a cart: write the data at the chip's end (the development "
                   "layout) anyway, over the cart's last games.")
def upload(file: str, port: str | None, erase_saves: bool, overwrite_cart_end: bool) -> None:
    """Upload FILE (.hex or .arduboy; default distributable/Whist.hex) to an Arduboy over USB.

    \b
    One command: it finds the Arduboy by USB id, resets the running game into
    the bootloader (1200-baud touch), writes and verifies the pages, then
    starts the game. Nothing is sent to the device unless FILE is valid.
    An FX edition's package (distributable/ArduboyFX/WhistFX.arduboy, or
    ArduboyMini/WhistMini.arduboy) also puts its data on the Arduboy FX's
    flash chip, keeping the saved games already there: on a chip with a
    cart, as a slot of the cart (in its Tabletop list), every other game's
    bytes left as they were; on a chip without one, at the chip's end.

    \b
    Recovery (the game hangs or the Arduboy is not found): hold UP while
    switching on (flashlight mode: the game waits, so the upload works as
    usual), or press reset and run this command within 8 seconds, while
    the bootloader waits. Add --port if the port is not found by itself.
    An upload into a cart cut short (a pulled cable): run it again; it
    first puts back what the cut left half-written.
    On Linux, "permission denied" means: sudo usermod -aG dialout $USER,
    then log out and in. See docs/upload.md.
    """
    from ..targets.uploader import run

    sys.exit(run(file, port, keep_saves=not erase_saves, overwrite_cart_end=overwrite_cart_end))


@main.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("build/gen"),
              show_default=True, help="Directory for the generated C++.")
@click.option("--assets", type=click.Path(path_type=Path), default=Path("assets"),
              show_default=True, help="Directory of the PNG art.")
@click.option("--edition", type=click.Choice(["classic", "fx"]), default="classic", show_default=True,
              help="fx: the FX and Mini editions' sources, their texts and sprites on the chip, with its data "
                   "and save images (fxdata*.bin).")
def generate(out: Path, assets: Path, edition: str) -> None:
    """Write the generated C++ (game core, sprites, texts) into OUT."""
    from ..codegen import generate_all
    from ..codegen.sprites import SpriteError

    input_folder(assets, "--assets", "give the folder of the game's art and texts (assets)")
    output_folder(out, "--out")
    try:
        files = generate_all(out, assets, fx=edition == "fx")
    except SpriteError as e:
        fail(e)
    click.echo(f"wrote {len(files)} files to {out}")


@main.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("build"),
              show_default=True, help="Directory for generated sources and objects.")
@click.option("--dist", type=click.Path(file_okay=False, path_type=Path), default=Path("distributable"),
              show_default=True, help="Where Whist.hex and Whist.arduboy go, and the FX and Mini editions "
                                      "(ArduboyFX/, ArduboyMini/).")
def build(out: Path, dist: Path) -> None:
    """Build every edition from the repository root: generate, compile, check size, measure the stack, package."""
    from ..targets.package import BuildError, build as run_build
    from ..codegen.sprites import SpriteError

    output_folder(out, "--out")
    output_folder(dist, "--dist")
    try:
        run_build(out, dist, click.echo)
    except (BuildError, SpriteError) as e:
        fail(e)


@main.command()
@click.argument("elf", type=click.Path(path_type=Path))
def size(elf: Path) -> None:
    """Print the largest items and the flash and static RAM use of ELF; fail above the limits."""
    from ..targets.package import ELF, BuildError, elf_size, size_report, size_table

    readable(str(elf), ELF)  # before avr-nm reads it
    try:
        click.echo(size_table(elf))
        click.echo(size_report(*elf_size(elf)))
    except BuildError as e:
        fail(e)


@main.command()
@click.option("--trump", type=click.Choice(list("SHDC"), case_sensitive=False), required=True, help="Trump suit.")
@click.option("--lead", type=click.IntRange(0, 1), required=True, help="Player on lead (0 or 1).")
@click.option("--hand0", required=True, help="Player 0's cards, e.g. AS,KD,7C.")
@click.option("--hand1", required=True, help="Player 1's cards, as many as player 0's.")
@click.option("--mode", type=click.Choice(["high", "low"]), default="high", show_default=True,
              help="high: each player wants most tricks; low: fewest.")
def solve(trump: str, lead: int, hand0: str, hand1: str, mode: str) -> None:
    """Solve a stage-2 position at a trick boundary: player 0's tricks with perfect play, and every best lead."""
    from ..ai.solver import solve_text

    try:
        lines = solve_text(trump, lead, hand0, hand1, mode)
    except ValueError as e:
        fail(e)
    for line in lines:
        click.echo(line)


@main.command()
@click.option("--deals", type=click.IntRange(10, 1_000_000), default=400, show_default=True,
              help="Duplicate deals per comparison.")
@click.option("--rounds", type=click.IntRange(1, 100), default=10, show_default=True, help="Most improvements to make.")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True, help="Worker processes.")
def tune(deals: int, rounds: int, jobs: int) -> None:
    """Tune Hard's stage-1 weights by self-play; prints the weights to ship.

    Starts from the shipped weights (generator/ai/hard.py WEIGHTS) and
    moves one weight a step at a time while the change wins significantly
    on duplicate deals. Paste the result into WEIGHTS and run make hex.
    """
    from ..ai.tuning import tune as run_tune

    best = run_tune(deals, rounds, jobs, click.echo)
    click.echo(f"WEIGHTS = Weights(trump={best.trump}, want={best.want}, spend={best.spend})")


@main.command("fit-judge")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True, help="Worker processes.")
def fit_judge(jobs: int) -> None:
    """Fit the stage-2 judge's lead weights to exact values; prints the weights to ship.

    Stage-2 starts that Master's rollouts reach, every lead along perfect
    play from them valued exactly, integer weights by coordinate descent
    (generator/ai/judge_fit.py; about 45 minutes on a loaded machine): the FX
    edition's (played on to the tables) and the classic's (to the end).
    Paste the result into LEAD_WEIGHTS and PLAY_OUT_WEIGHTS
    (generator/ai/judge.py) and run make hex.
    """
    from ..ai.judge_fit import fit_all

    for name, weights in fit_all(jobs, click.echo).items():
        click.echo(f"{name} = {{")
        for mode, w in weights.items():
            click.echo(f"    {'HIGH' if mode == 0 else '1 - HIGH'}: ({', '.join(map(str, w))}),")
        click.echo("}")


@main.command()
@click.option("--p0", type=click.Choice(sorted(PLAYERS)), required=True, help="Player A (figures are for A).")
@click.option("--p1", type=click.Choice(sorted(PLAYERS)), required=True, help="Player B.")
@click.option("--deals", type=click.IntRange(1, 1_000_000), default=2000, show_default=True,
              help="Deals, each played twice with the seats swapped.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
@click.option("--deck", type=click.Choice(["52", "28"]), default="52", show_default=True, help="Pack.")
@click.option("--scoring", type=click.Choice(list(SCORINGS)), default="last13", show_default=True, help="Scoring.")
@click.option("--first-seed", type=click.IntRange(1, 2**31), default=1, show_default=True,
              help="The first deal's seed (to extend an earlier match with new deals).")
def arena(p0: str, p1: str, deals: int, jobs: int, deck: str, scoring: str, first_seed: int) -> None:
    """Duplicate-deal match: hands won, points per hand and 95% confidence intervals for P0."""
    from ..ai.arena import run_arena

    with click.progressbar(length=deals, label=f"{p0} vs {p1}", file=sys.stderr) as bar:
        def progress(results):
            for r in results:
                bar.update(1)
                yield r

        result = run_arena(p0, p1, deals, jobs, int(deck), scoring, first_seed, progress=progress)
    for line in result.lines():
        click.echo(line)


def fail(error: Exception | str) -> None:
    """One line on stderr and exit status 1, no traceback."""
    click.echo(f"error: {error}", err=True)
    sys.exit(1)


def readable(path: str | None, kind: Kind, fix: str | None = None) -> None:
    """Before a command starts its work: fail (one line) unless ``path``, if given, is a regular file within
    what a file of its ``kind`` holds (generator/engine/bounded.py); ``fix`` says what to do instead."""
    from dataclasses import replace

    from ..engine.bounded import InputError, check

    if path is None:
        return
    try:
        check(path, replace(kind, fix=fix) if fix else kind)
    except InputError as e:
        fail(e)


def input_folder(path: Path, option: str, fix: str) -> None:
    """Fail (one line) unless the folder a command reads from is one."""
    from ..engine.bounded import what_is

    what = what_is(path)
    if what != "a folder":
        fail(f"{option} {path}: {what + ', not a folder' if what else 'no such folder'}; {fix}")


def output_folder(path: Path, option: str) -> None:
    """Check up front (creating nothing) that an output folder can be made, or fail naming it."""
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        fail(f"{option} {path}: {existing} is a file, not a folder; choose another {option}")
    if not os.access(existing, os.W_OK):
        fail(f"{option} {path}: the folder {existing} is not writable; choose another {option}")


def output_file(path: str | None, option: str) -> None:
    """Check that an output file can be created before running anything."""
    if path is None:
        return
    folder = Path(path).parent
    if Path(path).is_dir():
        fail(f"{option} {path}: that is a folder; give a file name inside it")
    if not folder.is_dir():
        fail(f"{option} {path}: there is no folder {folder}; create it or choose another path")
    if not os.access(folder, os.W_OK):
        fail(f"{option} {path}: the folder {folder} is not writable; choose another path")


@main.command()
@click.argument("hex_file", metavar="HEX", required=False)
@arduboy_option
@click.option("--frames", type=click.IntRange(0), default=60, show_default=True, help="Display frames to run.")
@click.option("--ms", type=click.FloatRange(0), default=0, help="Emulated milliseconds to run after the frames.")
@click.option("--press", default="", metavar="SCHEDULE",
              help='Buttons by display frame: "A@60,RIGHT@90-120" (held 4 frames unless a release frame is given).')
@click.option("--serial-in", metavar="TEXT", help="Send TEXT over USB serial (backslash escapes such as \\n work).")
@click.option("--screenshot", type=click.Path(dir_okay=False), help="Save the last screen as PNG.")
@click.option("--gif", type=click.Path(dir_okay=False), help="Save every frame as an animated GIF.")
@click.option("--scale", type=click.IntRange(1, 16), default=2, show_default=True, help="Pixel size in images.")
@click.option("--eeprom-in", metavar="FILE", help="Start from this 1024-byte EEPROM image.")
@click.option("--eeprom-out", type=click.Path(dir_okay=False), help="Save the EEPROM image at the end.")
@click.option("--usb", type=click.Choice(["minimal", "full", "none"]), default="minimal", show_default=True,
              help="Host enumeration: minimal opens Serial; full is Linux-like; none never attaches (avr8js only).")
@emulator_options
def emulate(hex_file: str | None, arduboy_file: str | None, frames: int, ms: float, press: str,
            serial_in: str | None, screenshot: str | None, gif: str | None, scale: int, eeprom_in: str | None,
            eeprom_out: str | None, usb: str, emulator: str, projectabe_dir: str | None, any_build: bool) -> None:
    """Run HEX (or --arduboy FILE) in the Arduboy emulator: serial output to stdout, summary and markers
    to stderr (docs/emulator.md)."""
    from ..engine.bounded import InputError, read
    from ..targets.emulator import EEPROM, EmulatorError, run_emulate
    from ..targets.intelhex import HEX

    if (hex_file is None) == (arduboy_file is None):
        raise click.UsageError("give a HEX or --arduboy FILE" + (", not both" if hex_file else ""))
    readable(hex_file, HEX)
    try:
        eeprom = read(eeprom_in, EEPROM) if eeprom_in else None
    except InputError as e:
        fail(e)
    chosen = chosen_backend(emulator, projectabe_dir, any_build)
    for path, option in ((screenshot, "--screenshot"), (gif, "--gif"), (eeprom_out, "--eeprom-out")):
        output_file(path, option)
    try:
        with firmware(hex_file, arduboy_file) as (hex_path, fx):
            run_emulate(hex_path, frames=frames, ms=ms, press=press, serial_in=serial_in, screenshot=screenshot,
                        gif=gif, scale=scale, eeprom_in=eeprom,
                        eeprom_out=eeprom_out, usb=usb, echo=lambda line: click.echo(line, err=True),
                        backend=chosen, fx=fx)
    except (EmulatorError, ValueError) as e:
        fail(e)



@main.group()
def projectabe() -> None:
    """ProjectABE, the web emulator players use: where its build comes from (docs/emulator.md)."""


@projectabe.command("fetch")
@click.option("--dest", type=click.Path(file_okay=False), default=None,
              help="Folder to write to (default: the user's cache, where the tools look).")
def projectabe_fetch(dest: str | None) -> None:
    """Download the pinned ProjectABE build (app.js, layouts/Sim.html, LICENSE), sha256 checked."""
    from ..targets import projectabe as pabe

    try:
        folder = pabe.fetch(Path(dest) if dest else None, echo=click.echo)
    except pabe.NotFound as e:
        fail(e)
    click.echo(f"ProjectABE {pabe.PINNED['commit'][:7]} in {folder}")


@projectabe.command("where")
@click.option("--projectabe", "projectabe_dir", metavar="DIR", default=None, help="As for crosstest.")
def projectabe_where(projectabe_dir: str | None) -> None:
    """Print the ProjectABE folder the tools would use, or why there is none."""
    from ..targets import projectabe as pabe

    try:
        click.echo(pabe.find(projectabe_dir))
    except pabe.NotFound as e:
        fail(e)
