"""Packed flash data (generator/codegen/pack.py): the title's LZ stream and the
texts' byte-pair encoding decode back to their sources, in Python and in the
generated C++ compiled for the host."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.codegen import pack, sprites, text, tracetext
from generator.codegen.sprites import SPECS, load

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"
HOST = ROOT / "tests" / "host" / "pack_host.cpp"
TITLE = load(next(s for s in SPECS if s.name == "title"), ASSETS / "title.png")


def test_title_round_trip_and_gain() -> None:
    packed = pack.lz_pack(TITLE.data)
    assert pack.lz_unpack(packed, len(TITLE.data)) == TITLE.data
    assert len(packed) < 450  # 1,024 B raw
    assert TITLE.stored == packed


@pytest.mark.parametrize("seed", range(40))
def test_lz_round_trip_on_random_data(seed: int) -> None:
    r = random.Random(seed)
    data = bytes(r.choice((0, 0, 0, 1, 0x55, 0xFF, r.randrange(256))) for _ in range(r.randint(1, 2000)))
    packed = pack.lz_pack(data)
    assert pack.lz_unpack(packed, len(data)) == data


def test_lz_unpack_rejects_a_short_or_long_stream() -> None:
    packed = pack.lz_pack(b"abcabcabc")
    with pytest.raises(ValueError):
        pack.lz_unpack(packed, 8)
    with pytest.raises((ValueError, IndexError)):
        pack.lz_unpack(packed[:-1], 9)


def test_texts_round_trip_and_gain() -> None:
    items, p = text.pack_texts(ASSETS)
    assert [text.decode(t) for t in pack.bpe_unpack(p)] == [t for _, t in items]
    raw = sum(len(t) + 1 for _, t in items)
    assert len(p.data) + 2 * len(p.pairs) < raw * 0.6


@pytest.mark.parametrize("seed", range(20))
def test_bpe_round_trip_on_random_texts(seed: int) -> None:
    r = random.Random(seed)
    words = ["the ", "trick", "s ", "card", "\n", "a", "b", " "]
    texts = ["".join(r.choice(words) for _ in range(r.randint(0, 60))) for _ in range(r.randint(1, 8))]
    p = pack.bpe_pack(texts)
    assert pack.bpe_unpack(p) == texts
    assert p.depth == max((p.code_depth(c) for c in p.data), default=0)


def test_texts_come_from_the_assets_and_the_engine() -> None:
    items = dict(text.texts(ASSETS))
    assert items["RULES"].startswith("German Whist for two.")
    assert "{version}" not in items["CREDITS"]
    assert items["HELP_LAST13_52"].split("\n")[0] == "Scoring: Last 13"
    assert items["IS_THINKING"] == " is thinking"  # a label's spaces are kept
    assert (items["DECK_28"], items["SCORING_LAST13_28"], items["LEVEL_NAME_ORIGINAL"]) == ("Small Whist 28", "Last 7", "Club: Reg")
    labels = len(text.labels(ASSETS))
    # labels, titles (packs, scorings by pack, levels, opponents, suit orders, score reasons, stage 2's notices), files,
    # scoring helps, settings hints, level hints, then what goes out over serial
    assert len(items) == labels + 2 + 4 * 2 + 5 + 5 + 2 + 5 + 4 + 3 + 4 * 2 + 8 + 5 + len(tracetext.texts())
    assert list(items)[-len(tracetext.texts()):] == [name for name, _ in tracetext.texts()]
    assert items["TRACE_ERROR_BUSY"] == "error busy\n" and items["TRACE_PLAYER_5"] == "human"
    assert list(items)[:labels] == [name for name, _ in text.labels(ASSETS)]  # first: the device skips fewer


@pytest.mark.parametrize("line, error", [
    ('YOU You', r'labels\.txt: line 1 is not NAME "text"'),
    ('YOU "You"\nYOU "Me"', r"labels\.txt: line 2 names YOU again"),
    ('RULES "x"', r"RULES is also a generated text's id"),
    ('LONG "' + "x" * 33 + '"', r"labels\.txt: line 1 has 33 characters"),
])
def test_a_bad_label_is_refused(tmp_path: Path, line: str, error: str) -> None:
    shutil.copytree(ASSETS / "text", tmp_path / "text")
    (tmp_path / "text" / "labels.txt").write_text(line + "\n")
    with pytest.raises(text.TextError, match=error):
        text.texts(tmp_path)


def test_a_line_too_wide_for_the_screen_is_refused(tmp_path: Path) -> None:
    shutil.copytree(ASSETS / "text", tmp_path / "text")
    (tmp_path / "text" / "credits.txt").write_text("x" * 33 + "\n")
    with pytest.raises(text.TextError, match=r"credits\.txt: line 1 has 33 characters"):
        text.texts(tmp_path)


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_generated_cpp_decodes_the_same(tmp_path: Path) -> None:
    sprites.generate(ASSETS, tmp_path)
    text.generate(ASSETS, tmp_path)
    exe = tmp_path / "pack_host"
    subprocess.run(["g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(tmp_path), str(HOST),
                    str(tmp_path / "text.cpp"), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], capture_output=True, check=True).stdout.decode("latin-1")  # fields: 127..
    title, _, rest = out.partition("\n")
    assert bytes.fromhex(title) == TITLE.data
    assert rest.split("\n--\n")[:-1] == [t for _, t in text.texts(ASSETS)]
