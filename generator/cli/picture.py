"""``whist review --png``: a mistake's position drawn as the device shows its table.

People would rather look than read. The table is drawn as firmware/table.cpp
lays it out on the 128x64 screen (the stock and face-up card, the trump box,
the trick in the middle, the names and tricks on the right under the opponent's face,
the hand along the bottom), from the same sprites in assets/ that the
firmware is built from (:mod:`generator.codegen.sprites` reads and checks
them). The screen is then enlarged, the card played framed in red and the
better card in green, with a caption under it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

from ..ai.review import Decision, HandReview
from ..codegen.sprites import SPECS, Sprite, load, to_image
from ..codegen.text import labels
from ..engine.cards import cards_of
from ..engine.display import suit_order
from ..engine.rules import LOW
from .review import Words, about, plural
from .table import Table

ASSETS = Path(__file__).resolve().parents[2] / "assets"
WIDTH, HEIGHT = 128, 64  # the screen
SCALE = 4  # the picture's pixels a screen pixel
CAPTION = 40  # the caption's height under the enlarged screen
# firmware/table.cpp's layout
HAND_Y, RAISED_Y, LOWERED_Y = 40, 35, 45
CARD_W, CARD_H = 16, 24
FACE_X, PANEL_X, TRICKS_X = 85, 96, 109  # the face, the names, the tricks
TRICK_AT = ((48, 12), (66, 9))  # the reviewed seat's card down and left, the other's up and right
CHAR_W = 4
PLAYED, BETTER = (220, 40, 40), (40, 180, 60)


@cache
def sprite(name: str) -> Sprite:
    spec = next(s for s in SPECS if s.name == name)
    return load(spec, ASSETS / f"{name}.png")


@cache
def frame(name: str, i: int) -> tuple[Image.Image, Image.Image | None]:
    """A sprite's frame ``i``: its lit pixels and (masked sprites) where it is opaque, as 1-bit images."""
    s = sprite(name)
    at = slice(i * s.frame_bytes, (i + 1) * s.frame_bytes)
    return (to_image(s.data[at], s.width, s.height),
            to_image(s.mask[at], s.width, s.height) if s.mask is not None else None)


@cache
def words() -> dict[str, str]:
    return dict(labels(ASSETS))


class Screen:
    """The device's screen: a 1-bit image and gfx's drawing calls."""

    def __init__(self) -> None:
        self.img = Image.new("1", (WIDTH, HEIGHT), 0)
        self.draw = ImageDraw.Draw(self.img)

    def bitmap(self, x: int, y: int, name: str, i: int, color: int = 1) -> None:
        """gfx::bitmap: the lit pixels in ``color``, the rest left as it was."""
        lit, _ = frame(name, i)
        self.img.paste(color, (x, y), lit)

    def sprite(self, x: int, y: int, name: str) -> None:
        """gfx::sprite: the opaque pixels replaced by the sprite's."""
        lit, mask = frame(name, 0)
        self.img.paste(lit, (x, y), mask)

    def text(self, x: int, y: int, s: str, color: int = 1) -> int:
        for ch in s:
            code = ord(ch) - 32
            if 0 <= code < 96 and ch != " ":
                self.bitmap(x, y, "font", code, color)
            x += CHAR_W
        return x

    def card(self, x: int, y: int, c: int) -> None:
        """table::drawCard: the face, the rank and small suit in the corner, the large suit below."""
        suit, rank = divmod(c, 13)
        self.sprite(x, y, "card_face")
        self.bitmap(x + 2, y + 2, "ranks", rank, 0)
        self.bitmap(x + 2, y + 10, "suits_small", suit, 0)
        self.bitmap(x + 7, y + 14, "suits_large", suit, 0)


