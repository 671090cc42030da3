"""Sprites: validate the PNGs in ``assets/`` and turn them into ``sprites.h``.

Every PNG is declared in :data:`SPECS` with its size, mode and frame layout; a
file that does not match raises :class:`SpriteError` naming the file and the
problem. White means a lit pixel (ink); an RGBA sprite's transparent pixels
become its mask. Bitmaps use the SSD1306 layout the firmware draws with:
bytes are 8-pixel vertical strips, LSB on top, row of pages after row of pages.
A ``packed`` sprite (the full-screen title) is stored LZ-packed (:mod:`.pack`)
and unpacked by the generated ``sprites::unpack``.

The font keeps only the glyphs the firmware draws (:func:`drawn`): the
characters of the screen's packed texts, the digits and '/' of the numbers and
page counts it makes, '?' for a character the font lacks, and any character
literal in firmware/. A run of unused glyphs is left out when that pays (the
last run, and any of three or more: skipping one costs the generated
``sprites::glyph`` about 6 B, a glyph is 3 B).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, replace
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined
from PIL import Image

from ..engine.bounded import InputError, Kind, read
from . import text
from .pack import lz_pack

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
FONT_FIRST = 32  # font.png: a glyph for each character from ' ' to DEL
# Drawn though in no packed text: digits (gfx::number, the deal number), '/' (the page
# count "2/4") and '?' (what gfx draws for a character the font lacks).
MADE_CHARS = "0123456789/?"
SKIP_COST = 2  # glyphs' worth of code to skip a run of unused ones inside the font
# A sprite's PNG as the build reads it (generator/engine/bounded.py): the largest, the 128x64 title, stored
# uncompressed at 16 bits a channel in RGBA is 64 KB; an editor's metadata (an ICC profile, XMP) can add some
# hundreds of KB.
PNG_BYTES = 1 << 20
PNG = Kind("a sprite's PNG", PNG_BYTES, "give a PNG as assets/README.md describes")


class SpriteError(ValueError):
    """A PNG that does not match its declared spec; the message starts with the file."""


@dataclass(frozen=True)
class Spec:
    name: str
    size: tuple[int, int]
    frame: tuple[int, int]  # a sheet is cut into frames left to right, then top to bottom
    masked: bool = False  # RGBA black/white/transparent; a mask array is emitted too
    ink_w: int = 0  # font: columns kept per glyph; the others must stay blank (spacing)
    doc: str = ""
    packed: bool = False  # stored LZ-packed, for sprites::unpack into a buffer (no mask, one frame)
    fx_only: bool = False  # on the FX chip only: the classic edition's flash has no room for it


SPECS = (
    Spec("title", (128, 64), (128, 64), packed=True, doc="title screen, unpacked into the whole screen"),
    Spec("font", (64, 36), (4, 6), ink_w=3,
         doc="ASCII 32..127 in 4x6 cells, 16 per row; 3 ink columns, row 5 for descenders"),
    Spec("ranks", (65, 7), (5, 7), doc="rank glyphs 2 3 4 5 6 7 8 10 J Q K A (engine rank order)"),
    Spec("suits_small", (20, 6), (5, 6), doc="suit glyphs S H D C; red suits hollow, black solid"),
    Spec("suits_large", (28, 8), (7, 8), doc="suit glyphs S H D C; red suits hollow"),
    Spec("card_face", (16, 24), (16, 24), masked=True, doc="card face: outline, white body, round corners"),
    Spec("card_back", (16, 24), (16, 24), masked=True, doc="card back pattern, same outline as the face"),
    Spec("trophy", (16, 16), (16, 16), doc="the winner's cup on the game-over screen"),
    Spec("face", (60, 10), (10, 10),
         doc="the opponent's face, one frame a mood: neutral, blinking, thinking, pleased, sulking, triumphant"),
    Spec("splash", (128, 384), (128, 64), fx_only=True,
         doc="the FX edition's splash at power-on, a frame at a time: a card turned over, the game's name under it"),
    Spec("portraits", (144, 120), (24, 24), fx_only=True,
         doc="each opponent's portrait at the table, a row each in the device's level order (persona.OPPONENTS), "
             "a frame a mood as face.png's"),
)
CLASSIC_SPECS = tuple(s for s in SPECS if not s.fx_only)


@dataclass(frozen=True)
class Gap:
    """Characters the font leaves out: ``count`` from ``first``."""
    first: int
    count: int

    @property
    def chars(self) -> str:
        return "".join(chr(c) for c in range(self.first, self.first + self.count))


@dataclass(frozen=True)
class Sprite:
    spec: Spec
    width: int  # of one frame as stored (ink_w for the font)
    height: int
    frames: int
    data: bytes
    mask: bytes | None
    gaps: tuple[Gap, ...] = ()  # the font's left-out characters, the last run included

    @property
    def frame_bytes(self) -> int:
        return self.width * ((self.height + 7) // 8)

    @property
    def stored(self) -> bytes:
        """The bytes in flash: ``data``, LZ-packed for a packed sprite."""
        return lz_pack(self.data) if self.spec.packed else self.data


def vertical_bytes(bits: list[list[bool]]) -> bytes:
    """Rows of pixels (``bits[y][x]``) to SSD1306 page bytes, LSB on top."""
    h, w = len(bits), len(bits[0])
    out = bytearray()
    for page in range(0, h, 8):
        for x in range(w):
            out.append(sum(1 << b for b in range(8) if page + b < h and bits[page + b][x]))
    return bytes(out)


def to_image(data: bytes, width: int, height: int) -> Image.Image:
    """Inverse of :func:`vertical_bytes` for one frame: a 1-bit image, lit = white."""
    img = Image.new("1", (width, height), 0)
    for y in range(height):
        for x in range(width):
            if data[(y // 8) * width + x] >> (y % 8) & 1:
                img.putpixel((x, y), 1)
    return img


def load(spec: Spec, path: Path) -> Sprite:
    """Read and check one PNG against its spec; raises SpriteError naming ``path``."""
    try:
        img = Image.open(io.BytesIO(read(path, PNG)))
    except InputError as e:
        raise SpriteError(str(e)) from None
    except (OSError, ValueError) as e:
        raise SpriteError(f"{path}: cannot read as PNG ({e})") from None
    if img.format != "PNG":
        raise SpriteError(f"{path}: is {img.format}, expected PNG")
    if img.size != spec.size:  # before its pixels are unpacked: a small file may hold a huge picture
        raise SpriteError(f"{path}: size {img.width}x{img.height}, expected {spec.size[0]}x{spec.size[1]}")
    try:
        img.load()
    except (OSError, ValueError) as e:
        raise SpriteError(f"{path}: cannot read as PNG ({e})") from None
    want = "RGBA" if spec.masked else "1"
    if img.mode != want:
        kind = "black, white and transparent" if spec.masked else "1-bit black and white"
        raise SpriteError(f"{path}: mode {img.mode}, expected {want} ({kind})")
    lit, opaque = _pixels(img, path)
    fw, fh = spec.frame
    ink_w = spec.ink_w or fw
    data, mask, frames = bytearray(), bytearray(), 0
    for fy in range(0, img.height, fh):
        for fx in range(0, img.width, fw):
            if any(lit[y][x] for y in range(fy, fy + fh) for x in range(fx + ink_w, fx + fw)):
                raise SpriteError(f"{path}: frame {frames} (at {fx},{fy}) draws in its blank spacing columns")
            rows = range(fy, fy + fh)
            data += vertical_bytes([lit[y][fx:fx + ink_w] for y in rows])
            mask += vertical_bytes([opaque[y][fx:fx + ink_w] for y in rows])
            frames += 1
    return Sprite(spec, ink_w, fh, frames, bytes(data), bytes(mask) if spec.masked else None)


def _pixels(img: Image.Image, path: Path) -> tuple[list[list[bool]], list[list[bool]]]:
    """(lit, opaque) per pixel; an RGBA pixel must be black, white or fully transparent."""
    w, h = img.size
    if img.mode == "1":
        px = img.load()
        lit = [[bool(px[x, y]) for x in range(w)] for y in range(h)]
        return lit, [[True] * w for _ in range(h)]
    lit, opaque = [], []
    for y in range(h):
        lit.append([]), opaque.append([])
        for x in range(w):
            r, g, b, a = img.getpixel((x, y))
            if a == 0:
                lit[y].append(False), opaque[y].append(False)
            elif a == 255 and (r, g, b) in ((0, 0, 0), (255, 255, 255)):
                lit[y].append(r == 255), opaque[y].append(True)
            else:
                raise SpriteError(f"{path}: pixel ({x},{y}) is RGBA{(r, g, b, a)}; "
                                  "only black, white or fully transparent are allowed")
    return lit, opaque


def drawn(assets_dir: Path, firmware: Path = FIRMWARE) -> set[str]:
    """Every character the firmware can draw: the screen's packed texts, MADE_CHARS and the
    character literals of its code. A string literal drawn with gfx::text is refused: the
    screen's texts belong in assets/text (drawn with gfx::textId)."""
    chars = set(MADE_CHARS)
    for _, t in text.screen_texts(assets_dir):
        chars |= set(t) - {"\n"}
    for path in sorted(firmware.glob("*.[ch]*")):
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", path.read_text(), flags=re.S)
        chars |= {m[1] for m in re.finditer(r"'([ -~])'", code)}
        if m := re.search(r"gfx::text(Inverted)?\([^;\"]*\"", code):
            raise SpriteError(f"{path}: {m[0]}... draws a string literal; put the text in "
                              "assets/text/labels.txt and draw it with gfx::textId")
    return chars


