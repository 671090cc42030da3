"""The FX edition's data image: what the classic edition keeps in program flash
(every text, the font, the sprites, the title) laid out for the Arduboy FX's
flash chip, and the blank save block that follows it.

The files are those the community's ``fxdata-build.py`` writes, so its
writers, cart builders and emulators take them as they are:

- ``fxdata-data.bin``: the data, padded to whole 256-byte pages;
- ``fxdata-save.bin``: the save block, blank (0xFF), SAVE_BYTES long;
- ``fxdata.bin``: both, the development image, which sits at the chip's end
  (so the save block is 4 KB-aligned there);
- ``fxdata.h``: the development page numbers (``FX_DATA_PAGE``,
  ``FX_SAVE_PAGE``) and the sizes, as fxdata-build names them, and what the
  firmware needs besides: where each sprite and the text index start, and
  the data's checksums, which the firmware checks before it trusts the chip
  (data of another build, or none, would draw garbage; damaged tables would
  make a weaker Master): those of the texts and sprites at every boot, those
  of the whole image (the tables included) once after an upload, remembered
  by a mark in the save block (:func:`checked_save`).

Layout of the data, offsets from its start: the text index (a big-endian
offset a text, in text.h's Id order), the texts (each ended by 0), then the
sprites in :data:`.sprites.SPECS` order; from the next whole page
(``TABLES_PAGE`` pages after the data's first) the endgame tables
(generator/ai/endgame.py), outside the boot checksum (summing 3 MB costs the
device about 4 s: it does so once after an upload). A masked sprite's image and mask
bytes alternate (image first), so one sequential read draws it; the font is
whole (all 96 glyphs), so ``sprites::glyph`` is a subtraction; the title is
raw (the chip has room; no unpacking).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import mul
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined

from . import sprites, text

PAGE = 256
SECTOR = 4096
CHIP_PAGES = 65536  # a 16 MB chip in 256-byte pages; development data end at the last one
# Two 4 KB sectors: firmware/save.cpp writes its records into one sector while the
# other keeps the last complete one, so a power cut during an erase loses nothing.
SAVE_BYTES = 2 * SECTOR
TEXT_INDEX = 0  # the text index opens the data
FILES = ("fxdata.h", "fxdata-data.bin", "fxdata-save.bin", "fxdata.bin")
MISSING = "fx_missing"  # assets/text/NAME.txt: what the screen says when the chip lacks the data
# The save block's mark of a checked image (firmware/fx.cpp's verify): a save.h block of this tag at
# the record's byte 0 (save::MARK), holding the data's page and the B sum of the whole image, little-endian.
MARK_TAG = "C"
RECORD_NUMBER = PAGE - 4  # a record's last 4 bytes: its number and checksum (firmware/save.cpp)


def checksum(data: bytes) -> int:
    """Fletcher-style sums, 16 bits each, as firmware/fx.cpp adds them: (b << 16) | a.

    Each byte is added to a, a to b: b is the sum of each byte times the bytes from it to the end."""
    n = len(data)
    a = sum(data) & 0xFFFF
    b = sum(map(mul, data, range(n, 0, -1))) & 0xFFFF
    return b << 16 | a


def record_sum(body: bytes) -> int:
    """Fletcher-16 mod 255, as firmware/save.cpp sums a block and a record: (b << 8) | a."""
    a = b = 0
    for value in body:
        a = (a + value) % 255
        b = (b + a) % 255
    return b << 8 | a


def checked_save(padded: bytes, data_page: int, size: int = SAVE_BYTES) -> bytes:
    """The save block of ``size`` bytes as the game leaves a blank one after its first boot with the
    image ``padded`` (``fxdata-data.bin``) at ``data_page``: one record (number 0, on the first page)
    holding the mark that the whole image was checked there, nothing else."""
    body = data_page.to_bytes(2, "little") + (checksum(padded) >> 16).to_bytes(2, "little")
    tag = ord(MARK_TAG)
    block = b"W" + bytes([tag]) + body + record_sum(bytes([tag, len(body)]) + body).to_bytes(2, "little")
    record = bytearray(block + b"\xff" * (RECORD_NUMBER - len(block)) + b"\0\0")
    record += record_sum(bytes(record)).to_bytes(2, "little")
    return bytes(record) + b"\xff" * (size - PAGE)


def interleave(image: bytes, mask: bytes) -> bytes:
    """A masked sprite's bytes as the FX edition reads them: image, mask, image, mask..."""
    return bytes(b for pair in zip(image, mask) for b in pair)


