"""The uploader against a simulated Caterina bootloader on a pty: the full flow, discovery, and every fault."""

from __future__ import annotations

import errno
import json
import random
import shutil
import subprocess
import time
import zipfile
from pathlib import Path
from typing import Sequence

import pytest
import serial
from click.testing import CliRunner

from caterina_sim import BOOT_START, PAGE, CaterinaSim, Faults, to_hex
from generator.cli import main
from generator.targets.uploader import PortInfo, SystemHost, Timing, run

FAST = Timing(reply=0.5, boot=0.5, settle=0.1, poll=0.01)
SKETCH = PortInfo("/dev/ttyACM0", 0x2341, 0x8036)
RETRY_HINT = "the Arduboy still has its bootloader: press reset and run 'whist upload' within 8 s"


class FakeHost:
    """The machine as the uploader sees it: listed ports, a touch that brings up `boot`, real opens."""

    def __init__(self, ports: Sequence[PortInfo] = (), boot: CaterinaSim | None = None,
                 open_error: OSError | None = None):
        self.listed, self.boot, self.open_error = list(ports), boot, open_error
        self.touched: list[str] = []
        self.opened: list[str] = []
        self._touch_time: float | None = None

    def ports(self) -> list[PortInfo]:
        if self.boot and self._touch_time is not None and time.monotonic() - self._touch_time > 0.05:
            return [PortInfo(self.boot.port, 0x2A03, 0x0036)]  # the bootloader, under a new name
        return self.listed

    def touch(self, device: str) -> None:
        self.touched.append(device)
        self._touch_time = time.monotonic()

    def open(self, device: str, timeout: float) -> serial.Serial:
        self.opened.append(device)
        if self.open_error:
            raise self.open_error
        return SystemHost().open(device, timeout)


class Untouchable:
    """A host that fails the test if the uploader goes near a device."""

    def ports(self):
        raise AssertionError("the device was looked for before the file was validated")

    touch = open = ports


@pytest.fixture
def program() -> dict[int, int]:
    """A scattered 10 KiB program: a vector table, a body with gaps, one partial page near the top."""
    rng = random.Random(7)
    memory = {a: rng.randrange(256) for a in range(0, 0x2000)}
    memory.update({a: rng.randrange(256) for a in range(0x2400, 0x2C33)})
    memory.update({0x6FFF: 0x5A})
    return memory


@pytest.fixture
def hexfile(tmp_path: Path, program: dict[int, int]) -> Path:
    path = tmp_path / "Whist.hex"
    path.write_text(to_hex(program))
    return path


def expected_flash(program: dict[int, int]) -> bytes:
    """The application area after a correct upload: the program, 0xFF everywhere else."""
    image = bytearray([0xFF]) * BOOT_START
    for address, value in program.items():
        image[address] = value
    return bytes(image)


def upload(capsys, file: Path | str, port: str | None, host) -> tuple[int, str, str]:
    code = run(str(file), port, host, FAST)
    out, err = capsys.readouterr()
    return code, out, err


def error_line(code: int, err: str) -> str:
    """The single 'error: ' line of a failed run (progress labels may precede it, no traceback)."""
    assert code != 0
    lines = err.strip().splitlines()
    assert [line for line in lines if line.startswith("error: ")] == lines[-1:], err
    assert "Traceback" not in err
    return lines[-1]


# --- success --------------------------------------------------------------------------------
def test_full_upload_leaves_the_flash_equal_to_the_hex(capsys, hexfile, program):
    with CaterinaSim() as sim:
        bootloader = bytes(sim.flash[BOOT_START:])
        code, out, err = upload(capsys, hexfile, sim.port, FakeHost())
        assert code == 0, err
        assert bytes(sim.flash[:BOOT_START]) == expected_flash(program)
        assert bytes(sim.flash[BOOT_START:]) == bootloader
        used = sorted({a - a % PAGE for a in program})
        assert sim.writes() == used  # only the pages the program uses, each once
        assert [a for c, a in sim.log if c == b"g"] == used  # every page read back
        assert sim.exited and sim.log[-1][0] == b"E"
    assert out.startswith(f"ok: wrote and verified {len(used) * PAGE:,} bytes ({len(used)} pages) on {sim.port} in ")
    assert "Writing" in err and "Verifying" in err


