"""The device's texts, packed: ``text.h`` and ``text.cpp``.

The short on-screen texts are ``assets/text/labels.txt`` (``NAME "text"`` a
line, ids ``NAME``), then the menu titles of the packs, scorings, levels and
suit orders from the engine; they come first, as the device finds a text by
skipping those before it. The rules, controls and credits pages come from
``assets/text/*.txt`` (one screen line per file line, ``{version}`` for the
version); how each scoring
variant scores with each pack comes from the engine
(:func:`generator.engine.display.scoring_help`); each settings row's hint is a
line of ``assets/text/settings.txt`` (the AI level row shows the level's own,
from ``LEVEL_NAMES``). They are byte-pair encoded
together (:func:`.pack.bpe_pack`) and the firmware reads them a character at a
time with the generated ``text::open`` / ``text::next``.
"""

from __future__ import annotations

from pathlib import Path

import re

from jinja2 import Environment, PackageLoader, StrictUndefined

from .. import __version__
from ..ai import persona
from ..ai.players import DEVICE_PLAYERS, LEVEL_NAMES
from ..engine import bounded, cards, display, rules
from . import tracetext
from .pack import TextPack, bpe_pack

FILES = ("rules", "controls", "credits")  # assets/text/NAME.txt, ids RULES, CONTROLS, CREDITS
FX_FILES = ("hints",)  # the FX edition's own pages: HINTS, How to play's page on the coach
HINTS = "settings"  # assets/text/settings.txt: one hint a line, ids SETTING_<row>
LABELS = "labels"  # assets/text/labels.txt: NAME "text" a line, ids NAME
FX_LABELS = "fx_labels"  # the same for the FX edition's own screens (its chip and its saves)
LABEL = re.compile(r'([A-Z][A-Z0-9_]*) "(.*)"')
TEXT_FILES = ("text.h", "text.cpp")
# A text of assets/text as the build reads it (generator/engine/bounded.py): each is a few KB and must fit, packed,
# in the program flash beside the game (28 KB) or on the chip; 1 MB is far beyond any that could.
TEXT_BYTES = 1 << 20
TEXT = bounded.Kind("a text of the game", TEXT_BYTES, "give a text as assets/README.md describes")


class TextError(ValueError):
    """A text that the screen cannot show; the message starts with the file."""


def _path(assets_dir: Path, name: str) -> Path:
    return Path(assets_dir) / "text" / f"{name}.txt"


