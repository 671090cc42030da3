"""The uploader against a simulated bootloader on a pty (Caterina, or Cathy3K with an FX chip): the full flow,
discovery, FX packages, and every fault."""

from __future__ import annotations

import errno
import io
import json
import random
import shutil
import subprocess
import time
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Sequence

import pytest
import serial
from click.testing import CliRunner
from PIL import Image, ImageDraw

from caterina_sim import BOOT_START, CATHY3K_START, PAGE, W25Q128, CaterinaSim, Faults, to_hex
from generator.cli import main
from generator.codegen import fxdata
from generator.targets import fxchip
from generator.targets.uploader import CHIP_RETRY, PortInfo, SystemHost, Timing, run

FAST = Timing(reply=0.5, boot=0.5, settle=0.1, poll=0.01, chip=2.0, jedec_gap=0.0)
SKETCH = PortInfo("/dev/ttyACM0", 0x2341, 0x8036)
ROOT = Path(__file__).resolve().parents[2]
RETRY_HINT = "the Arduboy still has its bootloader: press reset and run 'whist upload' within 8 s"


@pytest.fixture(autouse=True)
def state(tmp_path, monkeypatch):
    """Recovery records (an upload into a cart keeps them) in the test's folder, not the user's."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


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


def expected_flash(program: dict[int, int], boot_start: int = BOOT_START) -> bytes:
    """The application area after a correct upload: the program, 0xFF everywhere else."""
    image = bytearray([0xFF]) * boot_start
    for address, value in program.items():
        image[address] = value
    return bytes(image)


def upload(capsys, file: Path | str, port: str | None, host, timing: Timing = FAST,
           keep_saves: bool = True) -> tuple[int, str, str]:
    code = run(str(file), port, host, timing, keep_saves)
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
@pytest.mark.parametrize("cathy3k", [False, True], ids=["caterina", "cathy3k"])
def test_full_upload_leaves_the_flash_equal_to_the_hex(capsys, hexfile, program, cathy3k):
    with CaterinaSim(cathy3k=cathy3k) as sim:
        start = sim.boot_start
        bootloader = bytes(sim.flash[start:])
        code, out, err = upload(capsys, hexfile, sim.port, FakeHost())
        assert code == 0, err
        assert bytes(sim.flash[:start]) == expected_flash(program, start)
        assert bytes(sim.flash[start:]) == bootloader
        assert sim.chip_log == [] and b"j" not in [c for c, _ in sim.log]  # a classic game leaves the chip alone
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
                                  f"{RETRY_HINT}"),
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
    assert error_line(code, err).startswith(
        f"error: {sim.port} is not an Arduboy bootloader (Caterina or Cathy3K; it said b'AVRBOOT')")


def test_wrong_chip(capsys, hexfile):
    with CaterinaSim(signature=bytes([0x0F, 0x95, 0x1E])) as sim:
        code, _, err = upload(capsys, hexfile, sim.port, FakeHost())
        assert sim.writes() == []
    assert error_line(code, err) == (
        f"error: {sim.port} has chip signature 1E 95 0F, not the ATmega32u4's 1E 95 87; is it an Arduboy?"
    )


# --- FX packages through Cathy3K ------------------------------------------------------------
CHIP_END = 1 << 24
SAVE_BYTES = 8192  # the game's save block: two 4 KB sectors
BLANK_SAVE = b"\xff" * SAVE_BYTES


def banner() -> bytes:
    """A 128x64 cart image: a frame."""
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((0, 0, 127, 63), outline=1)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


BANNER = banner()


def fx_package(folder: Path, program: dict[int, int], data: bytes, save: bytes = BLANK_SAVE,
               device: str = "ArduboyFX") -> Path:
    """A schema-4 .arduboy as the build makes one: the hex, the chip's data and save images, a cart image."""
    stem = {"ArduboyFX": "WhistFX", "ArduboyMini": "WhistMini"}[device]
    binary = {"title": f"Whist ({device})", "device": device, "filename": f"{stem}.hex",
              "flashdata": f"{stem}-data.bin", "flashsave": f"{stem}-save.bin", "cartimage": "banner.png"}
    path = folder / f"{stem}.arduboy"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("info.json", json.dumps({"schemaVersion": 4, "title": "Whist", "binaries": [binary]}))
        z.writestr(binary["filename"], to_hex(program))
        z.writestr(binary["flashdata"], data)
        z.writestr(binary["flashsave"], save)
        z.writestr("banner.png", BANNER)
    return path


