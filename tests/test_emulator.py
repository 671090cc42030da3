"""The emulator harness (emulator/, generator/emulator.py) against small fixture sketches.

Each fixture in tests/fixtures/ is compiled against the Arduino core with
scripts/avr-build, so these tests exercise the harness with the same core
(USB CDC, timers, SPI) the game links.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.emulator import CYCLES_PER_MS, Emulator

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def build(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Compile a fixture sketch once per session (sharing one archived core); return its .hex."""
    out = tmp_path_factory.mktemp("avr")
    built: dict[str, Path] = {}

    def hex_of(name: str) -> Path:
        if name not in built:
            subprocess.run([str(ROOT / "scripts" / "avr-build"), str(out), name, str(FIXTURES / f"{name}.cpp")],
                           check=True)
            built[name] = out / f"{name}.hex"
        return built[name]

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
