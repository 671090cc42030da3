"""A simulated Caterina bootloader on a pseudo-terminal, so the uploader is tested without hardware.

It answers the AVR109 subset the Arduboy's bootloader implements (see
docs/upload.md and the platform reference), keeps a 32 KiB flash image whose
bootloader area (0x7000 and up) is write-protected like the real lock bits, and
can inject the faults a real upload meets: the device vanishing, a read-back
that differs from what was written, a bootloader that stops answering.
It never touches DTR/RTS: pyserial cannot set them on a pty (errno 25).
"""

from __future__ import annotations

import os
import select
import threading
import tty
from dataclasses import dataclass

FLASH_SIZE = 0x8000
BOOT_START = 0x7000
PAGE = 128
SIGNATURE = bytes([0x87, 0x95, 0x1E])  # ATmega32u4, last byte first
FUSES = {b"r": 0x2F, b"F": 0xFF, b"N": 0xD8, b"Q": 0xCB}  # lock, low, high, extended
OK = b"\r"


class _Stopped(Exception):
    """The simulator was closed or dropped its connection while waiting for bytes."""


@dataclass
class Faults:
    """Faults to inject; a (command, n) pair triggers on the n-th (0-based) time that command arrives."""

    drop: tuple[bytes, int] | None = None  # vanish: close the connection instead of answering
    stall: tuple[bytes, int] | None = None  # go silent: read on, never answer again
    corrupt: tuple[int, int] | None = None  # (byte address, times): flip bit 0 there in that many read-backs


class CaterinaSim:
    """The bootloader, served from a thread on the master side of a pty; `port` is the slave's path."""

    def __init__(self, faults: Faults | None = None, ident: bytes = b"CATERIN", signature: bytes = SIGNATURE):
        self.faults = faults or Faults()
        self.ident, self.signature = ident, signature
        self.flash = bytearray([0xFF]) * BOOT_START + bytes(range(256)) * ((FLASH_SIZE - BOOT_START) // 256)
        self.log: list[tuple[bytes, int]] = []  # (command, byte address when it arrived)
        self.exited = False
        self._address = 0
        self._counts: dict[bytes, int] = {}
        self._silent = False
        self._stop = threading.Event()
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._thread = threading.Thread(target=self._serve, name="caterina-sim", daemon=True)

    def __enter__(self) -> CaterinaSim:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving and release both ends of the pty."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2)
        self._close_master()
        os.close(self._slave)

    def writes(self) -> list[int]:
        """Byte addresses of the flash blocks written, in order."""
        return [at for cmd, at in self.log if cmd == b"B"]

    # --- transport -------------------------------------------------------------------------
    def _close_master(self) -> None:
        if self._master >= 0:
            os.close(self._master)
            self._master = -1

    def _read(self, n: int) -> bytes:
        """Exactly n bytes from the client; raises _Stopped once closed or dropped."""
        data = b""
        while len(data) < n:
            if self._stop.is_set() or self._master < 0:
                raise _Stopped
            if select.select([self._master], [], [], 0.02)[0]:
                data += os.read(self._master, n - len(data))
        return data

    def _send(self, data: bytes) -> None:
        if not self._silent:
            view = memoryview(data)
            while view:
                view = view[os.write(self._master, view):]

    # --- protocol --------------------------------------------------------------------------
    def _serve(self) -> None:
        try:
            while not self.exited:
                cmd = self._read(1)
                if self._fault(cmd):
                    continue
                self.log.append((cmd, self._address))
                handler = self._HANDLERS.get(cmd)
                if handler is not None:
                    handler(self)
                elif cmd != b"\x1b":  # ESC syncs, with no reply
                    self._send(b"?")
        except _Stopped:
            pass

    def _fault(self, cmd: bytes) -> bool:
        """Apply a drop or stall due on this command; True if the command must not be served."""
        n = self._counts[cmd] = self._counts.get(cmd, -1) + 1
        if self.faults.drop == (cmd, n):
            self._close_master()
            return True
        if self.faults.stall == (cmd, n):
            self._silent = True
        return False

    def _set_address(self) -> None:
        self._address = int.from_bytes(self._read(2), "big") * 2  # word address
        self._send(OK)

    def _write_block(self) -> None:
        size, memory = int.from_bytes(self._read(2), "big"), self._read(1)
        if memory != b"F" or size > PAGE:
            self._send(b"?")
            return
        data = self._read(size)
        start = self._address
        page = start - start % PAGE
        if page < BOOT_START:  # the lock bits protect the bootloader section
            self.flash[page:page + PAGE] = b"\xff" * PAGE
            self.flash[start:start + size] = data
        self._address += size
        self._send(OK)

    def _read_block(self) -> None:
        size, memory = int.from_bytes(self._read(2), "big"), self._read(1)
        if memory != b"F":
            self._send(b"?")
            return
        start = self._address
        data = bytearray(self.flash[start:start + size])
        corrupt = self.faults.corrupt
        if corrupt and corrupt[1] > 0 and start <= corrupt[0] < start + size:
            data[corrupt[0] - start] ^= 0x01
            self.faults.corrupt = (corrupt[0], corrupt[1] - 1)
        self._address += size
        self._send(bytes(data))

    def _chip_erase(self) -> None:
        self.flash[:BOOT_START] = b"\xff" * BOOT_START
        self._send(OK)

    def _with_argument(self) -> None:
        self._read(1)
        self._send(OK)

    def _exit(self) -> None:
        self.exited = True  # before the reply, so a client that got it sees the state
        self._send(OK)

    _HANDLERS = {
        b"S": lambda self: self._send(self.ident),
        b"V": lambda self: self._send(b"10"),
        b"s": lambda self: self._send(self.signature),
        b"b": lambda self: self._send(b"Y\x00\x80"),
        b"p": lambda self: self._send(b"S"),
        b"a": lambda self: self._send(b"Y"),
        b"t": lambda self: self._send(b"\x44\x00"),
        b"P": lambda self: self._send(OK),
        b"L": lambda self: self._send(OK),
        b"T": _with_argument,
        b"l": _with_argument,
        b"A": _set_address,
        b"B": _write_block,
        b"g": _read_block,
        b"e": _chip_erase,
        b"E": _exit,
        **{cmd: (lambda value: lambda self: self._send(bytes([value])))(v) for cmd, v in FUSES.items()},
    }


def to_hex(memory: dict[int, int] | bytes, start: int = 0, width: int = 16) -> str:
    """Intel HEX text for a program (bytes at `start`, or {address: value}); a test fixture, not for devices."""
    if isinstance(memory, (bytes, bytearray)):
        memory = {start + i: b for i, b in enumerate(memory)}
    lines: list[str] = []
    run: list[int] = []
    for address in sorted(memory) + [None]:
        if run and (address is None or address != run[-1] + 1 or len(run) == width):
            body = bytes([len(run)]) + run[0].to_bytes(2, "big") + b"\x00" + bytes(memory[a] for a in run)
            lines.append(":" + (body + bytes([-sum(body) & 0xFF])).hex().upper())
            run = []
        if address is not None:
            run.append(address)
    return "\n".join(lines + [":00000001FF"]) + "\n"
