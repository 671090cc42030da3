"""Building the firmware and packaging it (``whist build``, ``whist size``).

The build is reproducible: the same sources give byte-identical
``Whist.hex`` and ``Whist.arduboy`` (fixed zip timestamps, sorted entries, a
fixed release date in ``info.json``).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Callable

from .. import __version__
from ..ai import solver
from .emulator import HEIGHT, WIDTH

FLASH_MAX = 28_672  # 32 KiB minus the 4 KiB bootloader
FLASH_SPARE = 512  # always kept free: the build fails above FLASH_LIMIT
FLASH_LIMIT = FLASH_MAX - FLASH_SPARE
RAM = 2_560
RAM_LIMIT = 1_900  # static RAM (.data, .bss and .noinit); the rest is the stack's
# The search's table (solver.TT_SLOTS words) fills the screen buffer's pages
# 1-7 and goes on into the free RAM above it (firmware/app.cpp's TABLE_ABOVE),
# so the stack has that much less room.
TABLE_ABOVE = solver.TT_SLOTS * 4 - (WIDTH * HEIGHT // 8 - WIDTH)
TOP_ITEMS = 20  # the size report's largest functions, tables and strings
STACK_MARGIN = 64  # stack bytes that must stay untouched in the measured run
# The deepest thing the game does: Hard against Hard on the table, the
# solver's searches with the screen redrawn from inside them.
STACK_RUN = "play seed=1 deck=52 scoring=last13 target=0 p0=hard p1=hard fast=0"
TOOLCHAIN = "gcc-avr avr-libc binutils-avr arduino-core-avr"
CORE_DIR = Path("/usr/share/arduino/hardware/arduino/avr/cores/arduino")
RELEASE_DATE = "2026-11-22"  # info.json "date"; change with the version
NAME = "Whist"


class BuildError(Exception):
    """A build failure, reported as one line."""


def elf_size(elf: Path) -> tuple[int, int]:
    """(flash bytes, static RAM bytes) of an AVR ELF: .text+.data and .data+.bss+.noinit."""
    with open(elf, "rb") as f:
        magic = f.read(4)
    if magic != b"\x7fELF":
        what = "an empty file" if not magic else "an Intel HEX file" if magic[:1] == b":" else "not an ELF file"
        raise BuildError(f"{elf}: {what}, which has no section sizes; give the .elf the build writes "
                         "(build/avr/Whist.elf after 'make hex')")
    out = subprocess.run(["avr-size", "-A", str(elf)], capture_output=True, text=True)
    if out.returncode:
        raise BuildError(f"avr-size {elf}: {out.stderr.strip() or 'failed'}; give an AVR .elf such as build/avr/Whist.elf")
    sizes = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return (sizes.get(".text", 0) + sizes.get(".data", 0),
            sizes.get(".data", 0) + sizes.get(".bss", 0) + sizes.get(".noinit", 0))


def size_report(flash: int, ram: int) -> str:
    """One line of figures; raises BuildError above FLASH_LIMIT or RAM_LIMIT."""
    line = (f"flash {flash:,} / {FLASH_LIMIT:,} B ({FLASH_LIMIT - flash:,} left, "
            f"and {FLASH_SPARE:,} more kept spare of {FLASH_MAX:,}), "
            f"static RAM {ram:,} / {RAM_LIMIT:,} B ({RAM_LIMIT - ram:,} left; {RAM - ram:,} for the stack "
            f"and the search's {TABLE_ABOVE:,} B above the screen)")
    if flash > FLASH_LIMIT:
        raise BuildError(f"program too big: {line}")
    if ram > RAM_LIMIT:
        raise BuildError(f"too much static RAM: {line}")
    return line


def largest_items(elf: Path, n: int = TOP_ITEMS) -> list[tuple[int, str, str]]:
    """The n largest symbols of an ELF (avr-nm --size-sort): (bytes, "flash" or "RAM", name)."""
    import re

    out = subprocess.run(["avr-nm", "--size-sort", "-r", "-S", str(elf)], capture_output=True, text=True)
    if out.returncode:
        raise BuildError(f"avr-nm {elf}: {out.stderr.strip()}")
    rows = [line.split(" ", 3) for line in out.stdout.splitlines()]
    rows = [r for r in rows if len(r) == 4 and r[2].lower() in "tbdrw"][:n]
    # LTO's clones and private copies keep a suffix that hides the C++ name
    mangled = [re.sub(r"(\.(lto_priv|constprop|part|isra)\.\d+)+$", "", r[3]) for r in rows]
    names = subprocess.run(["avr-c++filt", "-p"], input="\n".join(mangled), capture_output=True,
                           text=True).stdout.splitlines()
    if len(names) != len(rows):
        names = mangled
    return [(int(r[1], 16), "RAM" if r[2].lower() in "bd" else "flash", name.replace("(anonymous namespace)::", ""))
            for r, name in zip(rows, names)]


def size_table(elf: Path, n: int = TOP_ITEMS) -> str:
    """The largest items as lines for the build's output."""
    rows = [f"  {size:6,} B {where:5}  {name}" for size, where, name in largest_items(elf, n)]
    return "\n".join([f"largest {n} items (avr-nm --size-sort):", *rows])


