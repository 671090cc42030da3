"""Where an FX game's data and save block go on the Arduboy FX's flash chip, and the blocks an upload writes.

The layout is the community's development layout (fxdata-build's, and where
firmware/fx.cpp looks when no cart builder patched its pages into the
program): the data padded to whole 256-byte pages, then the save block padded
to whole 4 KB sectors, ending at the chip's last byte. The FX bootloader
erases only whole 64 KB blocks, as it starts writing one, so an upload writes
whole aligned blocks; the bytes of the first block before the data are read
from the chip and written back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..codegen.fxdata import PAGE, SECTOR, record_sum  # 'A' counts the chip in pages; the game erases sectors

BLOCK = 65536  # the bootloader erases in these
ADDRESSABLE = PAGE << 16  # 'A' takes a 16-bit page number: 16 MB at most
RECORD_CHECK = PAGE - 2  # a save record's last two bytes: its checksum (firmware/save.cpp)


def padded(data: bytes, unit: int) -> bytes:
    """`data` with 0xFF (erased flash) up to a whole number of `unit`s."""
    return data + b"\xff" * (-len(data) % unit)


def capacity(jedec: bytes) -> int | None:
    """The chip's bytes from its JEDEC id (manufacturer, type, log2 of the size), or None if no chip answered.

    A bus with no chip reads all 0s or all 1s; a size under one erase block is no flash chip either.
    Beyond 16 MB only the first 16 MB can be addressed through the bootloader."""
    if jedec in (b"\x00\x00\x00", b"\xff\xff\xff") or not 16 <= jedec[2] < 32:
        return None
    return min(1 << jedec[2], ADDRESSABLE)


@dataclass(frozen=True)
class Layout:
    """The data and save images (padded) as they end the chip of `capacity` bytes."""

    data: bytes
    save: bytes
    capacity: int

    @property
    def save_page(self) -> int:
        return (self.capacity - len(self.save)) // PAGE

    @property
    def data_page(self) -> int:
        return self.save_page - len(self.data) // PAGE

    @property
    def first_block(self) -> int:
        """The chip address of the first 64 KB block the image touches."""
        return self.data_page * PAGE // BLOCK * BLOCK

    @property
    def lead(self) -> int:
        """Bytes of the first block before the data: kept as the chip has them."""
        return self.data_page * PAGE - self.first_block

    @property
    def fits(self) -> bool:
        return len(self.data) + len(self.save) <= self.capacity


def layout(data: bytes, save: bytes, chip_bytes: int) -> Layout:
    return Layout(padded(data, PAGE), padded(save, SECTOR), chip_bytes)


def blocks(plan: Layout, lead: bytes) -> list[tuple[int, bytes]]:
    """(chip address, 64 KB) of each block to write: the chip's `lead` bytes, the data, the save block."""
    image = lead + plan.data + plan.save
    return [(plan.first_block + at, image[at:at + BLOCK]) for at in range(0, len(image), BLOCK)]


def holds_saves(save: bytes) -> bool:
    """Whether the save block holds a record the game would load: a page whose checksum (little-endian,
    its last two bytes) is right. An erased page never is; an all-zero one would be, and is not counted."""
    pages = (save[at:at + PAGE] for at in range(0, len(save) - PAGE + 1, PAGE))
    return any(any(page) and record_sum(page[:RECORD_CHECK]) == int.from_bytes(page[RECORD_CHECK:], "little")
               for page in pages)
