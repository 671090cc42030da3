"""generator/codegen/sprites.py: PNG checks, the vertical-byte conversion, sprites.h, CLI errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from generator.codegen import sprites
from generator.codegen.sprites import SPECS, Spec, SpriteError, load, load_all

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"
SPEC = {s.name: s for s in SPECS}


def test_tiny_png_converts_to_exact_bytes(tmp_path: Path) -> None:
    img = Image.new("1", (2, 10), 0)
    for xy in ((0, 0), (1, 1), (0, 9), (1, 7)):
        img.putpixel(xy, 1)
    img.save(tmp_path / "t.png")
    s = load(Spec("t", (2, 10), (2, 10)), tmp_path / "t.png")
    # Page 0: column 0 has row 0 (LSB), column 1 rows 1 and 7; page 1: column 0 row 9.
    assert s.data == bytes([0x01, 0x82, 0x02, 0x00])
    assert (s.width, s.height, s.frames, s.frame_bytes, s.mask) == (2, 10, 1, 4, None)


def test_masked_sheet_frames_and_mask(tmp_path: Path) -> None:
    img = Image.new("RGBA", (4, 2), (0, 0, 0, 255))
    img.putpixel((0, 0), (255, 255, 255, 255))  # frame 0: lit, opaque
    img.putpixel((1, 1), (0, 0, 0, 0))  # frame 0: transparent
    img.putpixel((3, 1), (255, 255, 255, 255))  # frame 1
    img.save(tmp_path / "m.png")
    s = load(Spec("m", (4, 2), (2, 2), masked=True), tmp_path / "m.png")
    assert s.frames == 2 and s.frame_bytes == 2
    assert s.data == bytes([0x01, 0x00, 0x00, 0x02])
    assert s.mask == bytes([0x03, 0x01, 0x03, 0x03])


def test_round_trip_to_image() -> None:
    title = load(SPEC["title"], ASSETS / "title.png")
    assert sprites.to_image(title.data, 128, 64).tobytes() == Image.open(ASSETS / "title.png").tobytes()


def test_every_asset_converts(tmp_path: Path) -> None:
    by_name = {s.spec.name: s for s in load_all(ASSETS)}
    assert set(by_name) == {s.name for s in SPECS if not s.fx_only}  # the portraits and the splash live on the FX chip only
    assert {s.name for s in SPECS if s.fx_only} == {"portraits", "splash"}
    font = by_name["font"]
    assert (font.width, font.height) == (3, 6)
    assert font.frames + sum(g.count for g in font.gaps) == 96  # font.png: ' ' to DEL
    assert by_name["ranks"].frames == 13
    assert by_name["suits_small"].frames == by_name["suits_large"].frames == 4
    assert by_name["card_face"].mask is not None and len(by_name["title"].data) == 1024
    [header] = sprites.generate(ASSETS, tmp_path)
    text = header.read_text()
    for name in by_name:
        assert f"extern const uint8_t {name}[" in text and f"const uint8_t {name}[" in text
    assert "portraits" not in text
    assert "constexpr uint8_t FONT_W = 3;" in text and "card_back_mask[48] PROGMEM = {" in text


def broken(tmp_path: Path, name: str, img: Image.Image) -> Path:
    """A copy of assets/ with `name` replaced by img."""
    assets = tmp_path / "assets"
    shutil.copytree(ASSETS, assets)
    img.save(assets / name)
    return assets / name


def test_wrong_size_names_the_file(tmp_path: Path) -> None:
    path = broken(tmp_path, "title.png", Image.new("1", (128, 32)))
    with pytest.raises(SpriteError, match=r"title\.png: size 128x32, expected 128x64"):
        load(SPEC["title"], path)


def test_wrong_mode_names_the_file(tmp_path: Path) -> None:
    path = broken(tmp_path, "font.png", Image.new("L", (64, 36)))
    with pytest.raises(SpriteError, match=r"font\.png: mode L, expected 1"):
        load(SPEC["font"], path)


def test_wrong_palette_names_the_file(tmp_path: Path) -> None:
    img = Image.open(ASSETS / "card_face.png").copy()
    img.putpixel((5, 6), (128, 128, 128, 255))
    path = broken(tmp_path, "card_face.png", img)
    with pytest.raises(SpriteError, match=r"card_face\.png: pixel \(5,6\) is RGBA\(128, 128, 128, 255\)"):
        load(SPEC["card_face"], path)


def test_half_transparent_pixel_is_refused(tmp_path: Path) -> None:
    img = Image.open(ASSETS / "card_back.png").copy()
    img.putpixel((0, 0), (0, 0, 0, 128))
    with pytest.raises(SpriteError, match="only black, white or fully transparent"):
        load(SPEC["card_back"], broken(tmp_path, "card_back.png", img))


def test_ink_in_font_spacing_column_is_refused(tmp_path: Path) -> None:
    img = Image.open(ASSETS / "font.png").copy()
    img.putpixel((4 * 5 + 3, 6 * 2 + 1), 1)  # 'A' cell's spacing column
    with pytest.raises(SpriteError, match=r"font\.png: frame 37 .*spacing"):
        load(SPEC["font"], broken(tmp_path, "font.png", img))


def test_cli_reports_one_line_and_fails(tmp_path: Path) -> None:
    broken(tmp_path, "suits_small.png", Image.new("RGB", (20, 6)))
    result = subprocess.run([sys.executable, "-m", "generator.cli", "generate", "--assets", "assets",
                             "--out", "gen"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr == "error: assets/suits_small.png: mode RGB, expected 1 (1-bit black and white)\n"
    assert not (tmp_path / "gen" / "sprites.h").exists()


@pytest.mark.parametrize("name", ["suits_small", "suits_large"])
def test_suits_read_apart_red_hollow_black_solid(name: str) -> None:
    """Hearts and diamonds are outlines with a dark inside, spades and clubs filled (more ink); no two alike."""
    sheet = Image.open(ASSETS / f"{name}.png")
    fw, fh = SPEC[name].frame
    glyphs = [[[bool(sheet.getpixel((s * fw + x, y))) for x in range(fw)] for y in range(fh)] for s in range(4)]

    def inside_dark(g: list[list[bool]]) -> int:
        """Dark pixels enclosed by ink (not reachable from the frame's edge)."""
        seen, todo = set(), [(x, y) for y in range(fh) for x in range(fw) if x in (0, fw - 1) or y in (0, fh - 1)]
        while todo:
            x, y = todo.pop()
            if (x, y) in seen or not (0 <= x < fw and 0 <= y < fh) or g[y][x]:
                continue
            seen.add((x, y))
            todo += [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        return sum(not g[y][x] and (x, y) not in seen for y in range(fh) for x in range(fw))

    ink = [sum(map(sum, g)) for g in glyphs]
    for red in (1, 2):
        assert inside_dark(glyphs[red]) >= 2
        for black in (0, 3):
            assert ink[black] >= ink[red] + 4, (name, ink)
    for i in range(4):
        for j in range(i):
            differ = sum(a != b for ra, rb in zip(glyphs[i], glyphs[j]) for a, b in zip(ra, rb))
            assert differ >= 4, (name, "SHDC"[i], "SHDC"[j])


def test_the_font_keeps_what_the_firmware_draws() -> None:
    chars = sprites.drawn(ASSETS)
    assert set("0123456789/?") <= chars and {"W", "y", "!"} <= chars and "\n" not in chars
    assert "z" not in chars and "~" not in chars  # no text has them
    font = next(s for s in load_all(ASSETS) if s.spec.name == "font")
    left_out = "".join(g.chars for g in font.gaps)
    assert not set(left_out) & chars
    assert left_out.endswith("z{|}~\x7f")  # the last run always goes
    assert all(g.count >= 3 for g in font.gaps)  # a shorter run inside costs more code than it saves


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_each_drawn_character_finds_its_glyph(tmp_path: Path) -> None:
    """sprites::glyph, compiled, picks font.png's cell of every character the firmware draws."""
    sprites.generate(ASSETS, tmp_path)
    (tmp_path / "glyphs.cpp").write_text(
        '#include <stdio.h>\n#define SPRITES_DEFINE\n#include "sprites.h"\nint main() {\n'
        "  for (int c = 32; c < 128; c++) {\n    const uint8_t* g = sprites::font + sprites::glyph(c) * "
        "sprites::FONT_FRAME_BYTES;\n    for (int i = 0; i < sprites::FONT_FRAME_BYTES; i++) printf(\"%02x\", g[i]);\n"
        '    printf("\\n");\n  }\n}\n')
    exe = tmp_path / "glyphs"
    subprocess.run(["g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-I", str(tmp_path), str(tmp_path / "glyphs.cpp"),
                    "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    full = load(SPEC["font"], ASSETS / "font.png")
    cell = {chr(32 + i): full.data[i * 3:i * 3 + 3].hex() for i in range(96)}
    for ch in sprites.drawn(ASSETS):
        assert got[ord(ch) - 32] == cell[ch], repr(ch)
    assert got[ord("~") - 32] == cell["?"]  # past the last glyph kept


def test_a_string_literal_drawn_by_the_firmware_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.cpp").write_text('// gfx::text(0, 0, "in a comment");\nvoid f() { gfx::text(0, 0, "Hi"); }\n')
    with pytest.raises(SpriteError, match=r'x\.cpp: gfx::text\(0, 0, "\.\.\. draws a string literal'):
        sprites.drawn(ASSETS, tmp_path)
    (tmp_path / "x.cpp").write_text("char f() { return '~'; }  // a character literal keeps its glyph\n")
    assert "~" in sprites.drawn(ASSETS, tmp_path)
