"""An FX cart on the flash chip: its chain of slots, and a game's slot put into it as the cart builders would.

The format is the community's (MrBlinky's flashcart-builder.py, the Arduboy
toolset's arduboy/fxcart.py; ../shared/fx/FACTS.md): a chain of slots from
page 0 (256-byte pages). A slot is a header page, a 1 KB title image (4
pages), then for a game its program, its data, 0xFF to a 4 KB boundary and
its save block. Header bytes, big-endian: 0-6 "ARDUBOY", 7 the list
(category), 8-9 the previous slot's page (0xFFFF for the first), 10-11 the
next slot's page, 12-13 the slot's size in pages, 14 the program's size in
128-byte units, 15-16 its page, 17-18 the data's page, 19-20 the save
block's page (0xFFFF: none), 21-22 the data's size in pages, 25-56 the
SHA-256 of the program (before the builder patches it) and data, each padded
to whole pages; from 57 title, version, developer and info, each ended by 0,
199 bytes at most in all; 0xFF elsewhere. The chain ends at the first page
that does not start with "ARDUBOY": the builders write a blank page there.

The bootloader's menu (Cathy3K, cathy3k.asm: LoadApplicationInfo,
SelectList, SelectGame) shows one list at a time: the slots whose byte 7 is
that list, in chain order, wherever they are in the chain; LEFT and RIGHT
find a list's first slot from page 0, DOWN follows the next-slot pages and
skips other lists' slots, wrapping at the chain's end. So a slot appended at
the chain's end with the Tabletop list's number is listed after Tabletop's
games, and no other slot's byte changes: the last slot's next page already
points at the page after it.

This module computes (it reads and writes nothing): :func:`walk` the chain
from headers, :func:`place` where this game's slot goes, :func:`slot_image`
its bytes, :func:`plan` the chip writes in a safe order. The uploader
(uploader.py) does the I/O; docs/upload.md tells the whole story.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import Callable

from . import cart
from .fxchip import BLOCK, PAGE, padded

MAGIC = b"ARDUBOY"
NONE = 0xFFFF  # a page field that names no page
BLOCK_PAGES = BLOCK // PAGE  # the bootloader erases a block as a write reaches its first page
SECTOR_PAGES = 16  # a save block starts on a 4 KB sector: the game erases it a sector at a time
TITLE_BYTES = 1024  # a 128x64 1-bit image, 8-pixel columns, LSB on top
PREAMBLE = 1 + TITLE_BYTES // PAGE  # the header page and the title image
STRINGS_AT, STRINGS_MAX, HASH_AT = 57, 199, 25
PROGRAM_UNIT = 128


class CartError(ValueError):
    """A cart this module will not change (a damaged chain), or no room; the message is one line."""


def _u16(header: bytes, at: int) -> int:
    return header[at] << 8 | header[at + 1]


@dataclass(frozen=True)
class Slot:
    """One slot of the chain, from its header page."""

    page: int
    header: bytes

    @property
    def list(self) -> int:
        return self.header[7]

    @property
    def previous(self) -> int:
        return _u16(self.header, 8)

    @property
    def next(self) -> int:
        return _u16(self.header, 10)

    @property
    def size(self) -> int:
        return _u16(self.header, 12)

    @property
    def end(self) -> int:
        return self.page + self.size

    @property
    def program_units(self) -> int:
        return self.header[14]

    @property
    def game(self) -> bool:
        """A game's slot (a category's title screen has no program)."""
        return self.program_units > 0 and _u16(self.header, 15) != NONE

    @property
    def data_page(self) -> int:
        return _u16(self.header, 17)

    @property
    def save_page(self) -> int:
        return _u16(self.header, 19)

    @property
    def save_pages(self) -> int:
        """The save block runs from its page to the slot's end (how the builders lay it out)."""
        return self.end - self.save_page if self.game and self.save_page != NONE else 0

    @property
    def strings(self) -> list[str]:
        """Title, version, developer, info for a game; title, info for a category."""
        raw = self.header[STRINGS_AT:STRINGS_AT + STRINGS_MAX].split(b"\0")[:-1]
        return [s.decode("utf-8", "replace") for s in raw]

    @property
    def title(self) -> str:
        strings = self.strings
        return strings[0] if strings else ""

    @property
    def developer(self) -> str:
        strings = self.strings
        return strings[2] if self.game and len(strings) > 2 else ""


