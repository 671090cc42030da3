"""The device's longer texts, packed: ``text.h`` and ``text.cpp``.

The rules, controls and credits pages come from ``assets/text/*.txt`` (one
screen line per file line, ``{version}`` for the version); how each scoring
variant scores with each pack comes from the engine
(:func:`generator.engine.display.scoring_help`); each settings row's hint is a
line of ``assets/text/settings.txt`` (the AI level row shows the level's own,
from ``LEVEL_NAMES``). They are byte-pair encoded
together (:func:`.pack.bpe_pack`) and the firmware reads them a character at a
time with the generated ``text::open`` / ``text::next``.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined

from .. import __version__
from ..ai.players import DEVICE_PLAYERS, LEVEL_NAMES
from ..engine import cards, display, rules
from .pack import TextPack, bpe_pack

FILES = ("rules", "controls", "credits")  # assets/text/NAME.txt, ids RULES, CONTROLS, CREDITS
HINTS = "settings"  # assets/text/settings.txt: one hint a line, ids SETTING_<row>
TEXT_FILES = ("text.h", "text.cpp")


class TextError(ValueError):
    """A text that the screen cannot show; the message starts with the file."""


def read(assets_dir: Path, name: str) -> str:
    """assets/text/NAME.txt, checked line by line against the screen and the font."""
    path = Path(assets_dir) / "text" / f"{name}.txt"
    try:
        body = path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as e:
        raise TextError(f"{path}: cannot read as ASCII text ({e})") from None
    body = body.removesuffix("\n").replace("{version}", __version__)
    for i, line in enumerate(body.split("\n"), 1):
        if len(line) > display.HELP_WIDTH:
            raise TextError(f"{path}: line {i} has {len(line)} characters; the screen shows {display.HELP_WIDTH}")
        if any(not 32 <= ord(ch) < 127 for ch in line):
            raise TextError(f"{path}: line {i} has a character the font lacks (ASCII 32..126 only)")
    return body


def texts(assets_dir: Path) -> list[tuple[str, str]]:
    """(id, text) in id order: the files, HELP_<scoring>_<deck> for every variant,
    SETTING_<row> for each settings row, LEVEL_<player> for each device level's hint."""
    out = [(name.upper(), read(assets_dir, name)) for name in FILES]
    for s in rules.SCORINGS.values():
        for d in cards.DECKS.values():
            out.append((f"HELP_{s.name.upper()}_{d.size}", "\n".join(display.scoring_help(s, d))))
    out += [(f"SETTING_{i}", line) for i, line in enumerate(read(assets_dir, HINTS).split("\n"))]
    out += [(f"LEVEL_{p.upper()}", LEVEL_NAMES[p][1]) for p in DEVICE_PLAYERS]
    return out


def pack_texts(assets_dir: Path) -> tuple[list[tuple[str, str]], TextPack]:
    items = texts(assets_dir)
    return items, bpe_pack([t for _, t in items])


def _rows(data: bytes) -> list[str]:
    return [", ".join(str(b) for b in data[i:i + 24]) + "," for i in range(0, len(data), 24)]


def render(assets_dir: Path) -> dict[str, str]:
    items, pack = pack_texts(assets_dir)
    env = Environment(loader=PackageLoader("generator.codegen", "templates"), undefined=StrictUndefined,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    raw = sum(len(t) + 1 for _, t in items)
    ctx = {
        "ids": [name for name, _ in items],
        "texts": items,
        "pack": pack,
        "raw": raw,
        "packed": len(pack.data) + 2 * len(pack.pairs),
        "num_decks": len(cards.DECKS),
        "first_help": len(FILES),
        "first_setting": next(i for i, (name, _) in enumerate(items) if name.startswith("SETTING_")),
        "first_level": next(i for i, (name, _) in enumerate(items) if name.startswith("LEVEL_")),
        "rows": _rows,
    }
    return {name: env.get_template(name + ".j2").render(ctx) for name in TEXT_FILES}


def generate(assets_dir: Path, out_dir: Path) -> list[Path]:
    """Write ``text.h`` and ``text.cpp`` into ``out_dir``; returns them."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, body in render(assets_dir).items():
        path = out_dir / name
        if not path.exists() or path.read_text() != body:
            path.write_text(body)
        written.append(path)
    return written
