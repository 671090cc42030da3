"""`whist upload`: put a game on an Arduboy through its bootloader (AVR109 over USB serial).

The flow: validate the file first (nothing touches the device before the hex,
and the package around it, are known to be good), find the Arduboy by USB id,
reset a running sketch into the bootloader with the 1200-baud touch, identify
the bootloader (Caterina, 4 KB; or the Arduboy FX's Cathy3K, 3 KB, which also
reaches the FX flash chip) and refuse what does not fit it (an FX package on
a Mini, whose bootloader selects the chip on another pin, or the other way
round). For an FX game it then reads the chip: on a cart (a chain of slots
from page 0) the game goes in as a slot of the cart, as the cart builders
would put it there (fxcart.py; recovery.py keeps what a cut cable could
cost), on a chip without one at the chip's end (fxchip.py). Then it writes
only the 128-byte pages the program uses and reads each back (retrying
mismatched pages once), then the chip's pages, each write read back
(docs/upload.md). Last it leaves the bootloader so the game starts.
Every failure is an :class:`UploadError` whose message is one line naming the
thing that failed and the fix; docs/upload.md lists them.
The machine-facing parts (port listing, the touch, opening) sit behind
:class:`Host` so tests drive the flow against a simulated bootloader on a pty.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
import time
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Protocol

import click
import serial

from ..engine import bounded
from . import arduboyfile, fxcart, fxchip, intelhex, recovery
from .editions import CATERINA_PROGRAM, CATHY3K_PROGRAM, CLASSIC, EDITIONS
from .emulator import FX_SELECT

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

    from .emulator import FxImage

PAGE = 128
FLASH = 0x8000
SIGNATURE = bytes([0x87, 0x95, 0x1E])  # ATmega32u4 1E 95 87, sent last byte first
SKETCH_IDS = {(0x2341, 0x8036), (0x2A03, 0x8036)}
BOOT_IDS = {(0x2341, 0x0036), (0x2A03, 0x0036)}
RETRY = "the Arduboy still has its bootloader: press reset and run 'whist upload' within 8 s"
CHIP_RETRY = "the program is written and verified, the FX chip's data is not: run 'whist upload' again " \
             "(the bootloader is intact)"
CLASSIC_HEX = f"distributable/{CLASSIC.stem}.hex"
# Cathy3K's LED and menu control ('x'): bit 7 keeps the menu buttons off, so a press cannot start
# another game mid-write; then red, blue or nothing lit (the community's tools use these values).
LED_WRITING, LED_VERIFYING, LED_DONE = 0xC2, 0xC1, 0x40
# The bootloader selects the flash chip by cbi and sbi of one port bit (cathy3k.asm's CART_CS), the words
# the Arduboy toolset tells the devices apart by: PD1 on the Arduboy FX, PE2 on the Mini, PD2 on home-made
# boards (the bootloader's "devkit" build).
BOOT_SELECT = {"PD1": (0x9859, 0x9A59), "PE2": (0x9872, 0x9A72), "PD2": (0x985A, 0x9A5A)}
BOOT_DEVICE = {"PD1": "an Arduboy FX's", "PE2": "an Arduboy Mini's", "PD2": "a home-made FX board's"}
NO_ROOM = ("make room: remove games from the cart with the Arduboy toolset's cart editor (or write a smaller "
           "cart), then run 'whist upload' again")


class UploadError(Exception):
    """A failure the user can act on; str() is the one-line message after 'error: '."""


@dataclass(frozen=True)
class Timing:
    """How long to wait for things; tests shrink them."""

    reply: float = 2.0  # for each bootloader answer (a page write takes about 10 ms)
    boot: float = 10.0  # for the bootloader's port to appear after the touch
    settle: float = 2.0  # for a port that exists but cannot be opened yet
    poll: float = 0.1  # between port listings and open attempts
    chip: float = 10.0  # for a 64 KB chip block: its erase may take 2 s, its 256 pages 3 ms each (W25Q128 maxima)
    jedec_gap: float = 0.5  # between the two chip id reads, as the community's tools space them


@dataclass(frozen=True)
class PortInfo:
    """A serial port as the host lists it."""

    device: str
    vid: int | None = None
    pid: int | None = None

    @property
    def mode(self) -> str | None:
        """'sketch', 'bootloader', or None if the USB id is not an Arduboy's."""
        ids = (self.vid, self.pid)
        return "sketch" if ids in SKETCH_IDS else "bootloader" if ids in BOOT_IDS else None

    def __str__(self) -> str:
        return f"{self.device} ({self.mode} mode)"