def _lines(path: Path) -> list[str]:
    try:
        body = bounded.read(path, TEXT).decode("ascii")
    except bounded.InputError as e:
        raise TextError(str(e)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise TextError(f"{path}: cannot read as ASCII text ({e})") from None
    return body.removesuffix("\n").replace("{version}", __version__).split("\n")


def _check(path: Path, i: int, line: str) -> None:
    if len(line) > display.HELP_WIDTH:
        raise TextError(f"{path}: line {i} has {len(line)} characters; the screen shows {display.HELP_WIDTH}")
    if any(not 32 <= ord(ch) < 127 for ch in line):
        raise TextError(f"{path}: line {i} has a character the font lacks (ASCII 32..126 only)")


def read(assets_dir: Path, name: str) -> str:
    """assets/text/NAME.txt, checked line by line against the screen and the font."""
    path = _path(assets_dir, name)
    lines = _lines(path)
    for i, line in enumerate(lines, 1):
        _check(path, i, line)
    return "\n".join(lines)


def labels(assets_dir: Path, name: str = LABELS) -> list[tuple[str, str]]:
    """(NAME, text) from assets/text/NAME.txt (labels.txt), in file order; '#' lines are comments."""
    path = _path(assets_dir, name)
    out: dict[str, str] = {}
    for i, line in enumerate(_lines(path), 1):
        if line.startswith("#"):
            continue
        m = LABEL.fullmatch(line)
        if not m:
            raise TextError(f'{path}: line {i} is not NAME "text"')
        if m[1] in out:
            raise TextError(f"{path}: line {i} names {m[1]} again")
        _check(path, i, m[2])
        out[m[1]] = m[2]
    return list(out.items())


def titles() -> list[tuple[str, str]]:
    """The menus' names from the engine: DECK_<deck>, SCORING_<scoring>_<deck>,
    LEVEL_NAME_<player> ("Club: Reg", the level and its opponent), OPPONENT_<player>, SUIT_ORDER_<style>,
    each in its enumeration's order; then
    REASON_<kind>, the scoreboard's reason lines ("#n": a number, whist::handReason's), and
    NOTICE_<kind>, stage 2's notices (whist::stage2Notice's numbers)."""
    decks = list(cards.DECKS.values())
    out = [(f"DECK_{d.size}", display.DECK_TITLES[d.size]) for d in decks]
    out += [(f"SCORING_{s.name.upper()}_{d.size}", display.scoring_title(s, d))
            for s in rules.SCORINGS.values() for d in decks]
    out += [(f"LEVEL_NAME_{p.upper()}", f"{LEVEL_NAMES[p][0]}: {persona.OPPONENTS[p]}") for p in DEVICE_PLAYERS]
    out += [(f"OPPONENT_{p.upper()}", persona.OPPONENTS[p]) for p in DEVICE_PLAYERS]
    out += [(f"SUIT_ORDER_{st.upper()}", display.SUIT_ORDER_TITLES[st]) for st in display.SUIT_ORDER_STYLES]
    out += [(f"REASON_{kind.upper()}", t) for kind, t in display.REASONS.items()]
    out += [(f"NOTICE_{kind.upper()}", t) for kind, t in display.NOTICES.items()]
    return out


def screen_texts(assets_dir: Path) -> list[tuple[str, str]]:
    """(id, text) of what the screen shows, in id order: the labels, the titles, the files,
    HELP_<scoring>_<deck> for every variant, SETTING_<row> for each settings row,
    LEVEL_<player> for each device level's hint."""
    out = labels(assets_dir) + titles()
    out += [(name.upper(), read(assets_dir, name)) for name in FILES]
    for s in rules.SCORINGS.values():
        for d in cards.DECKS.values():
            out.append((f"HELP_{s.name.upper()}_{d.size}", "\n".join(display.scoring_help(s, d))))
    out += [(f"SETTING_{i}", line) for i, line in enumerate(read(assets_dir, HINTS).split("\n"))]
    out += [(f"LEVEL_{p.upper()}", LEVEL_NAMES[p][1]) for p in DEVICE_PLAYERS]
    for name, t in out:
        if any(len(line) > display.HELP_WIDTH for line in t.split("\n")):  # the engine's, as the files are checked
            raise TextError(f"text {name} has a line wider than the screen's {display.HELP_WIDTH} characters: {t!r}")
    return out


def voice_texts() -> list[tuple[str, str]]:
    """The opponents' lines, VOICE_<player>_<moment>_<i>, player after player in the device's
    level order, each player's in persona.MOMENTS order (the FX edition's only: they are on its chip,
    after the other texts, numbered apart from them: text::voice, text::openVoice)."""
    persona.check()
    return [(f"VOICE_{p.upper()}_{m.upper()}_{i}", t) for p in DEVICE_PLAYERS for m in persona.MOMENTS
            for i, t in enumerate(persona.LINES[p][m])]


def coach_texts() -> list[tuple[str, str]]:
    """The coach's texts, COACH_<kind> (display.COACH; the FX edition's only: it alone has the coach)."""
    out = [(f"COACH_{kind.upper()}", t) for kind, t in display.COACH.items()]
    for name, t in out:
        if len(t) > display.HELP_WIDTH:
            raise TextError(f"text {name} is wider than the screen's {display.HELP_WIDTH} characters: {t!r}")
    return out


def texts(assets_dir: Path, fx: bool = False) -> list[tuple[str, str]]:
    """(id, text) of every text in id order: the screen's, then what goes out over USB
    serial (tracetext.py; TRACE_*); with ``fx`` the FX edition's (its Master named hard-fx),
    its own pages (FX_FILES), the coach's texts and assets/text/fx_labels.txt last."""
    own = [(name.upper(), read(assets_dir, name)) for name in FX_FILES] if fx else []
    fx_only = own + coach_texts() + labels(assets_dir, FX_LABELS) if fx else []
    out = screen_texts(assets_dir) + tracetext.texts(fx) + fx_only
    seen: set[str] = set()
    for name, _ in out:
        if name in seen:
            raise TextError(f"assets/text/{LABELS}.txt: {name} is also a generated text's id")
        seen.add(name)
    if len(out) > 255:
        raise TextError(f"{len(out)} texts: text ids are one byte (255 at most)")
    return out


def firsts(fx: bool = False) -> dict[str, str]:
    """The first id of each run of texts the firmware indexes (text.h's helpers)."""
    deck = next(iter(cards.DECKS.values())).size
    scoring = next(iter(rules.SCORINGS)).upper()
    return {
        "deck": f"DECK_{deck}",
        "scoring": f"SCORING_{scoring}_{deck}",
        "level_name": f"LEVEL_NAME_{DEVICE_PLAYERS[0].upper()}",
        "opponent": f"OPPONENT_{DEVICE_PLAYERS[0].upper()}",
        "suit_order": f"SUIT_ORDER_{display.SUIT_ORDER_STYLES[0].upper()}",
        "reason": f"REASON_{next(iter(display.REASONS)).upper()}",
        "notice": f"NOTICE_{next(iter(display.NOTICES)).upper()}",
        "help": f"HELP_{scoring}_{deck}",
        "setting": "SETTING_0",
        "level": f"LEVEL_{DEVICE_PLAYERS[0].upper()}",
    }


# Character codes before packing: 0 ends a text, NEWLINE is '\n', ' '..'~' are 2..96
# and the serial texts' field kinds (tracetext.KINDS) the codes after, so the codes
# from there up (a third more than from 128) can stand for pairs.
NEWLINE = 1
SHIFT = ord(" ") - 2
FIRST_PAIR = tracetext.KIND_CHAR - SHIFT + len(tracetext.KINDS)
INDEX_STEP = 16  # text::open finds text i from where text i - i % INDEX_STEP starts


def encode(t: str) -> str:
    return "".join(chr(NEWLINE) if ch == "\n" else chr(ord(ch) - SHIFT) for ch in t)


def decode(t: str) -> str:
    return "".join("\n" if ord(c) == NEWLINE else chr(ord(c) + SHIFT) for c in t)


def pack_texts(assets_dir: Path) -> tuple[list[tuple[str, str]], TextPack]:
    """The texts and their pack (of :func:`encode`'s codes: :func:`decode` reads one back)."""
    items = texts(assets_dir)
    return items, bpe_pack([encode(t) for _, t in items], FIRST_PAIR)


def starts(pack: TextPack) -> list[int]:
    """Where every INDEX_STEP-th text starts in the packed data."""
    out = [0]
    for i, end in enumerate(j for j, b in enumerate(pack.data) if b == 0):
        if (i + 1) % INDEX_STEP == 0 and end + 1 < len(pack.data):
            out.append(end + 1)
    return out


def _rows(data: bytes) -> list[str]:
    return [", ".join(str(b) for b in data[i:i + 24]) + "," for i in range(0, len(data), 24)]


def render(assets_dir: Path, fx: bool = False) -> dict[str, str]:
    """text.h and text.cpp; with ``fx`` the FX edition's, which read the texts from the chip
    (fxdata.py lays them out there as they are, unpacked)."""
    items, pack = (texts(assets_dir, fx=True), None) if fx else pack_texts(assets_dir)
    env = Environment(loader=PackageLoader("generator.codegen", "templates"), undefined=StrictUndefined,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    ids = [name for name, _ in items]
    ctx = {
        "fx": fx,
        "ids": ids,
        "texts": items,
        "raw": sum(len(t) + 1 for _, t in items),
        "num_decks": len(cards.DECKS),
        "first": {key: ids.index(name) for key, name in firsts(fx).items()},
        "moments": persona.MOMENTS,
        "voices": len(voice_texts()),
        "big": persona.BIG_RANK,
        "readable": tracetext.readable,
    }
    if pack:
        ctx.update({
            "pack": pack,
            "index": starts(pack),
            "index_step": INDEX_STEP,
            "packed": len(pack.data) + 2 * len(pack.pairs) + 2 * len(starts(pack)),
            "rows": _rows,
            "newline": NEWLINE,
            "shift": SHIFT,
        })
    return {name: env.get_template(name + ".j2").render(ctx) for name in TEXT_FILES}


def generate(assets_dir: Path, out_dir: Path, fx: bool = False) -> list[Path]:
    """Write ``text.h`` and ``text.cpp`` into ``out_dir`` (the FX edition's with ``fx``); returns them."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, body in render(assets_dir, fx).items():
        path = out_dir / name
        if not path.exists() or path.read_text() != body:
            path.write_text(body)
        written.append(path)
    return written
