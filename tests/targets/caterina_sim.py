"""A simulated Arduboy bootloader on a pseudo-terminal, so the uploader is tested without hardware.

Two bootloaders: the stock Caterina (4 KB at 0x7000) and the Arduboy FX's
Cathy3K (3 KB at 0x7400, `cathy3k=True`), with the FX flash chip behind it.
Cathy3K's code selects the chip with cbi and sbi of one pin, PD1 on the FX,
PE2 on the Mini, PD2 on home-made boards (`select`); the simulated
bootloader area holds those two words, where the real ones have them, among
filler that holds no instruction of the kind.
It answers the AVR109 subset each implements (see docs/upload.md and the
platform reference), keeps a 32 KiB program flash whose bootloader area is
write-protected (Caterina's by the lock bits; Cathy3K's in its own code,
which acknowledges a write at or above 0x7400 and skips it), and in Cathy3K
mode a sparse 16 MB W25Q128: 'j' its JEDEC id, 'x' the LEDs, 'A' a 256-byte
page number for 'C', 'B'/'g' with 'C' writing whole pages (erasing a 64 KB
block as a write reaches its first page; programming only clears bits, as
NOR flash does) and reading any length from a page start; `erased` lists
the blocks erased, in order.
It can inject the faults a real upload meets: the device vanishing, a
read-back that differs from what was written, a bootloader that stops
answering. It never touches DTR/RTS: pyserial cannot set them on a pty (errno 25).
"""

from __future__ import annotations

import os
import select
import threading
import tty
from dataclasses import dataclass

FLASH_SIZE = 0x8000
BOOT_START = 0x7000  # Caterina's
CATHY3K_START = 0x7400
PAGE = 128
SIGNATURE = bytes([0x87, 0x95, 0x1E])  # ATmega32u4, last byte first
FUSES = {b"r": 0x2F, b"F": 0xFF, b"N": 0xD8, b"Q": 0xCB}  # lock, low, high, extended
OK = b"\r"
W25Q128 = bytes([0xEF, 0x40, 0x18])  # Winbond, SPI NOR, 2^24 bytes
CHIP_SIZE = 1 << 24
CHIP_PAGE = 256
CHIP_BLOCK = 1 << 16
ERASED = b"\xff" * CHIP_BLOCK
# cbi and sbi PORTx, bit (cathy3k.asm's SPI_flash_select and _deselect, at 0x74F8 and 0x7508 in its builds).
SELECT_WORDS = {"PD1": (0x9859, 0x9A59), "PE2": (0x9872, 0x9A72), "PD2": (0x985A, 0x9A5A)}
SELECT_AT = (0x74F8, 0x7508)


class _Stopped(Exception):
    """The simulator was closed or dropped its connection while waiting for bytes."""


@dataclass
class Faults:
    """Faults to inject; a (command, n) pair triggers on the n-th (0-based) time that command arrives
    ('B' and 'g' count program and chip blocks alike)."""

    drop: tuple[bytes, int] | None = None  # vanish: close the connection instead of answering
    stall: tuple[bytes, int] | None = None  # go silent: read on, never answer again
    corrupt: tuple[int, int] | None = None  # (byte address, times): flip bit 0 there in that many read-backs
    chip_corrupt: tuple[int, int] | None = None  # the same for a chip address
    cut: tuple[int, int] | None = None  # (n, pages): the n-th chip write (0-based) stops after that many pages
    # are programmed (a block reached is erased first, as ever), and the connection goes: a cable pulled mid-write


