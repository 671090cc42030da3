"""The FX edition's data image (generator/codegen/fxdata.py) and the generated sources that read it.

The image holds every text and sprite the classic edition keeps in program flash; the
generated FX sources, compiled on the PC with the image as the chip (tests/host/fx_host.cpp),
read back exactly the texts, the title and the glyphs the engine and the assets define.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.codegen import fxdata, generate_all, sprites, text
from generator.codegen.sprites import SPECS, load

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"
HOST = ROOT / "tests" / "host"


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fxgen")
    generate_all(out, ASSETS, fx=True)
    return out


def header_value(gen: Path, name: str) -> int:
    m = re.search(rf"\b{name} = (0x[0-9a-f]+|\d+)[;,]", (gen / "fxdata.h").read_text())
    assert m, name
    return int(m[1], 0)


def test_the_files_are_laid_out_as_the_community_tools_make_them(gen: Path) -> None:
    data, save, dev = ((gen / f).read_bytes() for f in ("fxdata-data.bin", "fxdata-save.bin", "fxdata.bin"))
    size = header_value(gen, "FX_DATA_BYTES")
    tables_at, tables = header_value(gen, "TABLES_PAGE") * 256, (gen / "endgame.bin").read_bytes()
    assert tables_at - 256 < size <= tables_at and set(data[size:tables_at]) <= {0xFF}
    end = tables_at + len(tables)
    assert data[tables_at:end] == tables and len(data) % 256 == 0 and len(data) - 256 < end <= len(data)
    assert set(data[end:]) <= {0xFF}
    assert save == b"\xff" * fxdata.SAVE_BYTES and len(save) % 4096 == 0
    assert dev == data + save
    # development pages: data, then save, ending at the 16 MB chip's end
    assert header_value(gen, "FX_SAVE_PAGE") == 65536 - len(save) // 256
    assert header_value(gen, "FX_DATA_PAGE") == 65536 - len(dev) // 256
    assert header_value(gen, "END_DATA_PAGE") == 65536 - len(data) // 256
    quick, total = fxdata.checksum(data[:tables_at]), fxdata.checksum(data)  # texts and sprites; everything
    assert (header_value(gen, "SUM_A"), header_value(gen, "SUM_B")) == (quick & 0xFFFF, quick >> 16)
    assert (header_value(gen, "ALL_A"), header_value(gen, "ALL_B")) == (total & 0xFFFF, total >> 16)


def test_checksum_is_fletchers_two_16_bit_sums() -> None:
    assert fxdata.checksum(b"") == 0
    assert fxdata.checksum(bytes([1, 2, 3])) == (1 + 3 + 6) << 16 | 6
    assert fxdata.checksum(b"\xff" * 600) & 0xFFFF == 600 * 255 % 65536
    assert fxdata.checksum(b"ab") != fxdata.checksum(b"ba")  # order counts
    data = bytes((i * 37 + 11) % 256 for i in range(70_000))
    a = b = 0
    for byte in data:  # as the firmware adds them, byte by byte
        a = (a + byte) & 0xFFFF
        b = (b + a) & 0xFFFF
    assert fxdata.checksum(data) == b << 16 | a


def test_the_checked_save_block_holds_one_record_with_the_mark() -> None:
    """What a first boot leaves in a blank save block (firmware/fx.cpp's verify; test_fx_saves
    checks the device writes exactly this): a record on page 0 numbered 0 whose block at byte 0 is
    'W', the mark's tag, the data's page and the whole image's B sum, and its Fletcher-16."""
    data = bytes(range(256)) * 3
    block = fxdata.checked_save(data, 0x1234, 4096)
    assert len(block) == 4096 and set(block[256:]) == {0xFF}
    body = (0x1234).to_bytes(2, "little") + (fxdata.checksum(data) >> 16).to_bytes(2, "little")
    assert block[:6] == b"W" + fxdata.MARK_TAG.encode() + body
    assert set(block[8:252]) == {0xFF} and block[252:254] == b"\0\0"
    from generator.targets.fxchip import holds_saves
    assert holds_saves(block)  # a record the uploader keeps (its sum the firmware's: test_fx_saves)


def test_masked_sprites_alternate_image_and_mask(gen: Path) -> None:
    image = fxdata.build(ASSETS)
    for spec in SPECS:
        s = load(spec, ASSETS / f"{spec.name}.png")
        at = image.sprites[spec.name]
        if s.mask is None:
            assert image.data[at:at + len(s.data)] == s.data, spec.name
        else:
            stored = image.data[at:at + 2 * len(s.data)]
            assert stored[0::2] == s.data and stored[1::2] == s.mask, spec.name
    assert min(image.sprites.values()) > 0  # offset 0 would read as "no mask" in gfx::sprite


def test_the_missing_data_message_is_drawn_in_the_font(gen: Path) -> None:
    font = load(next(s for s in SPECS if s.name == "font"), ASSETS / "font.png")
    glyphs, rows = fxdata.missing_message(font, ["Hi!", "iH"])
    assert glyphs == [font.data[40 * 3:41 * 3], font.data[73 * 3:74 * 3], font.data[1 * 3:2 * 3]]  # H, i, !
    assert rows == [[3, (129 - 12) // 2, 0, 3, 6], [2, (129 - 8) // 2, 3, 0]]  # length, first column, offsets
    lines = text.read(ASSETS, fxdata.MISSING).split("\n")
    header = (gen / "fxdata.h").read_text()
    assert "MISSING[] PROGMEM" in header and "MISSING_GLYPHS[] PROGMEM" in header
    assert all(len(line) <= 32 for line in lines)


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_generated_fx_sources_read_the_image_back(gen: Path, tmp_path: Path) -> None:
    exe = tmp_path / "fx_host"
    subprocess.run(["g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(HOST / "fx"),
                    "-I", str(gen), str(HOST / "fx_host.cpp"), str(gen / "text.cpp"), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe), str(gen / "fxdata-data.bin")], capture_output=True, check=True)
    title, glyphs, rest = out.stdout.decode("latin-1").split("\n", 2)  # fields: 127..
    assert bytes.fromhex(title) == load(SPECS[0], ASSETS / "title.png").data
    font = load(next(s for s in SPECS if s.name == "font"), ASSETS / "font.png")
    assert bytes.fromhex(glyphs) == font.data[:95 * 3]  # the whole font, ' '..'~'
    assert rest.split("\n--\n")[:-1] == [t for _, t in text.texts(ASSETS, fx=True)]  # its Master named hard-fx
    assert "font.png" in sprites.render_header([font], {"font": 1})  # the FX header names the chip's offsets
