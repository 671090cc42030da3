"""`whist upload`: put a game on an Arduboy through its Caterina bootloader (AVR109 over USB serial).

The flow: validate the file first (nothing touches the device before the hex is
known to be good), find the Arduboy by USB id, reset a running sketch into the
bootloader with the 1200-baud touch, check it is a Caterina on an ATmega32u4,
write only the 128-byte pages the program uses, read each back (retrying
mismatched pages once), then leave the bootloader so the game starts.
Every failure is an :class:`UploadError` whose message is one line naming the
thing that failed and the fix; docs/upload.md lists them.
The machine-facing parts (port listing, the touch, opening) sit behind
:class:`Host` so tests drive the flow against a simulated bootloader on a pty.
"""

from __future__ import annotations

import errno
import io
import json
import os
import stat
import sys
import time
import zipfile
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Protocol

import click
import serial

from . import intelhex

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

PAGE = 128
BOOT_START = 0x7000  # the Caterina bootloader owns 0x7000-0x7FFF
SIGNATURE = bytes([0x87, 0x95, 0x1E])  # ATmega32u4 1E 95 87, sent last byte first
SKETCH_IDS = {(0x2341, 0x8036), (0x2A03, 0x8036)}
BOOT_IDS = {(0x2341, 0x0036), (0x2A03, 0x0036)}
RETRY = "the Arduboy still has its bootloader: press reset and run 'whist upload' within 8 s"


class UploadError(Exception):
    """A failure the user can act on; str() is the one-line message after 'error: '."""


@dataclass(frozen=True)
class Timing:
    """How long to wait for things; tests shrink them."""

    reply: float = 2.0  # for each bootloader answer (a page write takes about 10 ms)
    boot: float = 10.0  # for the bootloader's port to appear after the touch
    settle: float = 2.0  # for a port that exists but cannot be opened yet
    poll: float = 0.1  # between port listings and open attempts


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
def _port_errors(device: str, doing: str) -> Iterator[None]:
    """Turn pyserial/OS errors on `device` into UploadErrors that say what to do."""
    try:
        yield
    except OSError as e:  # serial.SerialException is an OSError
        raise UploadError(_port_message(device, doing, e)) from None


def _port_message(device: str, doing: str, e: OSError) -> str:
    if isinstance(e, serial.SerialTimeoutException):
        return f"timeout: {device} accepted no data during {doing}; press reset on the Arduboy and retry within 8 s"
    if e.errno == errno.EACCES:
        return (f"permission denied on {device}; on Linux add yourself to the dialout group "
                "(sudo usermod -aG dialout $USER), log out and in again, then retry")
    if e.errno in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return f"no serial port {device}; check the cable, or omit --port to search by USB id"
    kind = _not_a_port(device)
    if kind:
        return f"{device} is {kind}, not a serial port; give the Arduboy's port (such as /dev/ttyACM0) or omit --port"
    return f"the device on {device} vanished during {doing}; check the cable and reconnect it; {RETRY}"


def _not_a_port(device: str) -> str | None:
    """What `device` is if it cannot be a serial port (a folder, a file, a device that is no terminal), else None.

    Asked only after opening it failed, so looking cannot disturb a working port."""
    try:
        mode = os.stat(device).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a plain file"
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
def read_program(path: Path) -> dict[int, bytes]:
    """The pages a .hex or .arduboy file writes, refused if invalid or if it reaches the bootloader."""
    if path.is_dir():
        raise UploadError(f"{path}: a folder, not a file; name the .hex or .arduboy to upload")
    if not path.is_file():
        raise UploadError(f"{path}: no such file; build it with 'make hex' or name the .hex to upload")
    try:
        raw = path.read_bytes()
        zipped = raw.startswith(b"PK") or zipfile.is_zipfile(io.BytesIO(raw))
        text = _arduboy_hex(path, raw) if zipped else _text(path, raw)
    except (zipfile.BadZipFile, zlib.error, EOFError):
        raise UploadError(f"{path}: a damaged or truncated zip, so not a usable .arduboy package; "
                          "download or build it again") from None
    except OSError as e:
        raise UploadError(f"{path}: cannot read it ({e.strerror}); check the file") from None
    try:
        memory = intelhex.parse(text)
    except intelhex.HexError as e:
        raise UploadError(f"{path}: not a valid Intel HEX file: {e}; rebuild it with 'make hex'") from None
    top = max(memory)
    if top >= BOOT_START:
        raise UploadError(
            f"{path}: writes at 0x{top:04X}, inside the bootloader (0x7000 and up); "
            f"the program must fit in {BOOT_START:,} bytes"
        )
    return intelhex.pages(memory, PAGE)


def _text(name: Path | str, raw: bytes) -> str:
    """The file as text; a binary (an .elf or .bin by mistake) gets its own message."""
    if b"\0" in raw or not raw.isascii():
        raise UploadError(f"{name}: not a hex file (binary data); give the .hex from 'make hex' or a .arduboy")
    return raw.decode("ascii")


