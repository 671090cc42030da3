"""USB serial that never blocks or hijacks (issue 17), in both emulators (avr8js and ProjectABE).

Bursts of any bytes are answered once per line while the screen keeps
moving; a host that stops reading costs the game nothing (its output is
dropped and counted); a person's game is never taken over by a serial
`play`; and Play writes no EEPROM byte that is not ours. The games on the
table go at the Fast speed (the same frames and code, fewer of them); one at
the normal speed runs in `make longtest`.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest

from conftest import needs_firmware
from generator.ai.players import seats
from generator.codegen.core import EEPROM_LOG, EEPROM_SAVES
from generator.codegen.protocol import ERRORS, play_command
from generator.engine.game import play_game
from generator.engine.rules import Variant
from generator.targets.emulator import CYCLES_PER_MS
from generator.targets.buttons import SCREEN, Device, booted

pytestmark = needs_firmware

EMULATORS = ["avr8js", "projectabe"]
MAX_GAP = 40 * CYCLES_PER_MS  # a frame is due every 16 ms: more than 40 ms without one is a freeze
ANSWER = re.compile(r"error (.*)")


def random_burst(n: int, seed: int) -> bytes:
    """n random bytes ending in a newline, so the next line starts clean."""
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(n - 1)) + b"\n"


# The bursts that froze ProjectABE or cut a line (issue 17), each ending in a newline.
BURSTS = [
    b"play seed=1 deck=99 scoring=last13 target=0\nplay seed=2 scoring=bridge p0=nobody\n",  # > 64 B, 2 lines
    b"x\n" * 40,  # 80 bytes of short lines
    random_burst(300, seed=17),
    b"play seed=1 \x00\n",  # a NUL must not cut the line
    b"\r\n\xe9\xff\x80\n play\tseed=3\r\nplay seed=4 fast=2\rplay\n",  # CR, 8-bit, tab, an empty line
]
# A single Small Whist hand between two quick players, on the table (frames keep coming).
VARIANT = Variant.make(28, "last13", 0)
GAME = play_command(5, VARIANT, "greedy", "original", fast=False)


@pytest.fixture(params=EMULATORS)
def backend(request):
    """Each emulator in turn (None: avr8js); ProjectABE's test is skipped, with why, without its build."""
    return request.getfixturevalue("projectabe") if request.param == "projectabe" else None


@functools.cache
def fast_pace(hex_path: Path) -> bytes:
    """The EEPROM once the settings' Speed is Fast: a serial game on the table (fast=0) then goes at the
    quick pace, where the pace is not the point (the table's frames and searches are the same code)."""
    with booted(hex_path) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        dev.change_settings({"speed": 1})
        return dev.emu.eeprom


def run_frames(dev: Device, frames: int, until: str | None = None, pictures: set | None = None) -> str:
    """Run frame by frame, failing on any gap over MAX_GAP; stop early once `until` is in the output.
    Returns the serial output; each frame's picture goes into `pictures` if given."""
    out = ""
    for n in range(frames):
        assert dev.emu.run_frames(1, max_cycles=MAX_GAP) == 1, f"no frame for 40 ms after {n} frames: the screen froze"
        out += dev.read()
        if pictures is not None:
            pictures.add(dev.emu.screen())
        if until and until in out:
            break
    for value, _ in dev.emu.markers():
        dev.screen = value
    return out


def engine_trace(command: str) -> list[str]:
    fields = dict(kv.split("=") for kv in command.split()[1:])
    seed = int(fields["seed"])
    return play_game(seed, VARIANT, seats(seed, (fields["p0"], fields["p1"]))).lines


def stack_reply(dev: Device) -> dict[str, int]:
    """The `stack` command's figures: free (stack bytes never touched) and dropped (serial bytes)."""
    dev.emu.serial_write("stack\n")
    out = run_frames(dev, 10, until="dropped=")
    return {k: int(v) for k, v in re.findall(r"# (?:stack |serial )?(free|dropped)=(\d+)", out)}


def answer_bursts_on_the_title(dev: Device) -> None:
    """Each burst of the issue in turn: one answer a line, frames all along."""
    for burst in BURSTS:
        dev.emu.serial_write(burst)
        out = run_frames(dev, 200, until="\n" * burst.count(b"\n"))
        while out.count("\n") < burst.count(b"\n"):
            out += run_frames(dev, 1)
        answers = out.splitlines()
        assert len(answers) == burst.count(b"\n") and all(
            ANSWER.fullmatch(a) and ANSWER.fullmatch(a).group(1) in ERRORS.values() for a in answers), out
        if b"\x00" in burst:  # the NUL is part of the line: "play seed=1 <NUL>" is malformed, not seed 1
            assert answers == ["error " + ERRORS["key"]]


def play_through_bursts(dev: Device, until: str = "end winner=") -> None:
    """A game on the table with each burst sent during it, each answered before the next (all at once
    is for avr8js, below): the table moves on all along and the game's trace is the engine's (up to
    ``until``: its end, or a later trick)."""
    dev.emu.serial_write(GAME + "\n")
    out = run_frames(dev, 300, until="trick 1 ")
    pictures: set[bytes] = set()
    for burst in BURSTS:
        owed = out.count("error ") + burst.count(b"\n")
        dev.emu.serial_write(burst)
        for _ in range(200):
            out += run_frames(dev, 1, pictures=pictures)
            if out.count("error ") == owed:
                break
    out += run_frames(dev, 3000, until=until, pictures=pictures)
    assert len(pictures) > 10  # the table moved on all along
    assert sum(line.startswith("error ") for line in out.splitlines()) == b"".join(BURSTS).count(b"\n")
    trace = [line for line in out.splitlines() if not line.startswith(("error ", "#"))]
    assert until in out and trace == engine_trace(GAME)[:len(trace)]


