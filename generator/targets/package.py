"""Building the firmware and packaging it (``whist build``, ``whist size``).

The build is reproducible: the same sources give byte-identical
``Whist.hex`` and ``Whist.arduboy`` (fixed zip timestamps, sorted entries, a
fixed release date in ``info.json``).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from . import compile_cache, linkorder
from .. import __version__
from ..engine.bounded import InputError, Kind, open_file
from ..ai import solver
from ..ai.players import DEVICE_PLAYERS, device_players
from .editions import CLASSIC, EDITIONS, FX, MINI, Edition
from .emulator import HEIGHT, WIDTH

if TYPE_CHECKING:
    from .emulator import FxImage

FLASH_MAX = CLASSIC.flash_max  # the classic edition's: 32 KiB minus the 4 KiB Caterina bootloader
FLASH_LIMIT = CLASSIC.flash_limit
RAM = 2_560
RAM_LIMIT = 1_900  # static RAM (.data, .bss and .noinit); the rest is the stack's
# The search's table (solver.TT_SLOTS words) fills the screen buffer's pages
# 1-7 and goes on into the free RAM above it (firmware/app.cpp's TABLE_ABOVE),
# so the stack has that much less room.
TABLE_ABOVE = solver.TT_SLOTS * 4 - (WIDTH * HEIGHT // 8 - WIDTH)
TOP_ITEMS = 20  # the size report's largest functions, tables and strings
STACK_MARGIN = 64  # stack bytes that must stay untouched in the measured run
# The deepest thing the game does: Hard against Hard on the table, the
# solver's searches with the screen redrawn from inside them (the FX edition's
# Hard is hard-fx, its search reading the chip).
STACK_RUN = "play seed=1 deck=52 scoring=last13 target=0 p0={0} p1={0} fast=0"
TOOLCHAIN = "gcc-avr avr-libc binutils-avr arduino-core-avr"
CORE_DIR = Path("/usr/share/arduino/hardware/arduino/avr/cores/arduino")
RELEASE_DATE = "2026-11-22"  # info.json "date"; change with the version
NAME = "Whist"


class BuildError(Exception):
    """A build failure, reported as one line."""


# An ELF as `whist size` and `whist bench --elf` read it (generator/engine/bounded.py): the build's is 50 KB; one
# with every debug section a compiler can add stays within a few MB.
ELF_BYTES = 16 << 20
ELF = Kind("an ELF file", ELF_BYTES, "give the .elf the build writes (build/avr/Whist.elf after 'make hex')")


def elf_size(elf: Path) -> tuple[int, int]:
    """(flash bytes, static RAM bytes) of an AVR ELF: .text+.data and .data+.bss+.noinit."""
    try:
        with open_file(elf, ELF) as f:  # avr-size reads it after: a regular file of an ELF's size
            magic = f.read(4)
    except InputError as e:
        raise BuildError(str(e)) from None
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


def size_report(flash: int, ram: int, limit: int = FLASH_LIMIT, most: int = FLASH_MAX) -> str:
    """One line of figures; raises BuildError above the flash limit (the classic edition's by
    default: ``most`` is what the bootloader leaves) or RAM_LIMIT."""
    line = (f"flash {flash:,} / {limit:,} B ({limit - flash:,} left, "
            f"and {most - limit:,} more kept spare of {most:,}), "
            f"static RAM {ram:,} / {RAM_LIMIT:,} B ({RAM_LIMIT - ram:,} left; {RAM - ram:,} for the stack "
            f"and the search's {TABLE_ABOVE:,} B above the screen)")
    if flash > limit:
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


def stack_key(hex_path: Path, fx: FxImage | None = None) -> str:
    """What decides a stack run's result: the program, the chip's images, the run and the emulator's
    code (its sources and the pinned avr8js). The emulator is deterministic, so one run a key."""
    from .emulator import EMULATOR_DIR

    h = hashlib.sha256()
    parts = [Path(hex_path).read_bytes(), _stack_run(fx).encode(), b"" if fx is None else fx.device.encode(),
             b"" if fx is None else fx.data, b"" if fx is None else fx.save]
    code = sorted(EMULATOR_DIR.glob("*.js")) + sorted((EMULATOR_DIR / "src").glob("*.js"))
    parts += [p.read_bytes() for p in code + [EMULATOR_DIR / "package-lock.json"]]
    for part in parts:
        h.update(len(part).to_bytes(8, "little") + part)
    return h.hexdigest()[:24]


def stack_cache_path(key: str) -> Path:
    """Where a measured stack run is kept (the user's cache, as the endgame tables): `make hex` measures
    it, and `make test`'s own build of the same bytes reads it instead of playing the hand again."""
    from ..ai.native import cache_dir

    return cache_dir() / f"stack-{key}.txt"


def stack_free(hex_path: Path, fx: FxImage | None = None) -> int:
    """Stack bytes never touched in a Hard-vs-Hard hand, by the firmware's stack paint in the
    emulator (an FX edition's with its data on the emulated chip); read from the cache when these
    bytes were measured before with this emulator."""
    path = stack_cache_path(stack_key(hex_path, fx))
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        pass
    free = _measure_stack(hex_path, fx)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(f"{free}\n")
        tmp.replace(path)
    except OSError:
        pass  # no cache: the next build measures again
    return free


def _stack_run(fx: FxImage | None) -> str:
    """The serial command of the measured hand: Hard against Hard (hard-fx on an FX edition)."""
    return STACK_RUN.format(device_players(fx is not None)[DEVICE_PLAYERS.index("hard")])


def _measure_stack(hex_path: Path, fx: FxImage | None) -> int:
    """Play the stack run's hand in the emulator, then ask the firmware how much of its stack paint is left."""
    import re

    from .emulator import Emulator, EmulatorError

    run = _stack_run(fx)
    try:
        with Emulator(hex_path, fx=fx) as emu:
            emu.run_until_ready()
            emu.serial_write(run + "\n")
            if not emu.run_until_serial("end winner=", max_cycles=4_000_000_000):
                raise BuildError(f"the stack run did not finish in the emulator: {run}")
            emu.serial_write("stack\n")
            emu.run_until_serial(r"# stack free=\d+\n", regex=True)
            return int(re.search(r"# stack free=(\d+)", emu.serial_read().decode()).group(1))
    except EmulatorError as e:
        raise BuildError(f"cannot measure the stack: {e}") from None


def stack_report(hex_path: Path, stack_space: int, fx: FxImage | None = None) -> str:
    """The stack's high-water mark as the build prints it; raises BuildError if fewer than
    STACK_MARGIN bytes stay untouched."""
    free = stack_free(hex_path, fx)
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


def check_cart_patchable(hex_path: Path) -> None:
    """Raise BuildError unless a cart builder could patch its menu button into the program."""
    from . import cart, intelhex

    memory = intelhex.parse(hex_path.read_text())
    try:
        cart.timer0_isr(bytes(memory.get(i, 0xFF) for i in range(max(memory) + 1)))
    except cart.CartError as e:
        raise BuildError(f"{hex_path}: a cart builder could not patch the menu button (UP+DOWN) in: {e}") from None


def check_toolchain() -> None:
    missing = [t for t in ("avr-gcc", "avr-g++", "avr-objcopy", "avr-size") if not shutil.which(t)]
    if missing or not CORE_DIR.is_dir():
        what = ", ".join(missing) if missing else f"the Arduino AVR core ({CORE_DIR})"
        raise BuildError(f"AVR toolchain missing ({what}); run: sudo apt-get install {TOOLCHAIN}")


def compile_firmware(gen: Path, avr: Path, echo: Callable[[str], None] | None = None, defines: str = "") -> Path:
    """Compile firmware/*.cpp with the generated sources in ``gen`` into ``avr``; returns the ELF.

    ``defines`` makes an edition (editions.py). Linked twice: the second link puts the
    functions in the order :mod:`.linkorder` works out from the first, so that more calls
    reach with rcall. A compile of the very same inputs is taken from :mod:`.compile_cache`.
    """
    elf, link_map, order, link = avr / f"{NAME}.elf", avr / f"{NAME}.map", avr / "order.ld", avr / "link.txt"
    kept = compile_cache.key(gen, defines)
    if compile_cache.restore(kept, avr):
        if echo:
            echo(link.read_text())
        return elf
    sources = sorted(Path("firmware").glob("*.cpp")) + sorted(gen.glob("*.cpp"))
    env = dict(os.environ, AVR_FLAGS=f"-I{gen} -Ifirmware -Wall -Wextra {defines}".rstrip(),
               AVR_LDFLAGS=f"-Wl,-Map,{link_map}")
    if subprocess.run(["scripts/avr-build", str(avr), NAME, *map(str, sources)], env=env).returncode:
        raise BuildError("compiling the firmware failed (compiler messages above)")
    try:
        first = linkorder.read_link(elf, link_map)
        order.write_text(linkorder.order_script(first))
    except linkorder.OrderError as e:
        raise BuildError(f"cannot order the functions for the link: {e}") from None
    env.update(AVR_RELINK="1", AVR_LDFLAGS=f"-Wl,-Map,{link_map} -Wl,-T,{order}")
    if subprocess.run(["scripts/avr-build", str(avr), NAME, *map(str, sources)], env=env).returncode:
        raise BuildError(f"linking the firmware in the order of {order} failed (messages above)")
    final = linkorder.read_link(elf, link_map)
    link.write_text(f"link order: {final.relaxed} of {len(final.calls)} calls between functions reach with rcall "
                    f"({first.relaxed} in the compiler's order)")
    if echo:
        echo(link.read_text())
    compile_cache.store(kept, avr)
    return elf


@dataclass
class Built:
    """One edition compiled: its ELF and hex, sizes, stack and report lines."""

    edition: Edition
    avr: Path
    flash: int = 0
    ram: int = 0
    lines: list[str] = field(default_factory=list)

    @property
    def elf(self) -> Path:
        return self.avr / f"{NAME}.elf"

    @property
    def hex(self) -> Path:
        return self.avr / f"{NAME}.hex"


def build(out: Path, dist: Path, echo: Callable[[str], None]) -> list[Path]:
    """Generate, compile, check the size and package every edition; run from the repository root.

    Writes the intermediate files under ``out`` (the classic edition's in ``out/gen`` and
    ``out/avr``, the FX and Mini editions' in ``out/fx`` and ``out/mini``) and into ``dist``
    ``Whist.hex`` and ``Whist.arduboy``, and for each FX device a folder with its hex, the data
    and save images and its package; returns the files written.
    """
    from ..codegen import generate_all

    check_toolchain()
    echo(tables_report())
    assets = Path("assets")
    gens = {False: out / "gen", True: out / "fx" / "gen"}
    for fx, gen in gens.items():
        generate_all(gen, assets, fx=fx)
    built = {e: Built(e, out / "avr" if e is CLASSIC else out / e.name / "avr") for e in EDITIONS}
    with ThreadPoolExecutor(max_workers=2) as pool:  # the compiler and the emulator on both cores
        list(pool.map(lambda b: _compile(b, gens[b.edition.fx]), built.values()))
        stacks = list(pool.map(lambda b: _stack(b, gens[b.edition.fx], built[FX] if b.edition is MINI else None),
                               built.values()))
    for b, stack in zip(built.values(), stacks):
        echo(f"{b.edition.name} edition ({b.edition.device}):")
        for line in b.lines + [stack]:
            echo(line)
    echo(moved_report(built[CLASSIC].elf, built[FX].elf))
    return _distribute(list(built.values()), gens[True], dist, echo)


def tables_report() -> str:
    """Generates the endgame tables (the FX data's generation reuses them) and says how big and how long."""
    from ..ai import endgame

    cached = endgame.cache_path().exists()
    start = time.perf_counter()
    data = endgame.generate()
    took = time.perf_counter() - start
    how = f"read from {endgame.cache_path()}" if cached else f"generated in {took:.1f} s"
    return (f"endgame tables: every stage-2 position with {endgame.K} tricks or fewer left, high and low games: "
            f"{len(data):,} B, {how}")


def _compile(b: Built, gen: Path) -> None:
    compile_firmware(gen, b.avr, b.lines.append, b.edition.defines)
    b.flash, b.ram = elf_size(b.elf)
    check_screen_last(b.elf)
    check_cart_patchable(b.hex)
    if b.edition is not MINI:  # the FX edition's code, another select line
        b.lines.append(size_table(b.elf))
    b.lines.append(size_report(b.flash, b.ram, b.edition.flash_limit, b.edition.flash_max))


# The FX and Mini editions are one program but for the chip's select line: `sbi`/`cbi` of
# PORTD bit 1 (and DDRD bit 1) in the one, of PORTE bit 2 (DDRE bit 2) in the other.
SELECT_WORDS = {(0x9A59, 0x9A72), (0x9859, 0x9872), (0x9A51, 0x9A6A)}


def same_but_select(fx_hex: Path, mini_hex: Path) -> bool:
    """Whether two builds differ only in the words that drive the FX chip's select line (so the
    Mini's stack is the FX edition's: one emulator run serves both)."""
    from . import intelhex

    a, b = (intelhex.parse(p.read_text()) for p in (fx_hex, mini_hex))
    if a.keys() != b.keys():
        return False
    for at in sorted(k for k in a if k % 2 == 0 and a[k] | a.get(k + 1, 0) << 8 != b[k] | b.get(k + 1, 0) << 8):
        if (a[at] | a[at + 1] << 8, b[at] | b[at + 1] << 8) not in SELECT_WORDS:
            return False
    return True


def _stack(b: Built, gen: Path, same_as: Built | None = None) -> str:
    if same_as and same_but_select(same_as.hex, b.hex):
        return f"stack: as the {same_as.edition.name} edition's (the same program but for the chip's select line)"
    fx = None
    if b.edition.fx:
        from ..codegen import fxdata
        from .emulator import FxImage

        # the save block as a first boot leaves it (the whole image checked: fx::verify), so the run
        # is a later boot's, without the first one's 4 s of reading the chip
        data = (gen / "fxdata-data.bin").read_bytes()
        page = fxdata.CHIP_PAGES - (len(data) + fxdata.SAVE_BYTES) // fxdata.PAGE
        fx = FxImage(b.edition.device, data, fxdata.checked_save(data, page))
    return stack_report(b.hex, RAM - b.ram - TABLE_ABOVE, fx)


def _distribute(builds: list[Built], fx_gen: Path, dist: Path, echo: Callable[[str], None]) -> list[Path]:
    """Each edition's hex, data, save and package into ``dist``; for the FX editions also the
    development image (``-dev.bin``: the data, then the save block, fxdata-build's fxdata.bin), the
    one file the community's single-file uploaders write at the chip's end."""
    written = []
    data, save = (fx_gen / "fxdata-data.bin").read_bytes(), (fx_gen / "fxdata-save.bin").read_bytes()
    for b in builds:
        e = b.edition
        folder = dist / e.folder
        folder.mkdir(parents=True, exist_ok=True)
        files = {f"{e.stem}.hex": b.hex.read_bytes()}
        if e.fx:
            files |= {f"{e.stem}-data.bin": data, f"{e.stem}-save.bin": save}
        files[f"{e.stem}.arduboy"] = arduboy_package(e, files)
        if e.fx:
            files[f"{e.stem}-dev.bin"] = (fx_gen / "fxdata.bin").read_bytes()
        for name, body in files.items():
            (folder / name).write_bytes(body)
            written.append(folder / name)
    echo("wrote " + ", ".join(str(p) for p in written))
    return written


def banner_png() -> bytes:
    """The package's cart image (assets/cart.png, checked as a sprite is: 128x64, 1-bit), as a cart's
    menu shows it: the title art, reading "Whist Duel", the title carts list the game by."""
    from ..codegen.sprites import Spec, load, to_image

    cart = load(Spec("cart", (128, 64), (128, 64)), Path("assets") / "cart.png")
    buf = io.BytesIO()
    to_image(cart.data, cart.width, cart.height).save(buf, "PNG", optimize=False)
    return buf.getvalue()


TITLE = "Whist Duel"  # not the original Arduboy game's "German Whist", for cart curators' lists
AUTHOR = "Whist for Arduboy developers"
SCREENSHOT = Path("docs/screenshots/table.png")  # taken from the real hex by `make screenshots`


def info_json(e: Edition) -> dict:
    """info.json, schema 4 as the community's writers emit it: one binary, this edition's;
    no url keys (the project has no public address yet: left out, never empty)."""
    from ..codegen.core import EEPROM_BYTES, EEPROM_LOG

    binary = {"title": f"{TITLE} ({e.device})", "device": e.device, "filename": f"{e.stem}.hex",
              "cartimage": "banner.png"}
    if e.fx:
        binary |= {"flashdata": f"{e.stem}-data.bin", "flashsave": f"{e.stem}-save.bin"}
    info = {
        "schemaVersion": 4,
        "title": TITLE,
        "version": __version__,
        "author": AUTHOR,
        "description": "German Whist for two against the computer: win tricks in the draw stage to shape "
                       "your hand for the last 13 tricks. Five opponents, every scoring variant."
                       + (" Its texts, art and saves are on the FX chip." if e.fx else ""),
        "date": RELEASE_DATE,
        "genre": "Tabletop",
        "license": "MIT",
        "contributors": [{"name": AUTHOR, "roles": ["Code", "Art"]}],
        "binaries": [binary],
        "screenshots": [{"title": "The table", "filename": "screenshot.png"}],
    }
    if not e.fx:  # the bytes it writes; the FX editions write none but the system's audio flag
        info["eeprom"] = {"start": EEPROM_LOG, "end": EEPROM_BYTES - 1}
    return info


def arduboy_package(e: Edition, files: dict[str, bytes]) -> bytes:
    """The .arduboy zip of edition ``e`` (its hex and images in ``files``), byte-for-byte reproducible."""
    files = {
        **files,
        "info.json": (json.dumps(info_json(e), indent=2) + "\n").encode(),
        "banner.png": banner_png(),
        "screenshot.png": SCREENSHOT.read_bytes(),
        "LICENSE.txt": Path("LICENSE").read_bytes(),
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


def flash_symbols(elf: Path) -> dict[str, int]:
    """Bytes of program flash by C++ name (clones merged), from avr-nm."""
    import re

    out = subprocess.run(["avr-nm", "-S", "-C", str(elf)], capture_output=True, text=True)
    if out.returncode:
        raise BuildError(f"avr-nm {elf}: {out.stderr.strip()}")
    sizes: dict[str, int] = {}
    for line in out.stdout.splitlines():
        m = re.fullmatch(r"[0-9a-f]+ ([0-9a-f]+) [tTrR] (.*)", line)
        if m:
            name = re.sub(r"\(.*|\s*\[clone.*", "", m[2].replace("(anonymous namespace)::", ""))
            sizes[name] = sizes.get(name, 0) + int(m[1], 16)
    return sizes


# What the FX edition reads from the chip instead of program flash, and the code that reads it.
MOVED = ("text::", "sprites::")
READERS = MOVED + ("fx::",)
SAVE_ONLY = ("fx::readSave", "fx::eraseSave", "fx::programSave", "fx::saveHolds", "fx::waitReady", "fx::hasSave",
             "fx::readAt", "fx::cartSave", "fx::savePages", "fx::loseSave")


def moved_to_chip(classic_elf: Path, fx_elf: Path) -> tuple[int, int, int]:
    """(moved, reading, freed): the classic edition's bytes of what the FX edition reads from
    the chip (the texts, font, sprites and title with their decoders), the FX edition's code that
    reads them (the chip's reads, the texts' reader, and what drawing grew by), and moved less
    reading. The chip's saves are not counted either way: they are another feature."""
    classic, fx = flash_symbols(classic_elf), flash_symbols(fx_elf)

    def total(sizes: dict[str, int], prefixes: tuple[str, ...]) -> int:
        return sum(n for name, n in sizes.items() if name.startswith(prefixes) and not name.startswith(SAVE_ONLY))

    moved = total(classic, MOVED)
    reading = total(fx, READERS) + max(0, total(fx, ("gfx::",)) - total(classic, ("gfx::",)))
    return moved, reading, moved - reading


def moved_report(classic_elf: Path, fx_elf: Path) -> str:
    moved, reading, freed = moved_to_chip(classic_elf, fx_elf)
    (classic, _), (fx, _) = elf_size(classic_elf), elf_size(fx_elf)
    return (f"moved to the chip: {freed:,} B (texts, font and sprites: {moved:,} B of the classic edition's "
            f"program, less {reading:,} B of the FX edition's code that reads them; its program is "
            f"{abs(classic - fx):,} B {'smaller' if classic >= fx else 'larger'} in all, its saves on the chip "
            "included, and what only it has)")