def font_gaps(chars: set[str], glyphs: int) -> list[Gap]:
    """The runs of never-drawn glyphs worth leaving out of a font of ``glyphs`` from FONT_FIRST."""
    runs: list[Gap] = []
    for c in range(FONT_FIRST, FONT_FIRST + glyphs):
        if chr(c) in chars:
            continue
        if runs and runs[-1].first + runs[-1].count == c:
            runs[-1] = Gap(runs[-1].first, runs[-1].count + 1)
        else:
            runs.append(Gap(c, 1))
    end = FONT_FIRST + glyphs
    return [g for g in runs if g.first + g.count == end or g.count > SKIP_COST]


def font_subset(font: Sprite, chars: set[str]) -> Sprite:
    """The font without the glyphs worth leaving out (:func:`font_gaps`)."""
    gaps = font_gaps(chars, font.frames)
    out = set().union(*(range(g.first - FONT_FIRST, g.first - FONT_FIRST + g.count) for g in gaps))
    keep = [i for i in range(font.frames) if i not in out]
    n = font.frame_bytes
    data = b"".join(font.data[i * n:(i + 1) * n] for i in keep)
    return replace(font, frames=len(keep), data=data, gaps=tuple(gaps))


def load_all(assets_dir: Path, firmware: Path = FIRMWARE) -> list[Sprite]:
    """The classic edition's sprites, the font cut to what the firmware draws."""
    out = [load(spec, assets_dir / f"{spec.name}.png") for spec in CLASSIC_SPECS]
    return [font_subset(s, drawn(assets_dir, firmware)) if s.spec.name == "font" else s for s in out]