def stack_report(hex_path: Path, stack_space: int) -> str:
    """The stack's high-water mark, measured in the emulator by the firmware's
    stack paint; raises BuildError if fewer than STACK_MARGIN bytes stay untouched."""
    import re

    from .emulator import Emulator, EmulatorError

    try:
        with Emulator(hex_path) as emu:
            emu.run_until_ready()
            emu.serial_write(STACK_RUN + "\n")
            if not emu.run_until_serial("end winner=", max_cycles=4_000_000_000):
                raise BuildError(f"the stack run did not finish in the emulator: {STACK_RUN}")
            emu.serial_write("stack\n")
            emu.run_until_serial(r"# stack free=\d+\n", regex=True)
            free = int(re.search(r"# stack free=(\d+)", emu.serial_read().decode()).group(1))
    except EmulatorError as e:
        raise BuildError(f"cannot measure the stack: {e}") from None
    line = (f"stack: {stack_space - free:,} B used at most in a Hard-vs-Hard hand ({free:,} B never touched "
            f"between it and the search's table)")
    if free < STACK_MARGIN:
        raise BuildError(f"stack too close to the data (need {STACK_MARGIN} B untouched): {line}")
    return line


SCREEN_SYMBOL = "_ZN2hw5frameE"  # hw::frame


def symbols(elf: Path) -> list[list[str]]:
    """The ELF's symbols as avr-nm -S lists them, split: address, size (when it has one), type, name."""
    out = subprocess.run(["avr-nm", "-S", str(elf)], capture_output=True, text=True)
    if out.returncode:
        raise BuildError(f"avr-nm {elf}: {out.stderr.strip()}")
    return [line.split() for line in out.stdout.splitlines()]


def check_screen_last(elf: Path, symbol: str = SCREEN_SYMBOL) -> None:
    """Raise BuildError unless ``symbol`` ends where the static data does: the
    search's table runs on from the screen buffer into the free RAM above it."""
    ends = {}
    for parts in symbols(elf):
        if len(parts) >= 3 and parts[-1] in (symbol, "__heap_start"):
            ends[parts[-1]] = int(parts[0], 16) + (int(parts[1], 16) if len(parts) == 4 else 0)
    if len(ends) != 2 or ends[symbol] != ends["__heap_start"]:
        raise BuildError(f"{elf}: {symbol} is not the last static data (keep hw::frame alone in .noinit), "
                         f"so the search's table would overwrite what follows it")


def check_toolchain() -> None:
    missing = [t for t in ("avr-gcc", "avr-g++", "avr-objcopy", "avr-size") if not shutil.which(t)]
    if missing or not CORE_DIR.is_dir():
        what = ", ".join(missing) if missing else f"the Arduino AVR core ({CORE_DIR})"
        raise BuildError(f"AVR toolchain missing ({what}); run: sudo apt-get install {TOOLCHAIN}")


def compile_firmware(gen: Path, avr: Path) -> Path:
    """Compile firmware/*.cpp with the generated sources in ``gen`` into ``avr``; returns the ELF."""
    sources = sorted(Path("firmware").glob("*.cpp")) + sorted(gen.glob("*.cpp"))
    env = dict(os.environ, AVR_FLAGS=f"-I{gen} -Ifirmware -Wall -Wextra")
    if subprocess.run(["scripts/avr-build", str(avr), NAME, *map(str, sources)], env=env).returncode:
        raise BuildError("compiling the firmware failed (compiler messages above)")
    return avr / f"{NAME}.elf"


def build(out: Path, dist: Path, echo: Callable[[str], None]) -> list[Path]:
    """Generate, compile, check the size and package; run from the repository root.

    Writes the intermediate files under ``out`` and ``Whist.hex`` and
    ``Whist.arduboy`` in ``dist``; returns those two.
    """
    from ..codegen import generate_all

    check_toolchain()
    gen, avr = out / "gen", out / "avr"
    generate_all(gen, Path("assets"))
    compile_firmware(gen, avr)
    flash, ram = elf_size(avr / f"{NAME}.elf")
    check_screen_last(avr / f"{NAME}.elf")
    echo(size_table(avr / f"{NAME}.elf"))
    echo(size_report(flash, ram))
    echo(stack_report(avr / f"{NAME}.hex", RAM - ram - TABLE_ABOVE))
    dist.mkdir(parents=True, exist_ok=True)
    hex_path, pkg_path = dist / f"{NAME}.hex", dist / f"{NAME}.arduboy"
    hex_bytes = (avr / f"{NAME}.hex").read_bytes()
    hex_path.write_bytes(hex_bytes)
    pkg_path.write_bytes(arduboy_package(hex_bytes, banner_png(), Path("LICENSE").read_bytes()))
    echo(f"wrote {hex_path} and {pkg_path}")
    return [hex_path, pkg_path]


def banner_png() -> bytes:
    """The title art as the device shows it (decoded back from the sprite bytes), as PNG."""
    from ..codegen.sprites import SPECS, load, to_image

    spec = next(s for s in SPECS if s.name == "title")
    title = load(spec, Path("assets") / "title.png")
    buf = io.BytesIO()
    to_image(title.data, title.width, title.height).save(buf, "PNG", optimize=False)
    return buf.getvalue()


def info_json() -> dict:
    return {
        "schemaVersion": 2,
        "title": NAME,
        "version": __version__,
        "author": "Whist for Arduboy developers",
        "description": "Two-player German Whist against the computer: win tricks in the "
                       "draw stage to shape your hand for the last 13 tricks.",
        "date": RELEASE_DATE,
        "genre": "Card",
        "url": "",
        "sourceUrl": "",
        "contributors": [{"name": "Whist for Arduboy developers", "roles": ["Code", "Art"], "urls": []}],
        "binaries": [{"title": NAME, "device": "Arduboy", "filename": f"{NAME}.hex", "cartimage": "banner.png"}],
    }


def arduboy_package(hex_bytes: bytes, banner: bytes, license_text: bytes) -> bytes:
    """The .arduboy zip, byte-for-byte reproducible."""
    files = {
        "info.json": (json.dumps(info_json(), indent=2) + "\n").encode(),
        f"{NAME}.hex": hex_bytes,
        "banner.png": banner,
        "LICENSE.txt": license_text,
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, files[name])
    return buf.getvalue()