@dataclass(frozen=True)
class Image:
    """The data image and where its parts start."""

    data: bytes  # texts and sprites: what the boot checksum covers
    sprites: dict[str, int]  # sprite name -> offset of its first byte
    font: sprites.Sprite
    tables: bytes  # the endgame tables, from page tables_page of the data

    @property
    def tables_page(self) -> int:
        return -(-len(self.data) // PAGE)

    @property
    def pages(self) -> int:
        return self.tables_page + -(-len(self.tables) // PAGE)

    @property
    def padded(self) -> bytes:
        """``fxdata-data.bin``: the data to a whole page, then the tables to a whole page."""
        data = self.data + b"\xff" * (self.tables_page * PAGE - len(self.data)) + self.tables
        return data + b"\xff" * (self.pages * PAGE - len(data))

    @property
    def save(self) -> bytes:
        return b"\xff" * SAVE_BYTES

    @property
    def data_page(self) -> int:
        """The development data page: data, then the save block, ending at the chip's end."""
        return CHIP_PAGES - self.pages - SAVE_BYTES // PAGE

    @property
    def save_page(self) -> int:
        return CHIP_PAGES - SAVE_BYTES // PAGE


def build(assets_dir: Path, tables: bytes = b"") -> Image:
    """Lay out every text and sprite (checked as the classic edition checks them), then ``tables``."""
    items = text.texts(assets_dir, fx=True) + text.voice_texts()  # the voices numbered after the texts
    loaded = [sprites.load(spec, Path(assets_dir) / f"{spec.name}.png") for spec in sprites.SPECS]
    out = bytearray(2 * len(items))
    for i, (_, t) in enumerate(items):
        at = len(out)
        if at >= 1 << 16:
            raise ValueError("the FX data passed 64 KB: text offsets are 16-bit")
        out[2 * i:2 * i + 2] = at.to_bytes(2, "big")
        out += t.encode("latin-1") + b"\0"
    offsets = {}
    for s in loaded:
        offsets[s.spec.name] = len(out)
        out += interleave(s.data, s.mask) if s.mask is not None else s.data
    if len(out) >= 1 << 16:
        raise ValueError("the FX data passed 64 KB: the firmware's offsets are 16-bit")
    font = next(s for s in loaded if s.spec.name == "font")
    return Image(bytes(out), offsets, font, tables)


def missing_message(font: sprites.Sprite, lines: list[str], width: int = 128) -> tuple[list[bytes], list[list[int]]]:
    """The message the firmware shows from program flash when the chip has no data (the font is on
    the chip): the glyphs it uses (a byte a column, in order of first use), and each line centred
    as its length, its first column, and each character's offset among those glyphs (a glyph and a
    blank column apart)."""
    glyph = font.frame_bytes
    used: list[str] = []
    for ch in "".join(lines):
        if ch not in used:
            used.append(ch)
    glyphs = [font.data[(ord(c) - sprites.FONT_FIRST) * glyph:][:glyph] for c in used]
    rows = [[len(line), (width + 1 - (glyph + 1) * len(line)) // 2] + [used.index(c) * glyph for c in line]
            for line in lines]
    return glyphs, rows


def render_header(image: Image, assets_dir: Path) -> str:
    env = Environment(loader=PackageLoader("generator.codegen", "templates"), undefined=StrictUndefined,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    padded = image.padded
    quick, total = checksum(padded[:image.tables_page * PAGE]), checksum(padded)
    lines = text.read(assets_dir, MISSING).split("\n")
    glyphs, indexes = missing_message(image.font, lines)
    return env.get_template("fxdata.h.j2").render(image=image, sum_a=quick & 0xFFFF, sum_b=quick >> 16,
                                                  all_a=total & 0xFFFF, all_b=total >> 16, mark_tag=MARK_TAG,
                                                  save_bytes=SAVE_BYTES, chip_pages=CHIP_PAGES, page=PAGE, text_index=TEXT_INDEX,
                                                  missing=list(zip(lines, indexes)), glyphs=glyphs)


def generate(image: Image, assets_dir: Path, out_dir: Path) -> list[Path]:
    """Write :data:`FILES` of ``image`` (:func:`build`) into ``out_dir``; returns them."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    bodies = {
        "fxdata.h": render_header(image, Path(assets_dir)).encode(),
        "fxdata-data.bin": image.padded,
        "fxdata-save.bin": image.save,
        "fxdata.bin": image.padded + image.save,
    }
    written = []
    for name in FILES:
        path = out_dir / name
        if not path.exists() or path.read_bytes() != bodies[name]:
            path.write_bytes(bodies[name])
        written.append(path)
    return written