class CaterinaSim:
    """The bootloader, served from a thread on the master side of a pty; `port` is the slave's path.

    `jedec`: Cathy3K's answers to 'j' in turn, the last repeated (a chipless bus reads 00 or FF, or noise);
    `select`: the pin its code selects the chip on (None: neither word anywhere); `chip`: the chip's blocks
    to start from (another simulator's, as a device plugged in again keeps them)."""

    def __init__(self, faults: Faults | None = None, ident: bytes | None = None, signature: bytes = SIGNATURE,
                 cathy3k: bool = False, jedec: tuple[bytes, ...] = (W25Q128,), select: str | None = "PD1",
                 chip: dict[int, bytearray] | None = None):
        self.faults = faults or Faults()
        self.cathy3k = cathy3k
        self.ident = ident or (b"ARDUBOY" if cathy3k else b"CATERIN")
        self.version = b"21" if cathy3k else b"10"
        self.signature = signature
        self.boot_start = CATHY3K_START if cathy3k else BOOT_START
        bootloader = FLASH_SIZE - self.boot_start
        self.flash = bytearray([0xFF]) * self.boot_start + bytes(range(256)) * (bootloader // 256)
        if cathy3k and select:
            for at, word in zip(SELECT_AT, SELECT_WORDS[select]):
                self.flash[at:at + 2] = word.to_bytes(2, "little")
        # 64 KB block number -> its bytes; blocks never written are erased
        self.chip: dict[int, bytearray] = {b: bytearray(data) for b, data in (chip or {}).items()}
        self.erased: list[int] = []
        self.jedec = list(jedec)
        self.leds: list[int] = []  # each 'x' state, in order
        self.log: list[tuple[bytes, int]] = []  # (command, program byte address when it arrived)
        self.chip_log: list[tuple[bytes, int, int]] = []  # ('B' or 'g', chip byte address, bytes)
        self.exited = False
        self._commands = {**self._HANDLERS, **self._CATHY3K} if cathy3k else self._HANDLERS
        self._address = 0  # as 'A' set it: a word address for 'F', a page number for 'C'
        self._counts: dict[bytes, int] = {}
        self._chip_writes = 0
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
        """Stop serving and release both ends of the pty (once: closing again does nothing)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2)
        self._close_master()
        if self._slave >= 0:
            os.close(self._slave)
            self._slave = -1

    def writes(self) -> list[int]:
        """Byte addresses of the program flash blocks written, in order."""
        return [at for cmd, at in self.log if cmd == b"B"]

    def chip_writes(self) -> list[int]:
        """Chip addresses of the chip blocks written, in order."""
        return [at for cmd, at, _ in self.chip_log if cmd == b"B"]

    # --- the chip ----------------------------------------------------------------------------
    def chip_read(self, address: int, n: int) -> bytes:
        """n bytes from `address` on, wrapping at the chip's end as its read command does."""
        out = bytearray()
        while len(out) < n:
            block, offset = divmod((address + len(out)) % CHIP_SIZE, CHIP_BLOCK)
            out += self.chip.get(block, ERASED)[offset:offset + n - len(out)]
        return bytes(out)

    def preload(self, address: int, data: bytes) -> None:
        """Put bytes on the chip as if written long ago (a test's starting state)."""
        done = 0
        while done < len(data):
            block, offset = divmod(address + done, CHIP_BLOCK)
            n = min(CHIP_BLOCK - offset, len(data) - done)
            self.chip.setdefault(block, bytearray(ERASED))[offset:offset + n] = data[done:done + n]
            done += n

    def _program(self, page: int, data: bytes) -> None:
        """A page program: bits go from 1 to 0 only."""
        block, offset = divmod(page * CHIP_PAGE, CHIP_BLOCK)
        stored = self.chip.setdefault(block, bytearray(ERASED))
        old = int.from_bytes(stored[offset:offset + CHIP_PAGE], "big")
        stored[offset:offset + CHIP_PAGE] = (old & int.from_bytes(data, "big")).to_bytes(CHIP_PAGE, "big")

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
                if cmd not in (b"B", b"g"):  # those log themselves, once their memory is known
                    self.log.append((cmd, self._address * 2))
                handler = self._commands.get(cmd)
                if handler is not None:
                    handler(self)
                elif cmd != b"\x1b":  # ESC syncs, with no reply
                    self._send(b"?")
        except (_Stopped, OSError):  # OSError: the client closed the pty mid-reply
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
        self._address = int.from_bytes(self._read(2), "big")
        self._send(OK)

    def _header(self) -> tuple[int, bytes] | None:
        """A block command's length and memory type; None (answered '?') for one this bootloader lacks."""
        size, memory = int.from_bytes(self._read(2), "big"), self._read(1)
        if memory == b"F" or (memory == b"C" and self.cathy3k):
            return size, memory
        self._send(b"?")
        return None

    def _write_block(self) -> None:
        header = self._header()
        if header is None:
            return
        size, memory = header
        if memory == b"C":
            self._write_chip(size)
        elif size > PAGE:
            self._send(b"?")
        else:
            self._write_flash(self._read(size))

    def _write_flash(self, data: bytes) -> None:
        start = self._address * 2
        self.log.append((b"B", start))
        page = start - start % PAGE
        if page < self.boot_start:  # Caterina's lock bits, Cathy3K's own check: acknowledged, not written
            self.flash[page:page + PAGE] = b"\xff" * PAGE
            self.flash[start:start + len(data)] = data
        self._address += len(data) // 2
        self._send(OK)

    def _write_chip(self, size: int) -> None:
        """Length high byte: pages (0 = 256); low byte: the first page's bytes, 0 (a whole page) in practice."""
        if size & 0xFF:
            self._send(b"?")  # the real one would write a short first page; no client here sends one
            return
        pages = size >> 8 or 256
        data = self._read(pages * CHIP_PAGE)
        self.chip_log.append((b"B", self._address * CHIP_PAGE, len(data)))
        cut = self.faults.cut
        done = cut[1] if cut and cut[0] == self._chip_writes else pages
        self._chip_writes += 1
        for i in range(min(done + 1, pages)):  # a cut page's block is erased: the erase comes before its bytes
            page = (self._address + i) & 0xFFFF
            if page % (CHIP_BLOCK // CHIP_PAGE) == 0:  # 0xD8 at a block's start
                self.chip.pop(page * CHIP_PAGE // CHIP_BLOCK, None)
                self.erased.append(page * CHIP_PAGE // CHIP_BLOCK)
            if i < done:
                self._program(page, data[i * CHIP_PAGE:(i + 1) * CHIP_PAGE])
        if done < pages:
            self._close_master()
            raise _Stopped
        self._address = (self._address + pages) & 0xFFFF
        self._send(OK)

    def _read_block(self) -> None:
        header = self._header()
        if header is None:
            return
        size, memory = header
        if memory == b"C":  # 0 means 64 KB; the page address stays where it was
            start, size = self._address * CHIP_PAGE, size or CHIP_BLOCK
            self.chip_log.append((b"g", start, size))
            data = bytearray(self.chip_read(start, size))
            self.faults.chip_corrupt = self._corrupt(data, start, self.faults.chip_corrupt)
        else:
            start = self._address * 2
            self.log.append((b"g", start))
            data = bytearray(self.flash[start:start + size])
            self.faults.corrupt = self._corrupt(data, start, self.faults.corrupt)
            self._address += size // 2
        self._send(bytes(data))

    @staticmethod
    def _corrupt(data: bytearray, start: int, fault: tuple[int, int] | None) -> tuple[int, int] | None:
        """Flip bit 0 of the faulted byte if it is in `data`; the fault with one time fewer."""
        if fault and fault[1] > 0 and start <= fault[0] < start + len(data):
            data[fault[0] - start] ^= 0x01
            return fault[0], fault[1] - 1
        return fault

    def _chip_erase(self) -> None:
        self.flash[:self.boot_start] = b"\xff" * self.boot_start
        self._send(OK)

    def _with_argument(self) -> None:
        self._read(1)
        self._send(OK)

    def _led(self) -> None:
        self.leds.append(self._read(1)[0])
        self._send(OK)

    def _jedec(self) -> None:
        self._send(self.jedec.pop(0) if len(self.jedec) > 1 else self.jedec[0])

    def _exit(self) -> None:
        self.exited = True  # before the reply, so a client that got it sees the state
        self._send(OK)

    _HANDLERS = {
        b"S": lambda self: self._send(self.ident),
        b"V": lambda self: self._send(self.version),
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
    # Cathy3K: 'p', 'a' and 'e' removed, an empty device list, the chip's id and the LEDs.
    _CATHY3K = {
        b"p": lambda self: self._send(b"?"),
        b"a": lambda self: self._send(b"?"),
        b"e": lambda self: self._send(b"?"),
        b"t": lambda self: self._send(b"\x00"),
        b"j": _jedec,
        b"x": _led,
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