def _arduboy_hex(path: Path, raw: bytes) -> str:
    """The hex inside a .arduboy package: the one info.json names, else the only .hex in it."""
    with zipfile.ZipFile(io.BytesIO(raw)) as package:
        names = package.namelist()
        if "info.json" not in names:
            raise UploadError(f"{path}: a zip without info.json, so not a .arduboy package")
        try:
            info = json.loads(package.read("info.json"))
        except ValueError:
            raise UploadError(f"{path}: info.json is not valid JSON; repackage the game") from None
        binaries = info.get("binaries", []) if isinstance(info, dict) else None
        if not isinstance(binaries, list) or not all(isinstance(b, dict) for b in binaries):
            raise UploadError(f'{path}: info.json\'s "binaries" is not a list of entries with a "filename"; '
                              "repackage the game")
        named = [b.get("filename") for b in binaries]
        hexes = [n for n in named if n in names] or [n for n in names if n.lower().endswith(".hex")]
        if len(hexes) != 1:
            raise UploadError(f"{path}: holds {len(hexes)} usable .hex files, need exactly one; name it in info.json")
        return _text(f"{path}:{hexes[0]}", package.read(hexes[0]))


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
class Caterina:
    """AVR109 client for the Caterina bootloader on an open serial port."""

    def __init__(self, link: serial.Serial, device: str):
        self.link, self.device = link, device

    def ask(self, command: bytes, size: int, what: str) -> bytes:
        """Send a command, return its `size`-byte reply; vanishing or silence become UploadErrors."""
        with _port_errors(self.device, what):
            self.link.write(command)
            reply = self.link.read(size)
        if len(reply) < size:
            raise UploadError(
                f"timeout: the bootloader on {self.device} stopped answering during {what}; "
                "press reset on the Arduboy and run 'whist upload' within 8 s"
            )
        return reply

    def expect(self, command: bytes, reply: bytes, what: str) -> None:
        got = self.ask(command, len(reply), what)
        if got != reply:
            raise UploadError(f"the bootloader on {self.device} answered {got!r} to {what}, not {reply!r}; {RETRY}")

    def check(self) -> None:
        """Refuse anything but a Caterina bootloader on an ATmega32u4 with 128-byte blocks."""
        with _port_errors(self.device, "connect"):
            self.link.reset_input_buffer()
        ident = self.ask(b"S", 7, "identification")
        if ident != b"CATERIN":
            raise UploadError(
                f"{self.device} is not a Caterina bootloader (it said {ident!r}); "
                "press reset on the Arduboy and run 'whist upload' within 8 s"
            )
        signature = self.ask(b"s", 3, "the signature check")
        if signature != SIGNATURE:
            chip = signature[::-1].hex(" ").upper()
            raise UploadError(
                f"{self.device} has chip signature {chip}, not the ATmega32u4's 1E 95 87; is it an Arduboy?"
            )
        self.expect(b"b", b"Y\x00\x80", "the block size query")

    def _address(self, address: int) -> None:
        self.expect(b"A" + (address // 2).to_bytes(2, "big"), b"\r", f"set address 0x{address:04X}")

    def write_page(self, address: int, data: bytes) -> None:
        self._address(address)
        self.expect(b"B" + len(data).to_bytes(2, "big") + b"F" + data, b"\r", f"write at 0x{address:04X}")

    def read_page(self, address: int) -> bytes:
        self._address(address)
        return self.ask(b"g" + PAGE.to_bytes(2, "big") + b"F", PAGE, f"read-back at 0x{address:04X}")

    def leave(self) -> None:
        """Exit the bootloader; the game starts about half a second later."""
        self.expect(b"E", b"\r", "exit")


def first_difference(address: int, wrote: bytes, read: bytes) -> str | None:
    """'0xADDR (wrote XX, read YY)' for the first differing byte of a page, or None if equal."""
    for i, (w, r) in enumerate(zip(wrote, read)):
        if w != r:
            return f"0x{address + i:04X} (wrote {w:02X}, read {r:02X})"
    return None


def _bar(label: str, length: int) -> ProgressBar[int]:
    """A progress bar on stderr, closed by its `with` before any error line is printed."""
    return click.progressbar(length=length, label=label, file=sys.stderr)


def flash(boot: Caterina, program: dict[int, bytes]) -> None:
    """Write the pages, verify them all, rewrite and re-verify mismatches once, then exit the bootloader."""
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
    boot.leave()


def upload(path: Path, port: str | None, host: Host, timing: Timing, say: Callable[[str], None]) -> None:
    """The whole flow; raises UploadError with the message to show."""
    program = read_program(path)
    device = find_port(host, port, timing)
    started = time.monotonic()
    with open_port(host, device, timing) as link:
        boot = Caterina(link, device)
        boot.check()
        flash(boot, program)
    size = len(program) * PAGE
    say(f"ok: wrote and verified {size:,} bytes ({len(program)} pages) on {device} "
        f"in {time.monotonic() - started:.1f} s; the game is starting")


def run(file: str, port: str | None, host: Host | None = None, timing: Timing = Timing()) -> int:
    """CLI entry: upload and return the exit status, printing any error as one 'error: ...' line."""
    try:
        upload(Path(file), port, host or SystemHost(), timing, click.echo)
    except UploadError as e:
        click.echo(f"error: {e}", err=True)
        return 1
    except KeyboardInterrupt:
        click.echo(f"error: upload interrupted; {RETRY}", err=True)
        return 130
    return 0