def hand_order(mask: int, trump: int) -> list[int]:
    """The hand as the device sorts it: suits in the alternating order, high cards first."""
    return [c for s in suit_order(trump, "alternate") for c in sorted(cards_of(mask), reverse=True) if c // 13 == s]


def table(d: Decision, r: HandReview) -> tuple[Image.Image, dict[int, tuple[int, int, int]]]:
    """The screen at decision ``d``, and where each card of the hand shows (x, y, width: the next card covers
    the rest)."""
    sc, w = Screen(), words()
    seat_words = Words(r)
    sc.text(0, 0, w["YOUR_LEAD"] if d.lead < 0 and seat_words.me == "you" else
            w["YOUR_TURN"] if seat_words.me == "you" else f"Trick {d.trick}")
    if d.upcard >= 0:  # stage 1: the stock and the face-up card
        left = r.variant.deck.size - 2 * r.variant.deck.hand_size - 2 * (d.trick - 1)
        if left > 1:
            sc.sprite(0, 8, "card_back")
        sc.card(3, 10, d.upcard)
        sc.text(sc.text(20, 27, str(left)), 27, w["LEFT"])
    sc.draw.rectangle((20, 8, 30, 19), outline=1)
    sc.bitmap(22, 10, "suits_large", r.trump)
    sc.text(20, 21, w["TRUMP"])
    if r.mode == LOW:
        sc.text(33, 11, w["LO"])
    if d.lead >= 0:
        sc.card(*TRICK_AT[1], d.lead)
    sc.text(TRICKS_X, 8, w["S1"] if d.stage == 1 else w["S2"])
    sc.bitmap(FACE_X, 8, "face", 0)
    for y, word in ((14, seat_words.them), (21, seat_words.me)):  # the opponent's name above, as the table has it
        sc.text(PANEL_X, y, w["YOU"] if word == "you" else word)
    sc.text(TRICKS_X, 14, str(d.tricks[1]))
    sc.text(TRICKS_X, 21, str(d.tricks[0]))
    cards = hand_order(d.hand, r.trump)
    step = 9 if len(cards) > 12 else 10
    x = (WIDTH - CARD_W - step * (len(cards) - 1)) // 2
    follow = d.lead >= 0 and any(c // 13 == d.lead // 13 for c in cards)
    at = {}
    for i, c in enumerate(cards):
        y = RAISED_Y if c == d.card else LOWERED_Y if follow and c // 13 != d.lead // 13 else HAND_Y
        sc.card(x, y, c)
        at[c] = (x, y, CARD_W if i == len(cards) - 1 else step)
        x += step
    return sc.img, at


def picture(d: Decision, r: HandReview) -> Image.Image:
    """The table enlarged, the card played framed red, the better one green, and a caption."""
    screen, at = table(d, r)
    big = screen.convert("RGB").resize((WIDTH * SCALE, HEIGHT * SCALE), Image.NEAREST)
    out = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE + CAPTION), (0, 0, 0))
    out.paste(big, (0, 0))
    draw = ImageDraw.Draw(out)
    better = d.best[0]
    for c, color in ((d.card, PLAYED), (better, BETTER)):
        x, y, width = at[c]
        draw.rectangle((x * SCALE - 2, y * SCALE - 2, (x + width) * SCALE + 1, (y + CARD_H) * SCALE + 1),
                       outline=color, width=3)
    t = Table(False)
    cost = (f"lost {plural(d.lost_tricks, 'trick')} ({plural(d.lost_points, 'point')})" if d.stage == 2
            else f"cost {about(d.lost_points)} points on average")
    draw.text((6, HEIGHT * SCALE + 4), f"Hand {r.number}, trick {d.trick}: {t.card(d.card)} (red) {cost}",
              fill=(255, 255, 255))
    draw.text((6, HEIGHT * SCALE + 20), f"{t.card(better)} (green) was better", fill=(255, 255, 255))
    return out


def draw_mistakes(r: HandReview, folder: Path) -> list[Path]:
    """One PNG a mistake of the hand: hand-<n>-trick-<t>.png in ``folder`` (made if need be)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for d in sorted(r.mistakes, key=lambda d: d.trick):
        path = folder / f"hand-{r.number}-trick-{d.trick}.png"
        picture(d, r).save(path)
        paths.append(path)
    return paths