class Host(Protocol):
    """What the uploader needs from the machine: list ports, reset a sketch, open a port."""

    def ports(self) -> list[PortInfo]: ...

    def touch(self, device: str) -> None: ...

    def open(self, device: str, timeout: float) -> serial.Serial: ...


class SystemHost:
    """The real machine, through pyserial."""

    def ports(self) -> list[PortInfo]:
        from serial.tools import list_ports

        return [PortInfo(p.device, p.vid, p.pid) for p in list_ports.comports()]

    def touch(self, device: str) -> None:
        """Open at 1200 baud and close: the sketch's USB core then resets into the bootloader."""
        with _port_errors(device, "reset"):
            serial.Serial(device, 1200).close()

    def open(self, device: str, timeout: float) -> serial.Serial:
        return serial.Serial(device, 57600, timeout=timeout, write_timeout=timeout)


@contextmanager
def _port_errors(device: str, doing: str, retry: str = RETRY) -> Iterator[None]:
    """Turn pyserial/OS errors on `device` into UploadErrors that say what to do."""
    try:
        yield
    except OSError as e:  # serial.SerialException is an OSError
        raise UploadError(_port_message(device, doing, e, retry)) from None


def _port_message(device: str, doing: str, e: OSError, retry: str = RETRY) -> str:
    if isinstance(e, serial.SerialTimeoutException):
        return f"timeout: {device} accepted no data during {doing}; {retry}"
    if e.errno == errno.EACCES:
        return (f"permission denied on {device}; on Linux add yourself to the dialout group "
                "(sudo usermod -aG dialout $USER), log out and in again, then retry")
    if e.errno in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return f"no serial port {device}; check the cable, or omit --port to search by USB id"
    kind = _not_a_port(device)
    if kind:
        return f"{device} is {kind}, not a serial port; give the Arduboy's port (such as /dev/ttyACM0) or omit --port"
    return f"the device on {device} vanished during {doing}; check the cable and reconnect it; {retry}"