def _rows(data: bytes) -> list[str]:
    return [", ".join(f"0x{b:02X}" for b in data[i:i + 16]) + "," for i in range(0, len(data), 16)]


def render_header(sprites: list[Sprite], fx: dict[str, int] | None = None) -> str:
    """sprites.h; with ``fx`` (each sprite's offset in the FX data, fxdata.py) the FX edition's."""
    env = Environment(loader=PackageLoader("generator.codegen", "templates"), undefined=StrictUndefined,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    font = next(s for s in sprites if s.spec.name == "font")
    end = FONT_FIRST + font.frames + sum(g.count for g in font.gaps)  # past font.png's last glyph
    last = font.gaps[-1] if font.gaps else None
    tail = last.first if last and last.first + last.count == end else end
    context = {"last": tail - 1, "skips": [g for g in reversed(font.gaps) if g.first < tail]}
    return env.get_template("sprites.h.j2").render(sprites=sprites, rows=_rows, font=context, fx=fx)


def generate(assets_dir: Path, out_dir: Path, fx: dict[str, int] | None = None) -> list[Path]:
    """Check every asset and write ``out_dir/sprites.h``; returns the files written.

    With ``fx`` (the sprites' offsets in the FX data) it names them on the chip, the
    font whole (the chip has room; the classic edition's is cut to what is drawn)."""
    assets_dir = Path(assets_dir)
    if fx is None:
        text = render_header(load_all(assets_dir))
    else:
        text = render_header([load(spec, assets_dir / f"{spec.name}.png") for spec in SPECS], fx)
    out = Path(out_dir) / "sprites.h"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return [out]