def test_bursts_of_any_bytes_are_answered_line_by_line(firmware_hex, backend):
    """On the title, then during a game on the table (at the Fast speed: the pace is not the point),
    the game's trace the engine's to its 6th trick (to its end in the test below)."""
    with booted(firmware_hex, backend=backend, eeprom=fast_pace(firmware_hex)) as dev:
        answer_bursts_on_the_title(dev)
        play_through_bursts(dev, until="trick 6 ")


@pytest.mark.slow
def test_the_screen_keeps_moving_on_the_table_during_a_burst(firmware_hex, backend):
    """The game above at the normal speed to its end, without the bursts on the title first."""
    with booted(firmware_hex, backend=backend) as dev:
        play_through_bursts(dev)


def test_all_the_bursts_at_once_then_a_game(firmware_hex):
    """avr8js only: with more than 16 lines waiting the reader stops, and ProjectABE's USB model
    then blocks the output while 63 bytes of input wait unread (firmware/replies.h). The game is a
    fast one (no table: frames stop while it plays): each line answered, then the game's whole trace."""
    burst = b"".join(BURSTS)
    quick = GAME.replace("fast=0", "fast=1")
    with booted(firmware_hex) as dev:
        dev.emu.serial_write(burst + quick.encode() + b"\n")
        assert dev.emu.run_until_serial("end winner=")
        lines = dev.read().splitlines()
        answers = [line for line in lines if line.startswith("error ")]
        assert len(answers) == burst.count(b"\n"), out
        assert all(ANSWER.fullmatch(a).group(1) in ERRORS.values() for a in answers), answers
        assert [line for line in lines if not line.startswith(("error ", "#"))] == engine_trace(quick)


def test_a_host_that_stops_reading_costs_the_game_nothing(firmware_hex):
    """avr8js only: ProjectABE's host always takes what is written. The game after it is a fast one
    (no table): what is checked is that the port works again and the trace is whole."""
    with booted(firmware_hex, eeprom=fast_pace(firmware_hex)) as dev:
        dev.emu.serial_write(GAME + "\n")
        run_frames(dev, 300, until="trick 1 ")
        dev.emu.set_host_reading(False)
        dev.emu.serial_write(b"".join(BURSTS))
        run_frames(dev, 300)  # the game plays on and every line is answered into the void
        dev.emu.set_host_reading(True)
        dev.read()
        run_frames(dev, 3000, until="end winner=")
        dev.wait_screen("title")
        dev.read()
        assert stack_reply(dev)["dropped"] > 0
        quick = GAME.replace("fast=0", "fast=1")
        dev.emu.serial_write(quick + "\n")
        assert dev.emu.run_until_serial("end winner=")
        assert [line for line in dev.read().splitlines() if not line.startswith("#")] == engine_trace(quick)


def test_serial_play_cannot_take_over_a_persons_game(firmware_hex, backend):
    other = play_command(9, VARIANT, "greedy", "greedy", fast=False)
    with booted(firmware_hex, backend=backend) as dev:
        dev.menu("play")
        dev.wait_screen("table")
        for screen, button in (("table", "UP"), ("pause", None)):
            assert dev.screen == SCREEN[screen]
            dev.read()
            dev.emu.serial_write(other + "\n")
            out = run_frames(dev, 30, until="\n")
            assert out == "error busy\n"
            assert dev.screen == SCREEN[screen]
            if button:
                dev.tap(button)
        dev.tap("B", 2)  # the menu (the second B confirms): serial games are welcome there
        dev.wait_screen("menu")
        dev.read()
        dev.emu.serial_write(other + "\n")
        out = run_frames(dev, 60, until="trump ")
        assert out.startswith("game v1 seed=9 ")
        assert dev.screen == SCREEN["auto"]


def test_play_writes_no_eeprom_byte_that_is_not_ours(firmware_hex):
    """Bytes 16 and up holding another game's data: Play writes only its game's save (before the first hand,
    so that Continue can resume it), in its own block after the settings' (EEPROM_SAVES, 11 B), and
    blanks the cells of the hand's log below the blocks (EEPROM_LOG..) that bear the new hand's mark."""
    rng = random.Random(3)
    image = bytes(16 * [0xFF]) + bytes(rng.randrange(256) for _ in range(1008))
    settings, game = EEPROM_SAVES, EEPROM_SAVES + 11
    image = image[:settings] + b"X" + image[settings + 1:game] + b"XX" + image[game + 2:]  # not our signature
    image = image[:16] + b"XX" + image[18:]  # nor at the old place, which would be copied up
    with booted(firmware_hex, eeprom=image) as dev:
        dev.menu("play")
        dev.wait_screen("table")
        dev.run(30)
        now = dev.emu.eeprom
        changed = [i for i in range(len(image)) if now[i] != image[i]]
        blanked = [i for i in changed if EEPROM_LOG <= i < EEPROM_SAVES]
        mark = (int.from_bytes(now[game + 2:game + 6], "little") + 1) << 6 & 0xC0  # seed + hand 1
        assert all(now[i] == 0xFF and image[i] & 0xC0 == mark for i in blanked)
        assert all(image[i] & 0xC0 != mark or image[i] == 0xFF for i in range(EEPROM_LOG, EEPROM_SAVES)
                   if i not in blanked)
        changed = [i for i in changed if i not in blanked]
        assert now[game:game + 2] == b"WG" and changed[0] == game  # signature and tag of the game's block first
        assert changed[-1] < game + 4 + 255  # within one block (at most 255 data bytes and 4 of its own)