def test_finds_a_sketch_touches_it_and_follows_the_renamed_bootloader_port(capsys, hexfile, program):
    with CaterinaSim() as sim:
        host = FakeHost([PortInfo("/dev/ttyS0"), SKETCH], boot=sim)
        code, out, err = upload(capsys, hexfile, None, host)
        assert code == 0, err
        assert host.touched == [SKETCH.device] and host.opened == [sim.port]
        assert bytes(sim.flash[:BOOT_START]) == expected_flash(program)


def test_a_listed_bootloader_is_used_without_touch(capsys, hexfile):
    with CaterinaSim() as sim:
        host = FakeHost([PortInfo(sim.port, 0x2341, 0x0036)])
        assert upload(capsys, hexfile, None, host)[0] == 0
        assert host.touched == []


def test_arduboy_package(capsys, tmp_path, hexfile, program):
    package = tmp_path / "Whist.arduboy"
    binary = {"title": "Whist", "device": "Arduboy", "filename": "w.hex"}
    info = {"schemaVersion": 2, "title": "Whist", "binaries": [binary]}
    with zipfile.ZipFile(package, "w") as z:
        z.writestr("info.json", json.dumps(info))
        z.writestr("w.hex", hexfile.read_text())
        z.writestr("other.hex", ":00000001FF\n")
    with CaterinaSim() as sim:
        code, _, err = upload(capsys, package, sim.port, FakeHost())
        assert code == 0, err
        assert bytes(sim.flash[:BOOT_START]) == expected_flash(program)


def test_a_transient_verify_mismatch_is_rewritten_once(capsys, hexfile, program):
    with CaterinaSim(Faults(corrupt=(0x2410, 1))) as sim:
        code, _, err = upload(capsys, hexfile, sim.port, FakeHost())
        assert code == 0, err
        assert sim.writes().count(0x2400) == 2
        assert bytes(sim.flash[:BOOT_START]) == expected_flash(program)


def test_cli(hexfile):
    with CaterinaSim() as sim:
        result = CliRunner().invoke(main, ["upload", str(hexfile), "--port", sim.port])
        assert result.exit_code == 0, result.output
        assert sim.exited
    missing = CliRunner().invoke(main, ["upload", str(hexfile.with_name("none.hex"))])
    assert missing.exit_code == 1
    assert missing.output.splitlines() == [f"error: {hexfile.with_name('none.hex')}: no such file; "
                                           "build it with 'make hex' or name the .hex to upload"]
    help_text = CliRunner().invoke(main, ["upload", "--help"]).output
    assert "hold UP" in help_text and "within 8 seconds" in help_text


# --- faults on the device -------------------------------------------------------------------
@pytest.mark.parametrize(
    "faults, message",
    [
        (Faults(drop=(b"B", 3)), "error: the device on {port} vanished during write at 0x0180; "
                                 f"check the cable and reconnect it; {RETRY_HINT}"),
        (Faults(drop=(b"g", 0)), "error: the device on {port} vanished during read-back at 0x0000"),
        (Faults(stall=(b"B", 5)), "error: timeout: the bootloader on {port} stopped answering during write at 0x0280; "
                                  "press reset"),
        (Faults(stall=(b"S", 0)), "error: timeout: the bootloader on {port} stopped answering during identification"),
        (Faults(corrupt=(0x2410, 2)), "error: verify failed at 0x2410 (wrote {wrote}, read {read}) on {port}, "
                                      f"even after rewriting; {RETRY_HINT}"),
    ],
    ids=["drop-write", "drop-read", "stall-write", "stall-identify", "verify-mismatch"],
)
def test_device_faults(capsys, hexfile, program, faults, message):
    with CaterinaSim(faults) as sim:
        code, _, err = upload(capsys, hexfile, sim.port, FakeHost())
        assert not sim.exited
    value = program[0x2410]
    expected = message.format(port=sim.port, wrote=f"{value:02X}", read=f"{value ^ 1:02X}")
    assert error_line(code, err).startswith(expected)


def test_not_a_caterina(capsys, hexfile):
    with CaterinaSim(ident=b"AVRBOOT") as sim:
        code, _, err = upload(capsys, hexfile, sim.port, FakeHost())
    assert error_line(code, err).startswith(f"error: {sim.port} is not a Caterina bootloader (it said b'AVRBOOT')")


def test_wrong_chip(capsys, hexfile):
    with CaterinaSim(signature=bytes([0x0F, 0x95, 0x1E])) as sim:
        code, _, err = upload(capsys, hexfile, sim.port, FakeHost())
        assert sim.writes() == []
    assert error_line(code, err) == (
        f"error: {sim.port} has chip signature 1E 95 0F, not the ATmega32u4's 1E 95 87; is it an Arduboy?"
    )