def data_address(data: bytes, save_bytes: int = SAVE_BYTES) -> int:
    """Where the development layout puts the data: its whole pages right before the save block, at the chip's end."""
    return CHIP_END - save_bytes - -(-len(data) // 256) * 256


def save_record(number: int, blocks: bytes) -> bytes:
    """A 256-byte page as firmware/save.cpp commits a record: 252 bytes of blocks, the record's number, then
    the Fletcher-16 (mod 255, b << 8 | a) of the 254 bytes before it; both little-endian."""
    page = blocks.ljust(252, b"\xff") + number.to_bytes(2, "little")
    a = b = 0
    for value in page:
        a = (a + value) % 255
        b = (b + a) % 255
    return page + (b << 8 | a).to_bytes(2, "little")


@pytest.fixture
def fx_data() -> bytes:
    """70,000 bytes, 274 pages: with the save block the image starts inside a 64 KB block (at page 0xFECE)
    and ends the next one."""
    return random.Random(5).randbytes(70_000)


@pytest.fixture
def big_program(program: dict[int, int]) -> dict[int, int]:
    """29 KB: it fits Cathy3K's 29,696 bytes, not Caterina's 28,672."""
    return program | {a: a & 0xFF for a in range(0x7000, 0x7400)}


SELECT = {"ArduboyFX": "PD1", "ArduboyMini": "PE2"}  # the pin each device's bootloader selects the chip on


def program_pages(program: dict[int, int]) -> int:
    return len({a - a % PAGE for a in program})


@pytest.mark.parametrize("device", ["ArduboyFX", "ArduboyMini"])
def test_an_fx_package_writes_the_program_then_the_chip(capsys, tmp_path, program, fx_data, device):
    package = fx_package(tmp_path, program, fx_data, device=device)
    at = data_address(fx_data)
    assert at == 0xFECE00
    with CaterinaSim(cathy3k=True, select=SELECT[device]) as sim:
        sim.preload(0xFE0000, b"another game's data")  # before ours in the first block: kept
        code, out, err = upload(capsys, package, sim.port, FakeHost())
        assert code == 0, err
        assert bytes(sim.flash[:CATHY3K_START]) == expected_flash(program, CATHY3K_START)
        assert sim.chip_read(at, len(fx_data)) == fx_data
        assert sim.chip_read(at + len(fx_data), CHIP_END - SAVE_BYTES - at - len(fx_data)) == b"\xff" * 144
        assert sim.chip_read(CHIP_END - SAVE_BYTES, SAVE_BYTES) == BLANK_SAVE
        assert sim.chip_read(0xFE0000, 19) == b"another game's data"
        assert sim.chip_log == [
            (b"g", 0, 256),  # page 0: no cart's first slot there, so the development layout
            (b"g", 0xFFE000, SAVE_BYTES),  # the save block, to keep a player's saves
            (b"g", 0xFE0000, 0xCE00),  # the first block's bytes before the data
            (b"B", 0xFE0000, 65536), (b"g", 0xFE0000, 65536),  # each block written, then read back
            (b"B", 0xFF0000, 65536), (b"g", 0xFF0000, 65536),
        ]
        commands = [c for c, _ in sim.log]
        assert commands.index(b"x") > max(i for i, c in enumerate(commands) if c == b"B")  # the program first
        assert sim.leds == [0xC2, 0xC1, 0xC2, 0xC1, 0x40] and sim.exited and commands[-1] == b"E"
    pages = program_pages(program)
    assert out.startswith(f"ok: wrote and verified {pages * PAGE:,} bytes ({pages} pages) and 131,072 bytes of the "
                          f"FX chip (data at page 0xFECE, a blank save block) for an {device} on {sim.port} in ")
    assert "FX chip" in err


# Two records of a player's settings ('S') and game ('G') blocks, the second committed after the first.
SAVES = save_record(6, b"WS" + bytes(12) + b"WG" + bytes(40)) + save_record(7, b"WS" + bytes(12) + b"WG" + bytes(40))


@pytest.mark.parametrize(
    "on_chip, keep, kept",
    [
        (SAVES, True, True),  # a re-upload: the player's saves stay
        (SAVES, False, False),  # --erase-saves
        ((30).to_bytes(2, "big") + bytes(range(30)), True, False),  # another game's save (ArduboyFX's own format)
        (bytes(SAVE_BYTES), True, False),  # zeros, which a checksum alone would take for a record
    ],
    ids=["kept", "erased-on-request", "another-game", "zeros"],
)
def test_saves_on_the_chip_are_kept_only_if_they_are_this_games(capsys, tmp_path, program, on_chip, keep, kept):
    data = bytes(range(256)) * 40
    package = fx_package(tmp_path, program, data)
    with CaterinaSim(cathy3k=True) as sim:
        sim.preload(CHIP_END - SAVE_BYTES, on_chip)
        before = sim.chip_read(CHIP_END - SAVE_BYTES, SAVE_BYTES)
        code, out, err = upload(capsys, package, sim.port, FakeHost(), keep_saves=keep)
        assert code == 0, err
        assert sim.chip_read(data_address(data), len(data)) == data
        assert sim.chip_read(CHIP_END - SAVE_BYTES, SAVE_BYTES) == (before if kept else BLANK_SAVE)
        assert sim.chip_writes() == [0xFF0000]
    assert ("the saved games on it kept" in out) == kept
    assert ("a blank save block" in out) == (not kept)


def test_erase_saves_on_the_command_line(tmp_path, program):
    package = fx_package(tmp_path, program, b"data")
    with CaterinaSim(cathy3k=True) as sim:
        sim.preload(CHIP_END - SAVE_BYTES, SAVES)
        result = CliRunner().invoke(main, ["upload", str(package), "--port", sim.port, "--erase-saves"])
        assert result.exit_code == 0, result.output
        assert sim.chip_read(CHIP_END - SAVE_BYTES, SAVE_BYTES) == BLANK_SAVE


def test_caterina_refuses_a_29_kb_program_that_cathy3k_takes(capsys, tmp_path, big_program):
    hexfile = tmp_path / "Big.hex"
    hexfile.write_text(to_hex(big_program))
    with CaterinaSim() as sim:
        code, _, err = upload(capsys, hexfile, sim.port, FakeHost())
        assert sim.writes() == [] and not sim.exited
    assert error_line(code, err) == (
        f"error: {hexfile}: the program reaches 0x73FF, past the 28,672 bytes the Caterina v1.0 bootloader on "
        f"{sim.port} leaves it; nothing was written; it needs the 3 KB Cathy3K bootloader of an Arduboy FX or Mini"
    )
    with CaterinaSim(cathy3k=True) as sim:
        code, _, err = upload(capsys, hexfile, sim.port, FakeHost())
        assert code == 0, err
        assert bytes(sim.flash[:CATHY3K_START]) == expected_flash(big_program, CATHY3K_START)


CLASSIC_HINT = "nothing was written; for this Arduboy upload the classic edition, distributable/Whist.hex"


def test_an_fx_package_on_a_caterina_is_refused(capsys, tmp_path, program, big_program):
    big = fx_package(tmp_path, big_program, b"data")
    with CaterinaSim() as sim:
        code, _, err = upload(capsys, big, sim.port, FakeHost())
        assert sim.writes() == []
    assert error_line(code, err) == (
        f"error: {big}: the program reaches 0x73FF, past the 28,672 bytes the Caterina v1.0 bootloader on "
        f"{sim.port} leaves it; {CLASSIC_HINT}"
    )
    small = fx_package(tmp_path, program, b"data", device="ArduboyMini")
    with CaterinaSim() as sim:
        code, _, err = upload(capsys, small, sim.port, FakeHost())
        assert sim.writes() == [] and b"j" not in [c for c, _ in sim.log]
    assert error_line(code, err) == (
        f"error: {small} is an ArduboyMini game with data for the FX flash chip, and the Caterina v1.0 bootloader "
        f"on {sim.port} cannot reach a chip: this is an Arduboy without FX; {CLASSIC_HINT}"
    )


@pytest.mark.parametrize(
    "answers, said",
    [((b"\0\0\0",), "00 00 00"), ((b"\xff\xff\xff",), "FF FF FF"),
     ((W25Q128, b"\x12\x34\x56"), "EF 40 18 then 12 34 56")],
    ids=["zeros", "ones", "differing"],
)
def test_an_fx_package_on_a_cathy3k_without_chip_is_refused(capsys, tmp_path, program, answers, said):
    package = fx_package(tmp_path, program, b"data")
    with CaterinaSim(cathy3k=True, jedec=answers) as sim:
        code, _, err = upload(capsys, package, sim.port, FakeHost())
        assert sim.writes() == [] and sim.chip_log == []
        assert [c for c, _ in sim.log].count(b"j") == 2
    assert error_line(code, err) == (
        f"error: no FX flash chip answers on {sim.port} (chip id {said}): an Arduboy without FX, and {package} is "
        f"an ArduboyFX game with data for the chip; {CLASSIC_HINT}"
    )


def test_an_image_too_large_for_the_chip_is_refused(capsys, tmp_path, program):
    package = fx_package(tmp_path, program, bytes(60_000))
    with CaterinaSim(cathy3k=True, jedec=(b"\xef\x40\x10",)) as sim:  # a 64 KB chip
        code, _, err = upload(capsys, package, sim.port, FakeHost())
        assert sim.writes() == [] and sim.chip_writes() == []
    assert error_line(code, err) == (
        f"error: {package}: its FX data and save block take 68,352 bytes, more than the 65,536 bytes of the chip "
        f"on {sim.port}; nothing was written; it needs an Arduboy FX with a bigger chip (16 MB)"
    )


@pytest.mark.parametrize(
    "fault, message",
    [
        (lambda n: Faults(drop=(b"B", n)),  # the cable pulled as the first chip block goes out
         "the device on {port} vanished during the write of FX chip block 1 of 2 at 0xFE0000; "
         "check the cable and reconnect it; "),
        # the bootloader's read, page 0's, the program's n read-backs, two reads, block 1's read-back
        (lambda n: Faults(drop=(b"g", n + 5)),
         "the device on {port} vanished during the read-back of FX chip block 2 of 2 at 0xFF0000; "
         "check the cable and reconnect it; "),
        (lambda n: Faults(stall=(b"B", n + 1)),
         "timeout: the bootloader on {port} stopped answering during the write of FX chip block 2 of 2 at 0xFF0000; "),
        (lambda n: Faults(chip_corrupt=(0xFF0010, 2)),
         "verify failed on the FX chip at 0xFF0010 (wrote {wrote}, read {read}) on {port}, even after rewriting "
         "its block; "),
    ],
    ids=["drop-write", "drop-read-back", "stall", "verify-mismatch"],
)
def test_chip_faults_say_the_program_is_written(capsys, tmp_path, program, fx_data, fault, message):
    package = fx_package(tmp_path, program, fx_data)
    with CaterinaSim(fault(program_pages(program)), cathy3k=True) as sim:
        code, _, err = upload(capsys, package, sim.port, FakeHost(), replace(FAST, chip=0.3))
        assert bytes(sim.flash[:CATHY3K_START]) == expected_flash(program, CATHY3K_START)
        assert not sim.exited
    value = fx_data[0xFF0010 - data_address(fx_data)]
    expected = message.format(port=sim.port, wrote=f"{value:02X}", read=f"{value ^ 1:02X}")
    assert error_line(code, err) == f"error: {expected}{CHIP_RETRY}"


def test_the_data_lands_where_the_firmware_looks_for_it():
    """The build's own page numbers (fxdata.h's FX_DATA_PAGE and FX_SAVE_PAGE) for the game's real images."""
    image = fxdata.build(ROOT / "assets")
    plan = fxchip.layout(image.padded, image.save, CHIP_END)
    assert (plan.data_page, plan.save_page) == (image.data_page, image.save_page)


def test_a_transient_chip_mismatch_is_rewritten_once(capsys, tmp_path, program, fx_data):
    package = fx_package(tmp_path, program, fx_data)
    with CaterinaSim(Faults(chip_corrupt=(0xFF0010, 1)), cathy3k=True) as sim:
        code, _, err = upload(capsys, package, sim.port, FakeHost())
        assert code == 0, err
        assert sim.chip_writes() == [0xFE0000, 0xFF0000, 0xFF0000]
        assert sim.chip_read(data_address(fx_data), len(fx_data)) == fx_data


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
        (to_hex({0x73FF: 1, 0x7400: 2}).encode(), "writes at 0x7400, inside the bootloader (0x7400 and up even with "
                                                  "the 3 KB Cathy3K); the program must fit in 29,696 bytes "
                                                  "(28,672 with the 4 KB Caterina)"),
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
    assert error_line(code, err) == f"error: {path}: a zip without info.json, so not a .arduboy package; " \
                                    "repackage the game"


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
