"""The emulator harness (emulator/, generator/targets/emulator.py) against small fixture sketches.

Each fixture in tests/targets/fixtures/ is compiled against the Arduino core with
scripts/avr-build, so these tests exercise the harness with the same core
(USB CDC, timers, SPI) the game links.
"""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from conftest import emulator_args, needs_firmware
from generator.ai.players import seats
from generator.cli import main
from generator.engine.game import play_game
from generator.engine.trace import first_difference
from generator.targets import crosstest
from generator.targets.emulator import (CYCLES_PER_MS, EMULATOR_DIR, Backend, Emulator, EmulatorError, Press,
                                        ensure_node_deps, frame_to_image, measure_speed, parse_schedule)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def build(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """Compile a fixture sketch once per run (sharing one archived core); return its .hex.

    ``define``: a macro for a second build of the same sketch (``build("fx", "FX_PE2")``). Under
    pytest-xdist the workers share the run's folder (as conftest's firmware_dist): the first to ask
    for a sketch builds it while the others wait on a lock.
    """
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the folder all the workers' temporary folders are in
    out = shared / "sketches"
    out.mkdir(exist_ok=True)

    def hex_of(name: str, define: str = "") -> Path:
        target = f"{name}-{define}" if define else name
        with open(shared / "sketches.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (out / f"{target}.hex").exists():
                env = {**os.environ, "AVR_FLAGS": f"-D{define}"} if define else None
                subprocess.run([str(ROOT / "scripts" / "avr-build"), str(out), target, str(FIXTURES / f"{name}.cpp")],
                               check=True, env=env)
        return out / f"{target}.hex"

    return hex_of


def test_serial_echo_both_ways(build: Callable[[str], Path]) -> None:
    with Emulator(build("echo")) as emu:
        assert emu.run_until_serial("READY\r\n")
        assert emu.serial_read() == b"READY\r\n"
        emu.serial_write(b"hello, arduboy\n")
        assert emu.run_until_serial("\n")
        assert emu.serial_read() == b"HELLO, ARDUBOY\n"
        usb = emu.status()["usb"]
        assert usb["configured"] and usb["lineState"] == 3
        assert usb["openedAt"] < 5 * CYCLES_PER_MS  # the port opens a few ms after power-on


def test_serial_long_input_crosses_many_banks(build: Callable[[str], Path]) -> None:
    text = bytes(ord("a") + i % 26 for i in range(1000)) + b"\n"
    with Emulator(build("echo")) as emu:
        assert emu.run_until_serial("READY\r\n")
        emu.serial_read()
        emu.serial_write(text)
        assert emu.run_until_serial("\n")
        assert emu.serial_read() == text.upper()


def test_usb_full_enumeration_reads_the_descriptors(build: Callable[[str], Path]) -> None:
    with Emulator(build("echo"), usb="full") as emu:
        assert emu.run_until_serial("READY\r\n")
        transfers = {t["name"]: t for t in emu.status()["usb"]["transfers"]}
    device = bytes(transfers["GET_DESCRIPTOR(device)"]["data"])
    assert device == bytes.fromhex("12010002ef02014041233680000101020301")  # VID 2341, PID 8036
    config = bytes(transfers["GET_DESCRIPTOR(configuration)"]["data"])
    assert len(config) == 75 and config[:2] == b"\x09\x02"  # longer than one 64-byte packet
    assert transfers["GET_DESCRIPTOR(device qualifier)"]["status"] == "stall"
    assert bytes(transfers["GET_DESCRIPTOR(string 2)"]["data"])[2:].decode("utf-16-le") == "Whist"
    assert transfers["GET_LINE_CODING"]["data"] == [0x00, 0xC2, 0x01, 0x00, 0, 0, 8]  # 115200 8N1, never 1200
    assert all(t["status"] == "ok" for name, t in transfers.items() if "qualifier" not in name)


def test_usb_none_never_opens_the_port(build: Callable[[str], Path]) -> None:
    with Emulator(build("echo"), usb="none") as emu:
        emu.serial_write(b"x")
        assert not emu.run_until_serial("READY", max_cycles=50 * CYCLES_PER_MS)
        assert emu.status()["usb"]["openedAt"] is None


def pattern(i: int) -> int:
    """The fixture display.cpp's test pattern."""
    return ((i * 37 + (i >> 7) * 11) ^ (i >> 3)) & 0xFF


def expected_screen(pressed: int = 0) -> bytes:
    """display.cpp's picture: the pattern, with columns 0-5 of page 7 showing the buttons."""
    out = bytearray(pattern(i) for i in range(1024))
    for k in range(6):
        out[7 * 128 + k] = 0xFF if pressed >> k & 1 else 0
    return bytes(out)


def test_display_frame_equals_the_pattern(build: Callable[[str], Path]) -> None:
    with Emulator(build("display")) as emu:
        assert emu.run_frames(2) == 2
        assert emu.frames == 2
        assert emu.screen() == expected_screen()


def test_button_press_is_seen(build: Callable[[str], Path]) -> None:
    """Each button in turn, in one session: pressed, it alone shows; released, none does."""
    with Emulator(build("display")) as emu:
        emu.run_frames(1)
        for bit, button in enumerate(["UP", "RIGHT", "LEFT", "DOWN", "A", "B"]):
            emu.press(button)
            emu.run_frames(2)
            assert emu.screen() == expected_screen(1 << bit), button
            emu.release(button)
            emu.run_frames(2)
            assert emu.screen() == expected_screen(), button


def test_play_schedule_and_held_buttons(build: Callable[[str], Path]) -> None:
    with Emulator(build("display")) as emu:
        pictures = emu.play(8, parse_schedule("A@2-4,B@3"), record=True)
    assert len(pictures) == 8
    a, b = 1 << 4, 1 << 5
    # a button set before frame n's redraw shows in that frame's picture
    assert [p[7 * 128 + 4:7 * 128 + 6] for p in pictures] == [
        expected_screen(s)[7 * 128 + 4:7 * 128 + 6] for s in (0, 0, a, a | b, b, b, b, 0)]


def test_column_and_page_window_commands(build: Callable[[str], Path]) -> None:
    with Emulator(build("display")) as emu:
        emu.run_frames(1)
        before = emu.frames
        emu.serial_write("w")
        assert emu.run_frames(1, max_cycles=20 * CYCLES_PER_MS) == 1  # the 8x2 window wraps once
        assert emu.frames == before + 1
        want = bytearray(expected_screen())
        for page in (2, 3):
            want[page * 128 + 10:page * 128 + 18] = b"\xa5" * 8
        assert emu.screen() == bytes(want)


def test_markers_give_exact_cycle_counts(build: Callable[[str], Path]) -> None:
    with Emulator(build("markers")) as emu:
        first = emu.run_until_marker(2)
        assert first is not None
        (v1, c1), (v2, c2) = emu.markers()
        assert (v1, v2) == (1, 2) and first == (2, c2)
        assert c2 - c1 == 4003  # counted by hand in markers.cpp


def test_eeprom_round_trips_through_the_firmware(build: Callable[[str], Path]) -> None:
    image = bytearray(b"\xff" * 1024)
    image[16:32] = range(100, 116)
    with Emulator(build("markers"), eeprom=bytes(image)) as emu:
        assert emu.eeprom == bytes(image)
        start = emu.run_until_marker(2)
        done = emu.run_until_marker(3)
        assert start and done
        # 16 erase+write cycles of 3.6 ms, each but the last waited for
        assert done[1] - start[1] > 15 * 57_600
        out = emu.eeprom
    image[32:48] = (b ^ 0xFF for b in range(100, 116))
    assert out == bytes(image)


def test_eeprom_setter_and_size_check(build: Callable[[str], Path]) -> None:
    with Emulator(build("markers")) as emu:
        assert emu.eeprom == b"\xff" * 1024  # erased, as shipped
        emu.eeprom = bytes(range(256)) * 4
        assert emu.eeprom == bytes(range(256)) * 4
        with pytest.raises(ValueError):
            emu.eeprom = b"\0" * 10


def test_adc_bandgap_fixed_channel_and_seeded_noise(build: Callable[[str], Path]) -> None:
    def read(seed: int, a0_volts: float | None = None) -> list[int]:
        with Emulator(build("adc"), adc_seed=seed) as emu:
            if a0_volts is not None:
                emu.set_adc(7, a0_volts)
            emu.serial_write("r")
            assert emu.run_until_serial("\n")
            return [int(x) for x in emu.serial_read().split()]

    bandgap, _, noise = read(1)
    assert bandgap == 225  # 1.1 V of 5 V
    assert read(1)[2] == noise  # the same seed gives the same "noise"
    assert read(1, 2.5)[1] == 512


def test_bad_hex_is_reported(tmp_path: Path, each_emulator: Backend) -> None:
    bad = tmp_path / "bad.hex"
    bad.write_text(":0100000000FF\n:0400000012345678XX\n")
    with pytest.raises(EmulatorError, match="line 2"):
        Emulator(bad, backend=each_emulator)
    (tmp_path / "empty.hex").write_text(":00000001FF\n")
    with pytest.raises(EmulatorError, match="no data"):
        Emulator(tmp_path / "empty.hex", backend=each_emulator)


def test_parse_schedule() -> None:
    assert parse_schedule("A@60, right@90-120") == [Press("A", 60, 64), Press("RIGHT", 90, 120)]
    for bad in ("A60", "X@1", "A@5-5"):
        with pytest.raises(ValueError):
            parse_schedule(bad)


def test_frame_to_image_puts_lsb_on_top() -> None:
    picture = bytearray(1024)
    picture[0] = 0x01  # top-left pixel
    picture[7 * 128 + 127] = 0x80  # bottom-right pixel
    image = frame_to_image(bytes(picture), scale=2)
    assert image.size == (256, 128)
    lit = [(x, y) for y in range(128) for x in range(256) if image.getpixel((x, y))]
    assert lit == [(0, 0), (1, 0), (0, 1), (1, 1), (254, 126), (255, 126), (254, 127), (255, 127)]


def test_cli_emulate_writes_png_gif_eeprom_and_serial(build: Callable[[str], Path], tmp_path: Path) -> None:
    png, gif, eeprom = tmp_path / "s.png", tmp_path / "s.gif", tmp_path / "e.bin"
    result = CliRunner().invoke(main, [
        "emulate", str(build("display")), "--frames", "6", "--press", "UP@1-9", "--scale", "1",
        "--screenshot", str(png), "--gif", str(gif), "--eeprom-out", str(eeprom)])
    assert result.exit_code == 0, result.output
    assert "6 frames" in result.output and "serial port open" in result.output
    assert frame_to_image(expected_screen(1)).tobytes() == Image.open(png).convert("1").tobytes()
    assert Image.open(gif).n_frames >= 2  # before and after UP (identical frames merge)
    assert eeprom.read_bytes() == b"\xff" * 1024


def test_cli_emulate_serial_and_markers(build: Callable[[str], Path]) -> None:
    result = CliRunner().invoke(main, ["emulate", str(build("echo")), "--frames", "0", "--ms", "30",
                                       "--serial-in", "hi\\n"])
    assert result.exit_code == 0, result.output
    assert "HI\n" in result.output
    result = CliRunner().invoke(main, ["emulate", str(build("markers")), "--frames", "0", "--ms", "70"])
    assert "marker 2 at cycle" in result.output and "(+4003)" in result.output


@needs_firmware
def test_cli_emulate_serial_in_prints_the_ready_line_and_a_play_trace(firmware_hex: Path, each_emulator: Backend) -> None:
    """`whist emulate --serial-in`: input sent at power-on, before the port is open, in a line longer
    than a 64-byte USB packet; out come the ready line and the game's whole trace, as the engine plays it."""
    case = next(c for c in crosstest.cases(8) if c.variant.target == 0 and len(c.command) > 64)
    result = CliRunner().invoke(main, ["emulate", str(firmware_hex), "--frames", "0", "--ms", "1000",
                                       "--serial-in", case.command + "\\n", *emulator_args(each_emulator)])
    assert result.exit_code == 0, result.output
    ready, *trace = result.stdout.splitlines()
    assert re.fullmatch(r"# whist \S+ ready", ready)
    want = play_game(case.seed, case.variant, seats(case.seed, (case.p0, case.p1))).lines
    assert first_difference(want, trace) is None
    assert trace[-1].startswith("end winner=")


def test_cli_emulate_explains_a_firmware_that_does_not_draw(build: Callable[[str], Path]) -> None:
    result = CliRunner().invoke(main, ["emulate", str(build("echo")), "--frames", "1"])
    assert result.exit_code == 1
    assert "--frames 0 --ms" in result.output


def test_measure_speed(build: Callable[[str], Path]) -> None:
    assert measure_speed(build("display"), seconds=0.3) > 1_000_000


def test_node_unit_tests() -> None:
    """The register-level tests of the display and USB models (emulator/test/, node:test)."""
    ensure_node_deps()
    result = subprocess.run(["node", "--test", "test/"], cwd=EMULATOR_DIR, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-1000:]


def test_sleeping_firmware_wakes_on_interrupts_only(build: Callable[[str], Path]) -> None:
    with Emulator(build("sleep")) as emu:
        marker = emu.run_until_marker(1)
        assert emu.run_until_serial("\n")
        wakes, millis = (int(x) for x in emu.serial_read().split())
    assert marker is not None and millis == 1000
    assert abs(marker[1] - 1000 * CYCLES_PER_MS) < CYCLES_PER_MS  # time runs at 16 MHz while asleep
    # At most one wake-up per timer0 overflow (every 1.024 ms) and USB SOF (every 1 ms from about 4 ms):
    # the two merge into one wake-up when they come close together; nothing else wakes the CPU.
    assert 1000 / 1.024 + 960 < wakes <= 1000 / 1.024 + 997
