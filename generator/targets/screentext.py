"""Reading the text on an emulated screen, glyph by glyph, with the firmware's own font, and the opponent's face.

Tests and the screenshot script ask what a line says (``read(picture, 0)`` is the table's top
line) instead of comparing whole pictures: the font is ``assets/font.png`` as the generator packs
it, a glyph is 3 lit columns of 6 rows on a 4-pixel advance, as ``gfx::text`` draws it. The same
way ``mood(picture, *TABLE_FACE)`` names the face shown, by the frames of ``assets/face.png``, and
``read(picture, y, cards=True)`` reads the FX coach's lines, whose cards are drawn in the rank and suit
glyphs of a card face (``assets/ranks.png``, ``assets/suits_small.png``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..codegen.sprites import SPECS, load
from ..engine.cards import RANKS, SUITS
from .emulator import HEIGHT, WIDTH

ASSETS = Path(__file__).resolve().parents[2] / "assets"
CHAR_W, CHAR_H = 4, 6
# face.png's frames in order (enum Mood in firmware/table.cpp), and where the screens draw the face
MOODS = ("neutral", "blinking", "thinking", "pleased", "sulking", "triumphant")
TABLE_FACE, HAND_END_FACE, GAME_OVER_FACE = (85, 8), (110, 9), (54, 12)
FX_TABLE_FACE, FX_HAND_END_FACE, FX_GAME_OVER_FACE = (104, 8), (103, 9), (52, 10)  # the FX edition's portraits


@cache
def _glyphs() -> dict[tuple[int, ...], str]:
    """The columns of each character (bit r = row r lit) -> the character; blank is a space."""
    font = load(next(s for s in SPECS if s.name == "font"), ASSETS / "font.png")
    out: dict[tuple[int, ...], str] = {}
    for i in range(font.frames):
        cols = tuple(font.data[i * font.frame_bytes + c] & 0x3F for c in range(font.width))
        out.setdefault(cols, chr(32 + i))
    return out


def lit(picture: bytes, x: int, y: int) -> bool:
    """Pixel (x, y) of a 1,024-byte picture (8 pages of 128 columns, LSB on top); off the screen is dark."""
    if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
        return False
    return bool(picture[(y // 8) * WIDTH + x] >> (y % 8) & 1)


def _cell(picture: bytes, x: int, y: int, ink: bool) -> tuple[int, ...]:
    return tuple(sum(1 << r for r in range(CHAR_H) if lit(picture, x + c, y + r) == ink) for c in range(CHAR_W - 1))


@cache
def _frames(name: str) -> dict[tuple[int, ...], int]:
    """The columns of each frame of sprite ``name`` (bit r = row r lit) -> the frame's number."""
    spec = next(s for s in SPECS if s.name == name)
    sprite = load(spec, ASSETS / f"{name}.png")
    w, h = spec.frame
    return {tuple(sprite.data[i * sprite.frame_bytes + c] & ((1 << h) - 1) for c in range(w)): i
            for i in range(sprite.frames)}


def _card(picture: bytes, x: int, y: int) -> str | None:
    """The card whose rank and suit glyphs (a card face's) are drawn from (x, y - 1), centred on a line
    of text at y, as the trace names it."""
    def cols(name: str, x0: int) -> tuple[int, ...]:
        w, h = next(s for s in SPECS if s.name == name).frame
        return tuple(sum(1 << r for r in range(h) if lit(picture, x0 + c, y - 1 + r)) for c in range(w))

    rank, suit = _frames("ranks").get(cols("ranks", x)), _frames("suits_small").get(cols("suits_small", x + 6))
    return None if rank is None or suit is None else RANKS[rank] + SUITS[suit]


def read(picture: bytes, y: int, x: int = 0, n: int = (WIDTH + 1) // CHAR_W, ink: bool = True,
         cards: bool = False) -> str:
    """The ``n`` characters from (x, y) (an unknown cell is ``?``), trailing spaces dropped;
    ``ink=False`` reads dark text on a lit bar (the screens' titles); with ``cards`` a card drawn in
    a card face's glyphs over three cells (the coach's lines) reads as its trace name and a space."""
    glyphs = _glyphs()
    out, i = [], 0
    while i < n:
        card = _card(picture, x + i * CHAR_W, y) if cards else None
        out.append(card + " " if card else glyphs.get(_cell(picture, x + i * CHAR_W, y, ink), "?"))
        i += 3 if card else 1
    return "".join(out).rstrip()


@cache
def _faces(sheet: str = "face") -> dict[tuple[int, ...], str]:
    """The columns of each face (bit r = row r lit) -> its mood (of the portraits: the same moods, a row of
    them for each opponent)."""
    face = load(next(s for s in SPECS if s.name == sheet), ASSETS / f"{sheet}.png")
    pages = (face.height + 7) // 8
    out = {}
    for i in range(face.frames):
        frame = face.data[i * face.frame_bytes:(i + 1) * face.frame_bytes]
        out[tuple(sum(frame[p * face.width + c] << (8 * p) for p in range(pages)) & ((1 << face.height) - 1)
                  for c in range(face.width))] = MOODS[i % len(MOODS)]
    return out


def mood(picture: bytes, x: int, y: int, portrait: bool = False) -> str | None:
    """The opponent's mood as the face (``portrait``: the FX edition's portrait) at (x, y) shows it, or None
    when none is there."""
    sheet = "portraits" if portrait else "face"
    w, h = next(s for s in SPECS if s.name == sheet).frame
    return _faces(sheet).get(tuple(sum(1 << r for r in range(h) if lit(picture, x + c, y + r)) for c in range(w)))