def _not_a_port(device: str) -> str | None:
    """What `device` is if it cannot be a serial port (a folder, a file, a FIFO, a device that is no terminal), else None.

    Asked only after opening it failed, so looking cannot disturb a working port."""
    try:
        mode = os.stat(device).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a plain file"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        try:
            fd = os.open(device, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError:
            return None
        try:
            return None if os.isatty(fd) else "a device that is not a terminal"
        finally:
            os.close(fd)
    return None


# --- the file --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """What one upload writes: the program's pages and, for an FX game, the images for its chip."""

    name: str  # the file, as messages name it
    device: str  # Arduboy, ArduboyFX or ArduboyMini: the package's; a bare .hex is for any Arduboy
    pages: dict[int, bytes]  # 128-byte page address -> page
    top: int  # the program's last byte address
    fx: FxImage | None  # set when there is data or a save block to put on the chip
    listing: arduboyfile.Listing = arduboyfile.Listing()  # what a cart lists for it
    image: bytes = bytes(fxcart.TITLE_BYTES)  # its title image on a cart: the package's cart image

    @property
    def classic(self) -> bool:
        return self.device == "Arduboy"


def read_game(path: Path) -> Game:
    """The program (and chip images) a .hex or .arduboy file writes, refused if invalid or if it reaches
    into every Arduboy bootloader; the bootloader found on the device may refuse it later."""
    fix = "build it with 'make hex' or name the .hex to upload"
    try:  # a regular file, at most what a hex holds, or a package if it starts as a zip does
        raw = bounded.read(path, replace(intelhex.HEX, fix=fix), replace(arduboyfile.PACKAGE, fix=fix))
    except bounded.InputError as e:
        raise UploadError(str(e)) from None
    if zipfile.is_zipfile(io.BytesIO(raw)):
        return _package(path)
    if raw.startswith(b"PK"):
        raise UploadError(f"{path}: a damaged or truncated zip, so not a usable .arduboy package; "
                          "download or build it again")
    return _game(str(path), "Arduboy", _text(path, raw), None)


def _package(path: Path) -> Game:
    """A .arduboy package, through arduboyfile, the project's one package reader."""
    try:
        program = arduboyfile.read(path)
    except arduboyfile.ArduboyFileError as e:
        raise UploadError(str(e)) from None
    fx = program.fx if program.fx and (program.fx.data or program.fx.save) else None
    game = _game(str(path), program.device, program.hex, fx)
    if not fx:
        return game
    try:
        image = fxcart.title_image(program.listing.cartimage)
    except ValueError as e:
        raise UploadError(f"{path}: its cart image is {e}; repackage the game") from None
    return replace(game, listing=program.listing, image=image)


def _game(name: str, device: str, text: str, fx: FxImage | None) -> Game:
    try:
        memory = intelhex.parse(text)
    except intelhex.HexError as e:
        raise UploadError(f"{name}: not a valid Intel HEX file: {e}; rebuild it with 'make hex'") from None
    top = max(memory)
    if top >= CATHY3K_PROGRAM:
        raise UploadError(
            f"{name}: writes at 0x{top:04X}, inside the bootloader (0x{CATHY3K_PROGRAM:04X} and up even with "
            f"the 3 KB Cathy3K); the program must fit in {CATHY3K_PROGRAM:,} bytes "
            f"({CATERINA_PROGRAM:,} with the 4 KB Caterina)"
        )
    return Game(name, device, intelhex.pages(memory, PAGE), top, fx)


def _text(name: Path | str, raw: bytes) -> str:
    """The file as text; a binary (an .elf or .bin by mistake) gets its own message."""
    if b"\0" in raw or not raw.isascii():
        raise UploadError(f"{name}: not a hex file (binary data); give the .hex from 'make hex' or a .arduboy")
    return raw.decode("ascii")


# --- finding the bootloader ------------------------------------------------------------------
def find_port(host: Host, port: str | None, timing: Timing) -> str:
    """The bootloader's port: the given or only Arduboy, reset into the bootloader if a sketch runs."""
    listed = {p.device: p for p in host.ports()}
    if port is None:
        candidates = [p for p in listed.values() if p.mode]
        if not candidates:
            raise UploadError(
                "no Arduboy found (USB ids 2341/2A03:8036 or :0036); plug it in with a data cable and switch it on, "
                "or give --port"
            )
        if len(candidates) > 1:
            raise UploadError(f"several Arduboys found: {', '.join(map(str, candidates))}; choose one with --port")
        port = candidates[0].device
    if port in listed and listed[port].mode == "sketch":
        host.touch(port)
        return wait_for_bootloader(host, port, timing)
    return port


def wait_for_bootloader(host: Host, sketch_port: str, timing: Timing) -> str:
    """Poll the port list until a bootloader appears (its name may differ from the sketch's)."""
    deadline = time.monotonic() + timing.boot
    while time.monotonic() < deadline:
        found = [p.device for p in host.ports() if p.mode == "bootloader"]
        if found:
            return found[0]
        time.sleep(timing.poll)
    raise UploadError(
        f"the Arduboy on {sketch_port} did not come back in bootloader mode within {timing.boot:g} s; "
        "press reset (or power on holding UP) and run 'whist upload' within 8 s"
    )


def open_port(host: Host, device: str, timing: Timing) -> serial.Serial:
    """Open the bootloader's port, retrying briefly: a new port node gets its group from udev a moment late."""
    deadline = time.monotonic() + timing.settle
    while True:
        try:
            return host.open(device, timing.reply)
        except OSError as e:
            if time.monotonic() >= deadline or _not_a_port(device):
                raise UploadError(_port_message(device, "open", e)) from None
            time.sleep(timing.poll)


# --- the protocol ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Kind:
    """A bootloader as it names itself: what to call it, where it starts (the program's limit), chip commands."""

    name: str
    start: int
    chip: bool


def kind_of(ident: bytes, version: bytes) -> Kind:
    """Told apart as the community's tools do: 'S' CATERIN is the stock 4 KB Caterina; ARDUBOY with 'V' 13 or
    more is Cathy3K (3 KB, with the chip's commands). An older ARDUBOY has no chip commands and is taken to
    be 4 KB, the larger, so nothing is written into it."""
    label = version.decode("ascii", "replace")
    label = f"v{label[0]}.{label[1]}" if version.isdigit() and len(version) == 2 else repr(version)
    if ident == b"CATERIN":
        return Kind(f"Caterina {label}", CATERINA_PROGRAM, False)
    if version.isdigit() and int(version) >= 13:
        return Kind(f"Cathy3K {label}", CATHY3K_PROGRAM, True)
    return Kind(f"Arduboy {label}", CATERINA_PROGRAM, False)


class Bootloader:
    """AVR109 client for the Arduboy's bootloaders on an open serial port, with Cathy3K's chip commands."""

    def __init__(self, link: serial.Serial, device: str, timing: Timing):
        self.link, self.device, self.timing = link, device, timing
        self.retry = RETRY  # what to do after a failure; once the program is written, CHIP_RETRY

    def ask(self, command: bytes, size: int, what: str, wait: float | None = None) -> bytes:
        """Send a command, return its `size`-byte reply within `wait` seconds (else the usual reply time);
        vanishing or silence become UploadErrors."""
        with _port_errors(self.device, what, self.retry):
            if wait:
                self.link.timeout = self.link.write_timeout = wait
            self.link.write(command)
            reply = self.link.read(size)
            if wait:
                self.link.timeout = self.link.write_timeout = self.timing.reply
        if len(reply) < size:
            raise UploadError(f"timeout: the bootloader on {self.device} stopped answering during {what}; "
                              f"{self.retry}")
        return reply

    def expect(self, command: bytes, reply: bytes, what: str, wait: float | None = None) -> None:
        got = self.ask(command, len(reply), what, wait)
        if got != reply:
            raise UploadError(f"the bootloader on {self.device} answered {got!r} to {what}, not {reply!r}; "
                              f"{self.retry}")

    def identify(self) -> Kind:
        """Which bootloader answers ('S', 'V'); refuse anything but an Arduboy's on an ATmega32u4."""
        with _port_errors(self.device, "connect"):
            self.link.reset_input_buffer()
        ident = self.ask(b"S", 7, "identification")
        if ident not in (b"CATERIN", b"ARDUBOY"):
            raise UploadError(
                f"{self.device} is not an Arduboy bootloader (Caterina or Cathy3K; it said {ident!r}); "
                "press reset on the Arduboy and run 'whist upload' within 8 s"
            )
        kind = kind_of(ident, self.ask(b"V", 2, "the version query"))
        signature = self.ask(b"s", 3, "the signature check")
        if signature != SIGNATURE:
            chip = signature[::-1].hex(" ").upper()
            raise UploadError(
                f"{self.device} has chip signature {chip}, not the ATmega32u4's 1E 95 87; is it an Arduboy?"
            )
        self.expect(b"b", b"Y\x00\x80", "the block size query")
        return kind

    def _address(self, address: int) -> None:
        self.expect(b"A" + (address // 2).to_bytes(2, "big"), b"\r", f"set address 0x{address:04X}")

    def write_page(self, address: int, data: bytes) -> None:
        self._address(address)
        self.expect(b"B" + len(data).to_bytes(2, "big") + b"F" + data, b"\r", f"write at 0x{address:04X}")

    def read_page(self, address: int) -> bytes:
        return self.read_flash(address, PAGE, f"read-back at 0x{address:04X}")

    def read_flash(self, address: int, size: int, what: str) -> bytes:
        self._address(address)
        return self.ask(b"g" + size.to_bytes(2, "big") + b"F", size, what)

    # Cathy3K's FX chip: 'A' takes a 256-byte page number before a 'C' (chip) block command.
    def jedec(self) -> bytes:
        return self.ask(b"j", 3, "the FX chip's id query")

    def led(self, state: int) -> None:
        self.expect(b"x" + bytes([state]), b"\r", "the LED control")

    def _chip_page(self, address: int) -> None:
        self.expect(b"A" + (address // fxchip.PAGE).to_bytes(2, "big"), b"\r", f"set chip address 0x{address:06X}")

    def write_chip(self, address: int, data: bytes, what: str) -> None:
        """Whole pages, 64 KB at most ('B' counts them in one byte, 0 meaning 256); the bootloader erases each
        64 KB block as it reaches its start."""
        self._chip_page(address)
        pages = len(data) // fxchip.PAGE % 256
        self.expect(b"B" + bytes([pages, 0]) + b"C" + data, b"\r", what, self.timing.chip)

    def read_chip(self, address: int, size: int, what: str) -> bytes:
        """`size` bytes from a page start, 64 KB a read ('g' counts bytes in 16 bits, 0 meaning 64 KB)."""
        out = b""
        for at in range(address, address + size, fxchip.BLOCK):
            n = min(fxchip.BLOCK, address + size - at)
            self._chip_page(at)
            out += self.ask(b"g" + (n % fxchip.BLOCK).to_bytes(2, "big") + b"C", n, what, self.timing.chip)
        return out

    def leave(self) -> None:
        """Exit the bootloader; the game starts about half a second later."""
        self.expect(b"E", b"\r", "exit")


def first_difference(address: int, wrote: bytes, read: bytes, digits: int = 4) -> str | None:
    """'0xADDR (wrote XX, read YY)' for the first differing byte of a page, or None if equal."""
    for i, (w, r) in enumerate(zip(wrote, read)):
        if w != r:
            return f"0x{address + i:0{digits}X} (wrote {w:02X}, read {r:02X})"
    return None


def _bar(label: str, length: int) -> ProgressBar[int]:
    """A progress bar on stderr, closed by its `with` before any error line is printed."""
    return click.progressbar(length=length, label=label, file=sys.stderr)


# --- what the bootloader found allows --------------------------------------------------------
def check_program(game: Game, kind: Kind, device: str) -> None:
    """Refuse, before anything is written, a program that reaches into the bootloader found."""
    if game.top < kind.start:
        return
    fix = (f"for this Arduboy upload the classic edition, {CLASSIC_HEX}" if not game.classic
           else "it needs the 3 KB Cathy3K bootloader of an Arduboy FX or Mini")
    raise UploadError(f"{game.name}: the program reaches 0x{game.top:04X}, past the {kind.start:,} bytes the "
                      f"{kind.name} bootloader on {device} leaves it; nothing was written; {fix}")


def chip_bytes(boot: Bootloader, game: Game, kind: Kind) -> int:
    """The FX chip's size from its JEDEC id, read twice as the community's tools do: a chip answers the same
    twice; no chip reads 00 00 00 or FF FF FF, a floating bus differs."""
    nothing_written = f"nothing was written; for this Arduboy upload the classic edition, {CLASSIC_HEX}"
    if not kind.chip:
        raise UploadError(f"{game.name} is an {game.device} game with data for the FX flash chip, and the "
                          f"{kind.name} bootloader on {boot.device} cannot reach a chip: this is an Arduboy "
                          f"without FX; {nothing_written}")
    first = boot.jedec()
    time.sleep(boot.timing.jedec_gap)
    second = boot.jedec()
    size = fxchip.capacity(first) if first == second else None
    if size is None:
        ids = " then ".join(dict.fromkeys(i.hex(" ").upper() for i in (first, second)))
        raise UploadError(f"no FX flash chip answers on {boot.device} (chip id {ids}): an Arduboy without FX, "
                          f"and {game.name} is an {game.device} game with data for the chip; {nothing_written}")
    return size


def select_line(bootloader: bytes) -> str | None:
    """The pin the bootloader selects the chip on (PD1, PE2 or PD2), if exactly one pair of words says so."""
    words = {bootloader[i] | bootloader[i + 1] << 8 for i in range(0, len(bootloader) - 1, 2)}
    found = [line for line, pair in BOOT_SELECT.items() if set(pair) <= words]
    return found[0] if len(found) == 1 else None


def check_edition(boot: Bootloader, game: Game) -> None:
    """Refuse the FX edition on a Mini and the Mini's on an FX (its program would not reach the chip), read
    from the bootloader; one that says neither is let through, as before."""
    line = select_line(boot.read_flash(CATHY3K_PROGRAM, FLASH - CATHY3K_PROGRAM, "the bootloader's read"))
    wanted = FX_SELECT[game.device]
    if line is None or line == wanted:
        return
    other = next((e for e in EDITIONS if FX_SELECT.get(e.device) == line), None)
    fix = (f"upload its package, distributable/{other.folder}/{other.stem}.arduboy" if other
           else f"upload the classic edition, {CLASSIC_HEX}")
    raise UploadError(f"{game.name} is the {game.device} edition, which selects the flash chip on {wanted}, and "
                      f"the bootloader on {boot.device} is {BOOT_DEVICE[line]}, which selects it on {line}; "
                      f"nothing was written; {fix}")


@dataclass(frozen=True)
class ChipPlan:
    """What the upload writes: the program's pages (a cart's patched), the chip's writes in order, where the
    data lands, what is said of it, and the copy kept until it is done (recovery.py)."""

    program: dict[int, bytes]
    writes: list[tuple[int, bytes]]
    data_page: int
    saves: str  # how the ok line ends: the saves kept, a blank save block, or nothing
    where: str  # the slot, on a cart, as the ok line says it
    record: recovery.Record | None = None
    superseded: tuple[Path, ...] = ()  # records of a cut upload, dropped once this one's is kept


@dataclass(frozen=True)
class Options:
    """What the command line chooses: keep the player's saves; write the development layout even over a
    cart; where recovery records are kept."""

    keep_saves: bool = True
    overwrite_cart_end: bool = False
    state: Path | None = None


def plan_chip(boot: Bootloader, game: Game, fx: FxImage, kind: Kind, options: Options,
              note: Callable[[str], None]) -> ChipPlan:
    """Everything the chip upload needs, read before anything is written (but a restore of a cut upload's
    blocks): the chip, the edition, the cart on it, and the writes."""
    size = chip_bytes(boot, game, kind)
    check_edition(boot, game)
    found, restored = recover(boot, options.state or recovery.folder(), note)
    pages = size // fxchip.PAGE
    try:
        slots = fxcart.walk(lambda page: boot.read_chip(page * fxchip.PAGE, fxchip.PAGE,
                                                        f"the read of the cart's slot at page 0x{page:04X}"), pages)
    except fxcart.CartError as e:
        if not options.overwrite_cart_end:
            raise UploadError(f"the cart on the FX chip of {boot.device} is damaged: {e}; nothing "
                              f"{'else ' if restored else ''}was written; rewrite the cart with the Arduboy "
                              "toolset or flashcart-writer, or add --overwrite-cart-end to write the game at the "
                              "chip's end over it") from None
        slots = []
    if slots and not options.overwrite_cart_end:
        return plan_cart(boot, game, fx, slots, pages, options.keep_saves, found, restored, note)
    return plan_end(boot, game, fx, size, options.keep_saves, slots)


def recover(boot: Bootloader, state: Path, note: Callable[[str], None]) -> tuple[list[recovery.Record], bool]:
    """The records a cut upload left for this chip, its blocks written back as they were; whether any were.
    Another chip's records stay, and are named."""
    found, restored = [], False
    for record in recovery.load_all(state):
        chip = [boot.read_chip(address, fxchip.BLOCK, "the read of a block a cut upload left")
                for address, _, _ in record.blocks]
        match recovery.state(chip, record):
            case "other":
                note(f"note: {record.path} keeps bytes of another cart, from an upload to it that was cut; "
                     "connect that Arduboy FX and run 'whist upload' again to put them back")
                continue
            case "cut":
                for (address, before, _), now in zip(record.blocks, chip):
                    if now != before:
                        _chip_block(boot, address, before, f"the restore of the block at 0x{address:06X}")
                boot.led(LED_DONE)
                restored = True
                note(f"note: an upload into this cart was cut; its blocks are back as they were ({record.path})")
        found.append(record)
    return found, restored


def plan_end(boot: Bootloader, game: Game, fx: FxImage, size: int, keep_saves: bool,
             slots: list[fxcart.Slot]) -> ChipPlan:
    """The development layout: data and save block at the chip's end (a chip without a cart, or by request
    over the cart's last slots, `slots`). The chip's bytes before the data in the first block are read and
    written back, and its save block is kept if it holds this game's saves."""
    plan = fxchip.layout(fx.data, fx.save, size)
    if not plan.fits:
        raise UploadError(f"{game.name}: its FX data and save block take {len(plan.data) + len(plan.save):,} "
                          f"bytes, more than the {size:,} bytes of the chip on {boot.device}; nothing was written; "
                          "it needs an Arduboy FX with a bigger chip (16 MB)")
    saves = boot.read_chip(plan.save_page * fxchip.PAGE, len(plan.save), "the save block's read")
    kept = keep_saves and fxchip.holds_saves(saves)
    if kept:
        plan = replace(plan, save=saves)
    lead = boot.read_chip(plan.first_block, plan.lead, "the read of the chip before the data")
    over = [s for s in slots if s.end > plan.data_page]
    where = (f"at the chip's end, over {len(over)} of the cart's slots from {over[0].title!r} at page "
             f"0x{over[0].page:04X}" if over else "at the chip's end, after the cart's slots" if slots else "")
    return ChipPlan(game.pages, fxchip.blocks(plan, lead), plan.data_page,
                    _saves_said(bool(plan.save), kept), where)


def _saves_said(save_block: bool, kept: bool) -> str:
    return "" if not save_block else ", the saved games on it kept" if kept else ", a blank save block"


def plan_cart(boot: Bootloader, game: Game, fx: FxImage, slots: list[fxcart.Slot], pages: int, keep_saves: bool,
              found: list[recovery.Record], restored: bool, note: Callable[[str], None]) -> ChipPlan:
    """The game as a slot of the cart (fxcart.py): over its own slot, or after the last; the player's saves
    carried over (from a cut upload's record if there is one, else from its slot), and the program patched as
    the slot holds it."""
    listing = game.listing
    blank = fxchip.padded(fx.save, fxchip.SECTOR)
    slot_game = fxcart.Game(listing.title or Path(game.name).stem, listing.version, listing.author,
                            listing.description, game.image, _flat(game.pages), fx.data, blank)
    saves = (found[-1].saves if found else _slot_saves(boot, fxcart.ours(slots, slot_game)) if keep_saves
             else None)
    kept = keep_saves and saves is not None and fxchip.holds_saves(saves)
    if kept and saves is not None:
        slot_game = replace(slot_game, save=saves.ljust(len(blank), b"\xff"))
    try:
        placement = fxcart.place(slots, slot_game, pages)
    except fxcart.CartError as e:
        raise UploadError(f"{game.name}: {e}; nothing {'else ' if restored else ''}was written; {NO_ROOM}") from None
    layout = placement.layout
    start, end = placement.region
    image = fxcart.slot_image(layout, slot_game, placement.list_number, placement.previous)
    image += b"\xff" * ((end - layout.end) * fxchip.PAGE)  # the blank page that ends the cart
    old = placement.replaces
    over_saves = (old.save_page, old.end) if kept and old and old.save_pages else None
    chip = {address: boot.read_chip(address, fxchip.BLOCK, "the read of a block the slot shares")
            for address in fxcart.blocks_to_read(start, end, over_saves)}
    plan = fxcart.plan(start, image, chip)
    program, unpatched = fxcart.cart_program(layout, slot_game)
    if unpatched:
        note(f"note: no menu button patched in ({unpatched}); the game runs, and reset returns to the menu")
    record = recovery.Record(plan.kept_blocks, saves if kept else None) if plan.kept_blocks else None
    return ChipPlan({address: program[address:address + PAGE] for address in game.pages},
                    [(w.address, w.data) for w in plan.writes], layout.data_page,
                    _saves_said(bool(layout.save_pages), kept), _where(slots, placement),
                    record, tuple(r.path for r in found if r.path))


def _slot_saves(boot: Bootloader, mine: list[fxcart.Slot]) -> bytes | None:
    """The save block of this game's last slot on the cart, if it has one."""
    if not mine or not mine[-1].save_pages:
        return None
    slot = mine[-1]
    return boot.read_chip(slot.save_page * fxchip.PAGE, slot.save_pages * fxchip.PAGE,
                          "the read of its save block on the cart")


def _flat(pages: dict[int, bytes]) -> bytes:
    """The program's flash from address 0 to the end of its last page, 0xFF where the hex has nothing."""
    flash = bytearray(b"\xff" * (max(pages) + PAGE))
    for address, data in pages.items():
        flash[address:address + PAGE] = data
    return bytes(flash)


def _where(slots: list[fxcart.Slot], placement: fxcart.Placement) -> str:
    page = placement.layout.page
    if placement.replaces:
        return f"its slot at page 0x{page:04X} replaced in place"
    category = next((s.title for s in slots if not s.game and s.list == placement.list_number), None)
    said = f"a new slot at page 0x{page:04X}, in the cart's {category or f'list {placement.list_number}'} list"
    if placement.left:
        said += (f"; its older slot at page 0x{placement.left.page:04X} had no room for this build and is left as "
                 "it was (remove it with the Arduboy toolset's cart editor)")
    return said


# --- writing ---------------------------------------------------------------------------------
def flash_program(boot: Bootloader, program: dict[int, bytes]) -> None:
    """Write the pages, verify them all, rewrite and re-verify mismatches once."""
    with _bar("Writing  ", len(program)) as bar:
        for address, data in program.items():
            boot.write_page(address, data)
            bar.update(1)
    bad = []
    with _bar("Verifying", len(program)) as bar:
        for address, data in program.items():
            if boot.read_page(address) != data:
                bad.append(address)
            bar.update(1)
    for address in bad:
        boot.write_page(address, program[address])
    for address in bad:
        where = first_difference(address, program[address], boot.read_page(address))
        if where:
            raise UploadError(f"verify failed at {where} on {boot.device}, even after rewriting; {RETRY}")


def flash_chip(boot: Bootloader, plan: ChipPlan) -> None:
    """Each block (64 KB, or on a cart a part of one) read back as soon as it is written, as the community's
    tools do; one that differs is written once more. Failures from here on say the program is done."""
    boot.retry = CHIP_RETRY
    with _bar("FX chip  ", len(plan.writes)) as bar:
        for n, (address, data) in enumerate(plan.writes, 1):
            _chip_block(boot, address, data, f"FX chip block {n} of {len(plan.writes)} at 0x{address:06X}")
            bar.update(1)
    boot.led(LED_DONE)


def _chip_block(boot: Bootloader, address: int, data: bytes, what: str) -> None:
    for _ in range(2):
        boot.led(LED_WRITING)
        boot.write_chip(address, data, f"the write of {what}")
        boot.led(LED_VERIFYING)
        got = boot.read_chip(address, len(data), f"the read-back of {what}")
        if got == data:
            return
    raise UploadError(f"verify failed on the FX chip at {first_difference(address, data, got, 6)} on "
                      f"{boot.device}, even after rewriting its block; {boot.retry}")


def _done(game: Game, plan: ChipPlan | None, device: str, seconds: float) -> str:
    pages = plan.program if plan else game.pages
    chip = ""
    if plan:
        where = f"{plan.where}: " if plan.where else ""
        chip = (f" and {sum(len(data) for _, data in plan.writes):,} bytes of the FX chip ({where}data at page "
                f"0x{plan.data_page:04X}{plan.saves})")
    edition = "" if game.classic else f" for an {game.device}"
    return (f"ok: wrote and verified {len(pages) * PAGE:,} bytes ({len(pages)} pages){chip}{edition} on {device} "
            f"in {seconds:.1f} s; the game is starting")


def _note(line: str) -> None:
    click.echo(line, err=True)


def upload(path: Path, port: str | None, host: Host, timing: Timing, say: Callable[[str], None],
           options: Options = Options()) -> None:
    """The whole flow; raises UploadError with the message to show. Notes go to stderr."""
    game = read_game(path)
    device = find_port(host, port, timing)
    started = time.monotonic()
    with open_port(host, device, timing) as link:
        boot = Bootloader(link, device, timing)
        kind = boot.identify()
        check_program(game, kind, device)
        plan = plan_chip(boot, game, game.fx, kind, options, _note) if game.fx else None
        flash_program(boot, plan.program if plan else game.pages)
        if plan:
            upload_chip(boot, plan, options.state or recovery.folder())
        boot.leave()
    say(_done(game, plan, device, time.monotonic() - started))


def upload_chip(boot: Bootloader, plan: ChipPlan, state: Path) -> None:
    """The chip's writes, with the plan's record kept on disk until they are all done and read back (a cut
    upload's records it supersedes go once it is kept)."""
    kept = recovery.save(state, plan.record) if plan.record else None
    if kept:
        for path in plan.superseded:
            path.unlink(missing_ok=True)
    flash_chip(boot, plan)
    for path in (*plan.superseded, *([kept] if kept else [])):
        path.unlink(missing_ok=True)


def run(file: str, port: str | None, host: Host | None = None, timing: Timing = Timing(),
        keep_saves: bool = True, overwrite_cart_end: bool = False, state: Path | None = None) -> int:
    """CLI entry: upload and return the exit status, printing any error as one 'error: ...' line."""
    try:
        upload(Path(file), port, host or SystemHost(), timing, click.echo,
               Options(keep_saves, overwrite_cart_end, state))
    except UploadError as e:
        click.echo(f"error: {e}", err=True)
        return 1
    except KeyboardInterrupt:
        click.echo(f"error: upload interrupted; {RETRY}", err=True)
        return 130
    return 0