# --- faults on the host ---------------------------------------------------------------------
def test_no_device_found(capsys, hexfile):
    code, _, err = upload(capsys, hexfile, None, FakeHost([PortInfo("/dev/ttyS0")]))
    assert error_line(code, err).startswith("error: no Arduboy found (USB ids")
    assert "give --port" in err


def test_several_devices_are_listed(capsys, hexfile):
    other = PortInfo("/dev/ttyACM1", 0x2A03, 0x0036)
    code, _, err = upload(capsys, hexfile, None, FakeHost([SKETCH, other]))
    assert error_line(code, err) == (
        "error: several Arduboys found: /dev/ttyACM0 (sketch mode), /dev/ttyACM1 (bootloader mode); "
        "choose one with --port"
    )


def test_bootloader_never_appears(capsys, hexfile):
    host = FakeHost([SKETCH])
    code, _, err = upload(capsys, hexfile, "/dev/ttyACM0", host)
    assert host.touched == ["/dev/ttyACM0"]
    assert error_line(code, err).startswith(
        "error: the Arduboy on /dev/ttyACM0 did not come back in bootloader mode within 0.5 s; press reset"
    )


def test_permission_denied(capsys, hexfile):
    denied = serial.SerialException(errno.EACCES, "could not open port /dev/ttyACM0: [Errno 13] Permission denied")
    host = FakeHost([PortInfo("/dev/ttyACM0", 0x2341, 0x0036)], open_error=denied)
    code, _, err = upload(capsys, hexfile, None, host)
    assert len(host.opened) > 1  # retried while udev might still be setting the group
    assert error_line(code, err) == (
        "error: permission denied on /dev/ttyACM0; on Linux add yourself to the dialout group "
        "(sudo usermod -aG dialout $USER), log out and in again, then retry"
    )


def test_missing_port(capsys, hexfile, tmp_path):
    port = str(tmp_path / "ttyACM9")
    code, _, err = upload(capsys, hexfile, port, FakeHost())
    assert error_line(code, err).startswith(f"error: no serial port {port}; check the cable")


# --- files refused before any device is touched ----------------------------------------------
@pytest.mark.parametrize(
    "content, message",
    [
        (b"\x7fELF\x01\x01\x01\x00" + bytes(8), "not a hex file (binary data)"),
        (bytes(range(256)), "not a hex file (binary data)"),
        (b"int main() {}\n", "not a valid Intel HEX file: line 1: does not start with ':'"),
        (b":0100000042BC\n:00000001FF\n", "not a valid Intel HEX file: line 1: bad checksum BC, expected BD"),
        (to_hex({0x6FFF: 1, 0x7000: 2}).encode(), "writes at 0x7000, inside the bootloader (0x7000 and up)"),
    ],
    ids=["elf", "binary", "text", "checksum", "bootloader"],
)
def test_bad_files(capsys, tmp_path, content, message):
    path = tmp_path / "game.hex"
    path.write_bytes(content)
    code, _, err = upload(capsys, path, None, Untouchable())
    assert error_line(code, err).startswith(f"error: {path}: {message}")


def test_missing_file(capsys, tmp_path):
    code, _, err = upload(capsys, tmp_path / "Whist.hex", None, Untouchable())
    message = error_line(code, err)
    assert message.endswith("Whist.hex: no such file; build it with 'make hex' or name the .hex to upload")


def test_bad_package(capsys, tmp_path):
    path = tmp_path / "game.arduboy"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("game.hex", ":00000001FF\n")
    code, _, err = upload(capsys, path, None, Untouchable())
    assert error_line(code, err) == f"error: {path}: a zip without info.json, so not a .arduboy package"


# --- the simulator against the reference client ----------------------------------------------
@pytest.mark.skipif(shutil.which("avrdude") is None, reason="avrdude is not installed (Debian package avrdude)")
def test_avrdude_writes_and_verifies_through_the_simulator(hexfile, program):
    with CaterinaSim() as sim:
        command = ["avrdude", "-p", "atmega32u4", "-c", "avr109", "-P", sim.port, "-b", "57600", "-D",
                   "-U", f"flash:w:{hexfile}:i"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=20)
        assert result.returncode == 0, result.stderr
        assert "bytes of flash verified" in result.stderr
        assert bytes(sim.flash[:BOOT_START]) == expected_flash(program)
        assert sim.exited