def walk(read_header: Callable[[int], bytes], chip_pages: int) -> list[Slot]:
    """The chain's slots from page 0, as the bootloader and the toolset walk it; CartError (one line) for a
    chain whose next pages and sizes disagree, or that runs past the chip."""
    slots: list[Slot] = []
    page = 0
    while page < chip_pages:
        header = read_header(page)
        if header[:len(MAGIC)] != MAGIC:
            break
        slot = Slot(page, header)
        if slot.size < PREAMBLE or slot.next != slot.end:
            raise CartError(f"the slot at page 0x{page:04X} says the next is at page 0x{slot.next:04X} but its "
                            f"size of {slot.size} pages ends it at page 0x{slot.end & 0xFFFF:04X}")
        if slot.end > chip_pages:
            raise CartError(f"the slot at page 0x{page:04X} ({slot.title!r}) runs to page 0x{slot.end:X}, past "
                            f"the chip's {chip_pages} pages")
        slots.append(slot)
        page = slot.end
    return slots


# --- the game's slot ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """What a slot holds for a game: its strings, title image, program (as built, before any patch), data and
    the save block it starts with (the package's blank one, or the saves kept from the chip)."""

    title: str
    version: str
    developer: str
    info: str
    image: bytes  # TITLE_BYTES
    program: bytes  # flash from address 0
    data: bytes
    save: bytes

    @property
    def program_pages(self) -> int:
        return -(-len(self.program) // PAGE)

    @property
    def data_pages(self) -> int:
        return -(-len(self.data) // PAGE)

    @property
    def save_pages(self) -> int:
        return -(-len(self.save) // (SECTOR_PAGES * PAGE)) * SECTOR_PAGES

    def strings(self) -> bytes:
        """Title, version, developer, info, each ended by 0, cut at 199 bytes as the builders cut them."""
        raw = b"".join(s.encode("utf-8") + b"\0" for s in (self.title, self.version, self.developer, self.info))
        return raw[:STRINGS_MAX]

    def sha256(self) -> bytes:
        """The header's hash as the builders compute it: the program (unpatched) and data, each page-padded."""
        return hashlib.sha256(padded(self.program, PAGE) + padded(self.data, PAGE)).digest()


def title_image(png: bytes | None) -> bytes:
    """A 128x64 PNG (or 2, 3... times that, scaled down as the builder does) as a slot's title image (lit
    pixels set, 8-pixel columns, LSB on top), as the builders convert it; no image gives a dark one, as the
    toolset does. ValueError for anything else."""
    from PIL import Image, UnidentifiedImageError

    if not png:
        return bytes(TITLE_BYTES)
    try:
        img = Image.open(io.BytesIO(png))
        width, height = img.size
        if width % 128 or height * 2 != width or width > 128 * 8:
            raise ValueError(f"{width}x{height} pixels, not 128x64")
        img = img.convert("1").resize((128, 64), Image.NEAREST)
    except (UnidentifiedImageError, OSError, SyntaxError):
        raise ValueError("not a readable image") from None
    pixels = img.load()
    return bytes(sum(1 << bit for bit in range(8) if pixels[x, band + bit]) for band in range(0, 64, 8)
                 for x in range(128))


@dataclass(frozen=True)
class Layout:
    """Where the parts of a slot go, in pages."""

    page: int
    size: int
    program_pages: int
    data_pages: int
    save_pages: int

    @property
    def end(self) -> int:
        return self.page + self.size

    @property
    def program_page(self) -> int:
        return self.page + PREAMBLE

    @property
    def data_page(self) -> int:
        return self.program_page + self.program_pages

    @property
    def save_page(self) -> int | None:
        """The save block ends the slot (firmware and toolset take the block to run to the slot's end)."""
        return self.end - self.save_pages if self.save_pages else None


def builder_layout(page: int, game: Game) -> Layout:
    """The builders' layout: data after the program, the save block at the next 4 KB boundary after it."""
    data_end = page + PREAMBLE + game.program_pages + game.data_pages
    end = -(-data_end // SECTOR_PAGES) * SECTOR_PAGES + game.save_pages if game.save_pages else data_end
    return Layout(page, end - page, game.program_pages, game.data_pages, game.save_pages)


def fixed_layout(page: int, size: int, game: Game) -> Layout | None:
    """The game in a slot of a given size (one that another slot follows), its save block ending it; None if
    it does not fit or the slot does not end on a 4 KB boundary, where a save block must end."""
    layout = Layout(page, size, game.program_pages, game.data_pages, game.save_pages)
    save_page = layout.save_page if layout.save_page is not None else layout.end
    if save_page < layout.data_page + game.data_pages or (game.save_pages and save_page % SECTOR_PAGES):
        return None
    return layout


def header(layout: Layout, game: Game, list_number: int, previous: int) -> bytes:
    """The slot's header page."""
    head = bytearray(MAGIC + b"\xff" * (PAGE - len(MAGIC)))
    program = padded(game.program, PAGE)
    units = len(program) // PROGRAM_UNIT - (program[-PROGRAM_UNIT:] == b"\xff" * PROGRAM_UNIT)
    fields = {8: previous, 10: layout.end, 12: layout.size, 15: layout.program_page,
              17: layout.data_page if game.data_pages else NONE,
              19: layout.save_page if layout.save_page is not None else NONE,
              21: game.data_pages if game.data_pages else NONE}
    head[7], head[14] = list_number, units
    for at, value in fields.items():
        head[at:at + 2] = value.to_bytes(2, "big")
    head[HASH_AT:HASH_AT + 32] = game.sha256()
    strings = game.strings()
    head[STRINGS_AT:STRINGS_AT + len(strings)] = strings
    return bytes(head)


def cart_program(layout: Layout, game: Game) -> tuple[bytes, str | None]:
    """The program as the slot holds it and the MCU runs it: vectors 5 and 6 at the slot's data and save
    pages, the menu button in (or why not)."""
    return cart.for_cart(game.program, layout.data_page, layout.save_page)


def slot_image(layout: Layout, game: Game, list_number: int, previous: int) -> bytes:
    """All the slot's bytes: header, title image, program, data, 0xFF, save block."""
    program, _ = cart_program(layout, game)
    body = (header(layout, game, list_number, previous) + game.image + padded(program, PAGE)
            + padded(game.data, PAGE))
    save = game.save.ljust(layout.save_pages * PAGE, b"\xff")
    return body + b"\xff" * ((layout.end - layout.page) * PAGE - len(body) - len(save)) + save


# --- where it goes -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Placement:
    """The slot to write: its layout, list and previous page; the slot of this game it replaces, if any; an
    older slot of it left as it was (the new build did not fit there); whether it ends the chain (then a
    blank page follows it, the chain's end)."""

    layout: Layout
    list_number: int
    previous: int
    replaces: Slot | None
    left: Slot | None
    last: bool

    @property
    def region(self) -> tuple[int, int]:
        """The pages written: the slot, and the blank page after it when it ends the chain."""
        return self.layout.page, self.layout.end + self.last


def tabletop(slots: list[Slot]) -> Slot | None:
    """The cart's Tabletop category (the official cart's list for card games), by its title screen's title."""
    return next((s for s in slots if not s.game and s.title.strip().lower().startswith("tabletop")), None)


def ours(slots: list[Slot], game: Game) -> list[Slot]:
    """This game's slots: a game slot with its title and developer (the mark, kept by every cart tool)."""
    return [s for s in slots if s.game and s.title == game.title and s.developer == game.developer]


def place(slots: list[Slot], game: Game, chip_pages: int) -> Placement:
    """Where this game's slot goes on a cart (`slots` not empty): over its last slot there, in place (a new
    size if it ends the chain, else in the same pages), or at the chain's end. CartError if no room."""
    last = slots[-1]
    mine = ours(slots, game)
    old = mine[-1] if mine else None
    if old is last:
        return _room(Placement(builder_layout(old.page, game), old.list, old.previous, old, None, True),
                     chip_pages, game)
    if old is not None:
        layout = fixed_layout(old.page, old.size, game)
        if layout is not None:
            return Placement(layout, old.list, old.previous, old, None, False)
    category = tabletop(slots)
    list_number = category.list if category else max(last.list, 1)  # list 0 is the bootloader's own screen
    return _room(Placement(builder_layout(last.end, game), list_number, last.page, None, old, True), chip_pages, game)


def _room(placement: Placement, chip_pages: int, game: Game) -> Placement:
    start, end = placement.region
    if end > chip_pages:
        raise CartError(f"{game.title} needs {(end - start) * PAGE:,} bytes of the chip from page 0x{start:04X} "
                        f"(its slot, and a blank page to end the cart) and {(chip_pages - start) * PAGE:,} are "
                        f"left there: {(end - chip_pages) * PAGE:,} bytes are missing")
    return placement


# --- the writes --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Write:
    """One 'B' command: whole pages from `address` (64 KB at most); the bootloader erases each 64 KB block
    whose first page it reaches."""

    address: int
    data: bytes


@dataclass(frozen=True)
class Plan:
    """The writes, in order, and each block read before that they erase and that was not blank (another
    slot's bytes, bytes beyond the cart, the old slot's header): its bytes before and after, what a rerun
    restores from if the upload is cut (recovery.py)."""

    writes: list[Write]
    kept_blocks: list[tuple[int, bytes, bytes]]  # (address, the chip's bytes, the bytes written)


def blocks_to_read(start: int, end: int, saves: tuple[int, int] | None = None) -> list[int]:
    """The addresses of the blocks to read before writing the pages [start, end): the header's (to keep what
    is there until the end, and to restore it after a cut), a last one shared with bytes after them, and
    those of the pages `saves` (the old save block, when the slot is rewritten over it)."""
    blocks = {start // BLOCK_PAGES}
    if end % BLOCK_PAGES:
        blocks.add((end - 1) // BLOCK_PAGES)
    if saves:
        blocks.update(range(saves[0] // BLOCK_PAGES, (saves[1] - 1) // BLOCK_PAGES + 1))
    return [b * BLOCK for b in sorted(blocks)]


def plan(start: int, image: bytes, chip: dict[int, bytes]) -> Plan:
    """The writes that put `image` at page `start` (its first page a slot's header), given the chip's bytes
    of the blocks :func:`blocks_to_read` names (`chip`, by block address).

    Order: the blocks after the header's, then the header's block, and last the header page itself when it
    is not a block's first page, written into a page left blank, without an erase. Until then the chain
    ends where it ended (an appended slot) or still names the old slot (one replaced in place). The first
    block is not erased at all when its pages from the header on are blank already (a cart's free space);
    a shared block whose bytes would not change is not written."""
    base, end = start * PAGE, start * PAGE + len(image)
    header_block = base - base % BLOCK
    alone = base % BLOCK != 0  # the header page can be programmed by itself, last
    writes: list[Write] = []
    last: list[Write] = []
    kept: list[tuple[int, bytes, bytes]] = []
    for block in range(header_block, end, BLOCK):
        lo, hi = max(base, block) - block, min(end, block + BLOCK) - block
        old = chip.get(block)
        new = bytearray(old if old is not None else b"\xff" * BLOCK)
        new[lo:hi] = image[block + lo - base:block + hi - base]
        if old is not None and new == old:
            continue
        if block == header_block and alone and old is not None and old[lo:hi] == b"\xff" * (hi - lo):
            body = Write(base + PAGE, bytes(new[lo + PAGE:hi]))  # blank already: programmed, never erased
            last = ([body] if body.data else []) + [Write(base, image[:PAGE])]
            continue
        if old is not None and old != b"\xff" * BLOCK:
            kept.append((block, old, bytes(new)))
        if block != header_block:
            writes.append(Write(block, bytes(new)))
        elif alone:
            last = [Write(block, bytes(new[:lo]) + b"\xff" * PAGE + bytes(new[lo + PAGE:])), Write(base, image[:PAGE])]
        else:
            last = [Write(block, bytes(new))]
    return Plan(writes + last, kept)

