"""The FX flash chip in both emulators and the .arduboy package reader.

The chip: emulator/src/w25q128.js on avr8js (its spec tests are
emulator/test/w25q128.test.js), ProjectABE's own W25Q64 in the ProjectABE
back-end; both driven by tests/targets/fixtures/fx.cpp, a sketch that works
the chip on its select line (PD1, or PE2 built with FX_PE2) from serial
commands. The reader: generator/targets/arduboyfile.py.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import emulator_args, needs_firmware
from generator.cli import main
from generator.targets import arduboyfile
from generator.targets.arduboyfile import ArduboyFileError
from generator.targets.emulator import CYCLES_PER_MS, Backend, Emulator, EmulatorError, FxImage
from test_emulator import build  # noqa: F401 (the fixture sketches' builder)

pytestmark = pytest.mark.xdist_group("fx_emulator")  # one worker builds the sketch's two editions

CHIP = 1 << 24
DATA = b"AR" + bytes(range(254)) + b"\x11" * 256  # two pages
SAVE = bytes(range(256)) * 16  # a 4 KB save block
EDITIONS = [("ArduboyFX", ""), ("ArduboyMini", "FX_PE2")]  # device, the sketch's define
NO_CHIP = [0xFF] * 3  # what SPDR reads when nothing drives MISO


@contextmanager
def running(hex_path: Path, fx: FxImage, backend: Backend | None = None) -> Iterator[Emulator]:
    """The sketch in an emulator, past its READY line."""
    with Emulator(hex_path, fx=fx, backend=backend) as emu:
        assert emu.run_until_serial("READY\n")
        emu.serial_read()
        yield emu


def ask(emu: Emulator, command: str) -> list[int]:
    """One command of fx.cpp; the bytes of its answer line."""
    emu.serial_write(command + "\n")
    assert emu.run_until_serial("\n"), command
    op, *answer = emu.serial_read().decode().split()
    assert op == command[0]
    return [int(b, 16) for b in answer]


@pytest.mark.parametrize("device,define", EDITIONS)
def test_avr8js_puts_the_chip_on_the_devices_select_line(build: Callable[..., Path], device: str, define: str) -> None:
    with running(build("fx", define), FxImage(device, DATA, SAVE)) as emu:
        assert (emu.fx_data_address, emu.fx_save_address) == (CHIP - len(SAVE) - len(DATA), CHIP - len(SAVE))
        assert ask(emu, "i") == [0xEF, 0x40, 0x18]
        assert ask(emu, f"r {emu.fx_data_address:x} 4") == list(DATA[:4])
        emu.fx_write(0, b"\x41")
        assert ask(emu, f"r {CHIP - 2:x} 4") == [0xFE, 0xFF, 0x41, 0xFF]  # on past the end, from address 0
        assert ask(emu, f"r {emu.fx_save_address:x} 3") == list(SAVE[:3])
        assert ask(emu, "s 2") == [0, 0]
    other = "FX_PE2" if not define else ""  # the other edition's build looks on the other line
    with running(build("fx", other), FxImage(device, DATA, SAVE)) as emu:
        assert ask(emu, "i") == NO_CHIP


def test_avr8js_pads_the_data_to_pages_and_the_save_to_sectors(build: Callable[..., Path]) -> None:
    """The development layout: the data in whole pages, then the save block in whole 4 KB sectors, at the end."""
    with running(build("fx"), FxImage("ArduboyFX", DATA[:300], SAVE[:100])) as emu:
        assert (emu.fx_data_address, emu.fx_save_address) == (CHIP - 4096 - 512, CHIP - 4096)
        assert emu.fx_read(CHIP - 4096 - 512, 512 + 4096) == DATA[:300] + b"\xff" * 212 + SAVE[:100] + b"\xff" * 3996
        assert emu.fx_read(0, 4) == b"\xff" * 4  # erased, as shipped
    with running(build("fx"), FxImage("ArduboyFX", DATA[:300])) as emu:
        assert (emu.fx_data_address, emu.fx_save_address) == (CHIP - 512, None)


def test_the_sketch_erases_and_programs_with_the_datasheets_timing(build: Callable[..., Path]) -> None:
    with running(build("fx"), FxImage("ArduboyFX", DATA, SAVE)) as emu:
        save = emu.fx_save_address
        assert ask(emu, f"e {save + 100:x}") == [0x03]  # BUSY and WEL just after the erase starts
        (_, start), (_, done) = emu.markers()
        assert 45 * CYCLES_PER_MS <= done - start < 46 * CYCLES_PER_MS  # tSE 45 ms
        assert emu.fx_read(save, 4096) == b"\xff" * 4096
        assert emu.fx_read(save - 1, 1) == DATA[-1:]  # the sector before it is untouched
        assert ask(emu, f"p {save + 254:x} 12 34 56") == [0x03]  # wraps inside its page
        (_, start), (_, done) = emu.markers()
        assert 0.4 * CYCLES_PER_MS <= done - start < 0.5 * CYCLES_PER_MS  # tPP 0.4 ms
        assert emu.fx_read(save, 2) + emu.fx_read(save + 254, 2) == bytes([0x56, 0xFF, 0x12, 0x34])
        ask(emu, f"p {save + 254:x} 0F")  # bits only clear: 0x12 & 0x0F
        assert ask(emu, f"r {save + 254:x} 2") == [0x02, 0x34]
        assert ask(emu, "s 1") == [0]


def test_fx_write_and_fx_read_carry_a_save_over_a_power_off(build: Callable[..., Path]) -> None:
    with running(build("fx", "FX_PE2"), FxImage("ArduboyMini", DATA, SAVE)) as emu:
        ask(emu, f"e {emu.fx_save_address:x}")
        ask(emu, f"p {emu.fx_save_address:x} C0 FF EE")
        kept = emu.fx_read(emu.fx_save_address, len(SAVE))
    assert kept[:4] == b"\xc0\xff\xee\xff"
    with running(build("fx", "FX_PE2"), FxImage("ArduboyMini", DATA, kept)) as emu:
        assert ask(emu, f"r {emu.fx_save_address:x} 3") == [0xC0, 0xFF, 0xEE]
        emu.fx_write(emu.fx_save_address + 1, b"\x00")  # a damaged save block
        assert ask(emu, f"r {emu.fx_save_address:x} 3") == [0xC0, 0x00, 0xEE]
        with pytest.raises(EmulatorError, match="do not fit in the flash chip"):
            emu.fx_read(CHIP - 1, 2)


def test_without_fx_there_is_no_chip(build: Callable[..., Path]) -> None:
    with Emulator(build("fx")) as emu:
        assert emu.fx_data_address is None
        assert emu.run_until_serial("READY\n")
        emu.serial_read()
        assert ask(emu, "i") == NO_CHIP
        with pytest.raises(EmulatorError, match="no flash chip"):
            emu.fx_read(0, 1)


def test_projectabe_maps_the_data_as_its_page_does_and_keeps_no_writes(build: Callable[..., Path],
                                                                       projectabe: Backend) -> None:
    """ProjectABE's W25Q64 (docs/emulator.md): reads only, its own JEDEC id, "AR" below address 2,
    the image from its start outside it, status 1 then 0; program and erase change nothing."""
    data = DATA[:300]
    with running(build("fx"), FxImage("ArduboyFX", data, SAVE), projectabe) as emu:
        at = emu.fx_data_address
        assert (at, emu.fx_save_address) == ((CHIP - len(data)) & ~255, None)  # the save image is ignored
        assert ask(emu, "i") == [0xAA, 0xBB, 0xEE]
        assert ask(emu, f"r {at:x} 4") == list(data[:4])
        assert ask(emu, "r 0 3") == [0x41, 0x52, 0x00]
        assert ask(emu, f"r {at - 256:x} 2") == list(data[:2])
        assert ask(emu, "s 3") == [1, 0, 0]
        assert ask(emu, f"e {at:x}") == [1]
        assert ask(emu, f"p {at:x} 00 00") == [1]
        assert emu.fx_read(at, len(data)) == data
        emu.fx_write(at + 1, b"\x99")
        assert ask(emu, f"r {at:x} 2") == [data[0], 0x99]
        with pytest.raises(EmulatorError, match="holds only its data image"):
            emu.fx_read(at + len(data), 1)


def test_projectabe_has_no_chip_on_the_minis_line(build: Callable[..., Path], projectabe: Backend) -> None:
    with pytest.raises(EmulatorError) as e:
        Emulator(build("fx", "FX_PE2"), fx=FxImage("ArduboyMini", DATA), backend=projectabe)
    assert str(e.value) == (f"{build('fx', 'FX_PE2')}: ProjectABE has no flash chip on PE2 (the Arduboy Mini's "
                            "select line): run the Mini edition with --emulator avr8js")


# --- .arduboy packages ---

def package(tmp_path: Path, info: object, files: dict[str, bytes], name: str = "game.arduboy") -> Path:
    """A .arduboy zip with this info.json (a str is written as is) and these files."""
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("info.json", info if isinstance(info, str) else json.dumps(info))
        for member, body in files.items():
            z.writestr(member, body)
    return path


def fx_info(device: str = "ArduboyFX", **extra: object) -> dict:
    """info.json, schema 4, of one FX binary with its data and save."""
    binary = {"title": "fx", "device": device, "filename": "fx.hex", "flashdata": "fx-data.bin",
              "flashsave": "fx-save.bin", "cartimage": "banner.png"} | extra
    return {"schemaVersion": 4, "title": "fx", "binaries": [binary]}


def fx_package(tmp_path: Path, hex_path: Path, device: str = "ArduboyFX") -> Path:
    return package(tmp_path, fx_info(device), {"fx.hex": hex_path.read_bytes(), "fx-data.bin": DATA,
                                               "fx-save.bin": SAVE}, f"{device}.arduboy")


def test_the_reader_takes_the_first_binary_with_its_images(build: Callable[..., Path], tmp_path: Path) -> None:
    hex_path = build("fx", "FX_PE2")
    program = arduboyfile.read(fx_package(tmp_path, hex_path, "ArduboyMini"))
    assert program == arduboyfile.Program("fx.hex", hex_path.read_bytes().decode(), "ArduboyMini",
                                          FxImage("ArduboyMini", DATA, SAVE))
    no_data = package(tmp_path, fx_info(flashdata="", flashsave=None), {"fx.hex": hex_path.read_bytes()})
    assert arduboyfile.read(no_data).fx == FxImage("ArduboyFX", b"")  # an FX device has its chip, blank
    plain = package(tmp_path, {"binaries": [{"filename": "fx.hex"}]}, {"fx.hex": hex_path.read_bytes()})
    assert (arduboyfile.read(plain).device, arduboyfile.read(plain).fx) == ("Arduboy", None)  # schema 2: no device


HEX = b":020000000000FE\n:00000001FF\n"
BAD_PACKAGES: dict[str, tuple[object, dict[str, bytes], str]] = {
    # name: (info.json, files, what the message says)
    "no info.json": (None, {"fx.hex": HEX}, "a zip without info.json, so not a .arduboy package; repackage"),
    "bad JSON": ("{nope", {}, "info.json is not valid JSON; repackage the game"),
    "no binaries": ({"binaries": []}, {}, 'info.json lists no binary with a "filename"'),
    "binaries not a list": ({"binaries": {"filename": "fx.hex"}}, {}, 'lists no binary with a "filename"'),
    "info a list": ([1], {}, 'lists no binary with a "filename"'),
    "hex missing": (fx_info(), {"fx-data.bin": DATA, "fx-save.bin": SAVE},
                    "info.json's filename 'fx.hex' is not a file in the zip; repackage the game"),
    "data missing": (fx_info(), {"fx.hex": HEX, "fx-save.bin": SAVE}, "flashdata 'fx-data.bin' is not a file"),
    "save missing": (fx_info(), {"fx.hex": HEX, "fx-data.bin": DATA}, "flashsave 'fx-save.bin' is not a file"),
    "unknown device": (fx_info("ArduboyColor"), {"fx.hex": HEX, "fx-data.bin": DATA, "fx-save.bin": SAVE},
                       "fx.hex is for device 'ArduboyColor', not one of Arduboy, ArduboyFX, ArduboyMini"),
    "data on a plain Arduboy": (fx_info("Arduboy"), {"fx.hex": HEX, "fx-data.bin": DATA, "fx-save.bin": SAVE},
                                "fx.hex has flashdata and flashsave but is for device Arduboy, which has no "
                                "flash chip; repackage the game for ArduboyFX or ArduboyMini"),
    "binary hex": (fx_info(), {"fx.hex": bytes(range(256)), "fx-data.bin": DATA, "fx-save.bin": SAVE},
                   r"fx.hex is not a hex file \(binary data\); repackage the game"),
    "damaged hex": (fx_info(), {"fx.hex": b":020000000000FF\n", "fx-data.bin": DATA, "fx-save.bin": SAVE},
                    r"fx.hex is not a valid Intel HEX file \(line 1: bad checksum"),
}


@pytest.mark.parametrize("case", BAD_PACKAGES)
def test_every_package_problem_is_one_line_naming_the_file(tmp_path: Path, case: str) -> None:
    info, files, message = BAD_PACKAGES[case]
    path = tmp_path / "bad.arduboy"
    with zipfile.ZipFile(path, "w") as z:
        if info is not None:
            z.writestr("info.json", info if isinstance(info, str) else json.dumps(info))
        for member, body in files.items():
            z.writestr(member, body)
    with pytest.raises(ArduboyFileError, match=message) as e:
        arduboyfile.read(path)
    assert str(e.value).startswith(f"{path}: ") and "\n" not in str(e.value)


def test_files_that_are_no_package_are_one_line_too(tmp_path: Path) -> None:
    (tmp_path / "game.hex").write_bytes(HEX)
    good = package(tmp_path, fx_info(), {"fx.hex": HEX, "fx-data.bin": DATA, "fx-save.bin": SAVE})
    (tmp_path / "cut.arduboy").write_bytes(good.read_bytes()[:-30])
    for path, message in [(tmp_path / "none.arduboy", "no such file"), (tmp_path, "a folder, not a file"),
                          (tmp_path / "game.hex", "not a zip, so not a .arduboy package"),
                          (tmp_path / "cut.arduboy", "a damaged or truncated zip")]:
        with pytest.raises(ArduboyFileError, match=message):
            arduboyfile.read(path)


# --- The command line: whist emulate / crosstest --arduboy ---

def test_cli_emulate_runs_a_package_with_its_chip(build: Callable[..., Path], tmp_path: Path) -> None:
    path = fx_package(tmp_path, build("fx", "FX_PE2"), "ArduboyMini")
    result = CliRunner().invoke(main, ["emulate", "--arduboy", str(path), "--frames", "0", "--ms", "30",
                                       "--serial-in", f"i\\nr {CHIP - len(SAVE):x} 2\\n"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"READY\ni EF 40 18\nr {SAVE[0]:02X} {SAVE[1]:02X}\n"


def test_cli_errors_about_packages_are_one_line(build: Callable[..., Path], tmp_path: Path,
                                                projectabe: Backend) -> None:
    mini = fx_package(tmp_path, build("fx", "FX_PE2"), "ArduboyMini")
    r = CliRunner().invoke(main, ["emulate", "--arduboy", str(mini), "--frames", "0", *emulator_args(projectabe)])
    assert r.exit_code == 1 and r.stderr.endswith(": ProjectABE has no flash chip on PE2 (the Arduboy Mini's "
                                                  "select line): run the Mini edition with --emulator avr8js\n")
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ")
    (tmp_path / "bad.arduboy").write_bytes(b"not a zip")
    for command in (["emulate", "--arduboy"], ["crosstest", "--games", "1", "--arduboy"]):
        r = CliRunner().invoke(main, [*command, str(tmp_path / "bad.arduboy")])
        assert r.exit_code == 1 and r.stderr == (f"error: {tmp_path / 'bad.arduboy'}: not a zip, so not a .arduboy "
                                                 "package; give the package 'make hex' writes (a .hex runs without "
                                                 "--arduboy)\n")
    for args in (["emulate", str(build("fx")), "--arduboy", str(mini)], ["emulate"],
                 ["crosstest", "--hex", str(build("fx")), "--arduboy", str(mini)]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and "Error: give" in r.stderr


@needs_firmware
def test_cli_crosstest_runs_a_package(firmware_dist: Path) -> None:
    result = CliRunner().invoke(main, ["crosstest", "--games", "1", "--arduboy", str(firmware_dist / "Whist.arduboy")])
    assert result.exit_code == 0, result.output
    assert "1 games, 0 differing" in result.stdout
