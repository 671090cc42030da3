"""The firmware build (`whist build`, as `make hex` runs it) and the hardware layer in the emulator.

The build is checked for reproducibility, size limits and the package; small sketches compiled
against firmware/ (not the game app) check the display, buttons, boot keys, sound, saves and seed.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from generator.targets.package import BuildError, size_report

ROOT = Path(__file__).resolve().parents[2]
# One pytest-xdist worker runs the whole module, in order, so each module fixture (the second
# build, the sketches) is made once.
pytestmark = pytest.mark.xdist_group("test_build")
needs_avr = pytest.mark.skipif(shutil.which("avr-gcc") is None,
                               reason="avr-gcc not installed: apt-get install gcc-avr avr-libc binutils-avr arduino-core-avr")


def whist(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def cli_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A second complete build by the `whist build` command, as `make hex` runs it: (dist dir, stdout)."""
    out = tmp_path_factory.mktemp("again")
    result = whist("build", "--out", str(out / "build"), "--dist", str(out / "dist"))
    assert result.returncode == 0, result.stderr
    return out / "dist", result.stdout


@needs_avr
@pytest.mark.slow
def test_build_is_reproducible(firmware_dist: Path, cli_build: tuple[Path, str]) -> None:
    """A second build by the command line, byte for byte the first (make longtest: in `make test`,
    test_distributable already holds this run's build to the committed one `make hex` made)."""
    files = sorted(p.relative_to(firmware_dist) for p in firmware_dist.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(cli_build[0]) for p in cli_build[0].rglob("*") if p.is_file())
    assert len(files) == 12  # the classic hex and package; the FX and Mini ones with their data and save, and both
    for name in files:
        assert (firmware_dist / name).read_bytes() == (cli_build[0] / name).read_bytes(), name


@needs_avr
def test_size_report_is_printed(firmware_dist: Path) -> None:
    """What the build prints (`whist build` echoes the same lines; conftest keeps them in report.txt)."""
    out = (firmware_dist.parent / "report.txt").read_text()
    assert "flash " in out and "/ 28,160 B" in out and "static RAM " in out and "/ 1,900 B" in out
    assert out.count("/ 29,184 B") == 2  # the FX and Mini editions: 29 KB less the spare 512 B
    moved = re.search(r"moved to the chip: ([\d,]+) B", out)
    assert moved and int(moved[1].replace(",", "")) >= 2_500
    assert re.search(r"largest 20 items .*\n( +[\d,]+ B (flash|RAM ) +\S.*\n){20}", out)
    order = re.search(r"link order: (\d+) of (\d+) calls between functions reach with rcall \((\d+) in the "
                      r"compiler's order\)", out)
    assert order and int(order[3]) < int(order[1]) <= int(order[2])  # the order brings calls within reach
    assert re.search(r"stack: [\d,]+ B used at most .* \([\d,]+ B never touched between it and the search's table\)",
                     out)
    print(out)


@needs_avr
@pytest.mark.parametrize("folder,stem,device", [("", "Whist", "Arduboy"), ("ArduboyFX", "WhistFX", "ArduboyFX"),
                                                ("ArduboyMini", "WhistMini", "ArduboyMini")])
def test_arduboy_package(firmware_dist: Path, folder: str, stem: str, device: str) -> None:
    """One package per device, schema 4 as the community's writers emit it, its own binary first."""
    from generator.codegen.core import EEPROM_LOG

    dist = firmware_dist / folder
    fx = device != "Arduboy"
    images = [f"{stem}-data.bin", f"{stem}-save.bin"] if fx else []
    with zipfile.ZipFile(dist / f"{stem}.arduboy") as z:
        names = z.namelist()
        assert names == sorted(names) == sorted(["LICENSE.txt", f"{stem}.hex", "banner.png", "info.json",
                                                 "screenshot.png", *images])
        assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in z.infolist())
        info = json.loads(z.read("info.json"))
        for name in [f"{stem}.hex", *images]:
            assert z.read(name) == (dist / name).read_bytes(), name
        assert z.read("LICENSE.txt") == (ROOT / "LICENSE").read_bytes()
        banner = Image.open(io.BytesIO(z.read("banner.png")))
        screenshot = Image.open(io.BytesIO(z.read("screenshot.png")))
    for key in ("title", "version", "author", "description", "date", "contributors", "binaries", "screenshots"):
        assert info[key], key
    assert (info["schemaVersion"], info["genre"], info["license"]) == (4, "Tabletop", "MIT")
    assert "German Whist" not in info["title"]  # the original Arduboy game's title, on the same carts
    assert not any("url" in key.lower() for key in info)  # left out, never empty
    assert set(info["contributors"][0]) == {"name", "roles"}
    binary = {"title": f"{info['title']} ({device})", "device": device, "filename": f"{stem}.hex",
              "cartimage": "banner.png"}
    if fx:
        binary |= {"flashdata": images[0], "flashsave": images[1]}
    assert info["binaries"] == [binary]
    assert info.get("eeprom") == (None if fx else {"start": EEPROM_LOG, "end": 1023})
    if fx:  # the single file of the community's development uploaders: the data, then the save block
        assert (dist / f"{stem}-dev.bin").read_bytes() == b"".join((dist / name).read_bytes() for name in images)
    assert banner.size == (128, 64) and screenshot.size[0] % 128 == 0
    assert banner.tobytes() == Image.open(ROOT / "assets" / "cart.png").tobytes()  # it reads "Whist Duel"


@needs_avr
def test_size_command(firmware_elf: Path) -> None:
    result = whist("size", str(firmware_elf))
    assert result.returncode == 0 and result.stdout.startswith("largest 20 items")
    assert "B flash  main\n" in result.stdout and "B RAM    hw::frame\n" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("flash ")


def test_size_limits() -> None:
    """512 B of flash always stay spare; static RAM stops at 1,900 B."""
    assert "28,160 left, and 512 more kept spare of 28,672" in size_report(0, 0)
    size_report(28_160, 1_900)  # exactly at both limits: fits
    with pytest.raises(BuildError, match="program too big"):
        size_report(28_161, 100)
    with pytest.raises(BuildError, match="too much static RAM"):
        size_report(10_000, 1_901)


def test_missing_toolchain_is_one_clear_line(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=str(tmp_path))  # no avr-gcc (nor anything else) on PATH
    result = whist("build", "--out", str(tmp_path / "build"), "--dist", str(tmp_path / "dist"), env=env)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: AVR toolchain missing (avr-gcc, avr-g++, avr-objcopy, avr-size); "
                                    "run: sudo apt-get install gcc-avr avr-libc binutils-avr arduino-core-avr")
    assert not (tmp_path / "dist").exists()


needs_emulator = pytest.mark.skipif(shutil.which("node") is None, reason="the emulator needs Node.js")
PLATFORM = ("hw", "buttons", "gfx", "sound", "save", "serial_line", "serial_out", "sprites", "usb")
# The sketches print through the hardware layer's USB serial, as the game does (the core's Serial
# would bring the core's USB stack, whose interrupts firmware/usb.cpp defines).
PRINT = r"""
#include <stdlib.h>
#include "hw.h"
#include "usb.h"
void print(const char* s) { while (*s) hw::serialPut(*s++); }
void println(unsigned long v) { char digits[11]; print(ultoa(v, digits, 10)); print("\r\n"); }
void waitOpen() { while (!usb::open()) {} }  // what is printed before a host opens the port is lost
"""


@pytest.fixture(scope="module")
def sketch_hex(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], Path]:
    """Compiles a test sketch against the hardware layer (not the game app); one core for all."""
    from generator.codegen import sprites, text

    out = tmp_path_factory.mktemp("sketches")
    sprites.generate(ROOT / "assets", out / "gen")
    text.generate(ROOT / "assets", out / "gen")  # gfx draws the packed texts
    env = dict(os.environ, AVR_FLAGS=f"-I{out / 'gen'} -I{ROOT / 'firmware'} -Wall -Wextra")

    def build(name: str, source: str) -> Path:
        (out / f"sketch_{name}.cpp").write_text(PRINT + source)  # object names must not clash with firmware/
        srcs = [str(out / f"sketch_{name}.cpp")] + [str(ROOT / "firmware" / f"{m}.cpp") for m in PLATFORM]
        srcs.append(str(out / "gen" / "text.cpp"))
        subprocess.run([str(ROOT / "scripts" / "avr-build"), str(out), name, *srcs], env=env, check=True)
        return out / f"{name}.hex"

    return build


BOOT_SKETCH = r"""
#include <Arduino.h>
#include "buttons.h"
#include "gfx.h"
#include "hw.h"
#include "sprites.h"
void setup() { hw::begin(); }
void loop() {
  if (!hw::nextFrame()) return;
  sprites::unpack(sprites::title, hw::frame, sprites::TITLE_BYTES);  // the packed title, decoded on the AVR
  if (buttons::justPressed(buttons::A)) print("A\r\n");
  hw::display(true);
}
"""


@pytest.fixture(scope="module")
def boot_hex(sketch_hex: Callable[[str, str], Path]) -> Path:
    return sketch_hex("boot", BOOT_SKETCH)


@needs_avr
@needs_emulator
def test_display_and_buttons(boot_hex: Path) -> None:
    from generator.targets.emulator import Emulator, frame_to_image

    with Emulator(boot_hex) as emu:
        emu.run_ms(100)
        assert frame_to_image(emu.screen()).tobytes() == Image.open(ROOT / "assets" / "title.png").tobytes()
        emu.press("A")
        emu.run_ms(100)  # held for several frames: one press
        emu.release("A")
        emu.run_ms(50)
        assert emu.serial_read() == b"A\r\n"
        assert emu.eeprom == b"\xff" * 1024  # nothing written without a reason


@needs_avr
@needs_emulator
def test_game_boots_to_the_title_art(firmware_hex: Path) -> None:
    from generator.targets.emulator import Emulator, frame_to_image

    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        emu.run_ms(400)  # the title's fan of cards dealt in (16 frames)
        assert frame_to_image(emu.screen()).tobytes() == Image.open(ROOT / "assets" / "title.png").tobytes()
        assert emu.eeprom == b"\xff" * 1024  # nothing written without a reason


@needs_avr
@needs_emulator
@pytest.mark.parametrize("held, flag", [("UP", 1), ("DOWN", 0)])
def test_system_buttons_write_only_the_audio_flag(boot_hex: Path, held: str, flag: int) -> None:
    from generator.targets.emulator import Emulator

    with Emulator(boot_hex, eeprom=b"\x55" * 1024) as emu:
        emu.set_buttons(["B", held])
        emu.run_ms(100)
        emu.set_buttons([])
        emu.run_ms(50)
        assert emu.eeprom == b"\x55\x55" + bytes([flag]) + b"\x55" * 1021


@needs_avr
@needs_emulator
def test_up_at_boot_is_the_flashlight(boot_hex: Path) -> None:
    from generator.targets.emulator import Emulator

    with Emulator(boot_hex) as emu:
        emu.press("UP")
        emu.run_ms(100)
        emu.release("UP")
        emu.press("A")  # the sketch would draw and answer if it were running
        emu.run_ms(200)
        assert emu.screen() == b"\xff" * 1024
        assert emu.serial_read() == b""


SAVE_SKETCH = r"""
#include <Arduino.h>
#include <avr/eeprom.h>
#include "save.h"
struct Settings { uint8_t a; uint16_t b; };
void setup() {
  Settings got = {0, 0}, v = {7, 0x1234};
  bool fresh = save::load(16, 'S', &got, sizeof got);
  save::store(16, 'S', &v, sizeof v);
  bool ok = save::load(16, 'S', &got, sizeof got) && got.a == 7 && got.b == 0x1234;
  bool tag = save::load(16, 'G', &got, sizeof got);
  bool len = save::load(16, 'S', &got, 2);
  save::store(12, 'S', &v, sizeof v);
  bool low = save::load(12, 'S', &got, sizeof got);
  save::store(40, 'G', &v, sizeof v);
  eeprom_write_byte((uint8_t*)43, 0x35);
  bool corrupt = save::load(40, 'G', &got, sizeof got);
  save::store(60, 'G', &v, sizeof v);
  save::erase(60);
  bool erased = save::load(60, 'G', &got, sizeof got);
  bool kept = save::load(16, 'S', &got, sizeof got);
  eeprom_write_byte((uint8_t*)100, 'X');  // another game's bytes: never written
  eeprom_write_byte((uint8_t*)101, 'G');
  save::erase(100);
  char flags[] = {char('0' + fresh), char('0' + ok), char('0' + tag), char('0' + len), char('0' + low),
                  char('0' + corrupt), char('0' + erased), char('0' + kept), '\r', '\n', 0};
  waitOpen();
  print(flags);
}
void loop() {}
"""


@needs_avr
@needs_emulator
def test_save_blocks(sketch_hex: Callable[[str, str], Path]) -> None:
    from generator.targets.emulator import Emulator

    hex_path = sketch_hex("save", SAVE_SKETCH)
    with Emulator(hex_path) as emu:
        assert emu.run_until_serial("\n")
        # fresh=0 ok=1 other-tag=0 other-length=0 below-16=0 corrupt=0 erased=0 kept=1
        assert emu.serial_read() == b"01000001\r\n"
        eeprom = emu.eeprom
    assert eeprom[:16] == b"\xff" * 16
    a = b = 0  # Fletcher-16 of tag, length and data, stored low byte first
    for v in (ord("S"), 3, 7, 0x34, 0x12):
        a = (a + v) % 255
        b = (b + a) % 255
    assert eeprom[16:23] == b"WS\x07\x34\x12" + bytes([a, b])
    assert eeprom[60] == ord("W") and eeprom[61] == 0xFF  # the tag erased, one byte written
    assert eeprom[100:102] == b"XG"


@needs_avr
@needs_emulator
def test_random_seed_returns_and_varies(sketch_hex: Callable[[str, str], Path]) -> None:
    from generator.targets.emulator import Emulator

    hex_path = sketch_hex("seed", '#include <Arduino.h>\n#include "hw.h"\n'
                          'void setup() { uint32_t seed = hw::randomSeed(); waitOpen(); println(seed); }\n'
                          'void loop() {}\n')
    seeds = set()
    for adc_seed in (1, 2):
        with Emulator(hex_path, adc_seed=adc_seed) as emu:
            assert emu.run_until_serial("\n")
            seeds.add(emu.serial_read())
    assert len(seeds) == 2


GFX_SKETCH = r"""
#include <Arduino.h>
#include "gfx.h"
#include "hw.h"
#include "sprites.h"
#include "text.h"
using namespace sprites;
void setup() {
  hw::begin();
  gfx::fillRect(10, 10, 50, 30);
  gfx::sprite(-5, -7, card_back, card_back_mask, CARD_BACK_W, CARD_BACK_H);
  gfx::sprite(120, 50, card_face, card_face_mask, CARD_FACE_W, CARD_FACE_H);
  gfx::sprite(40, 13, card_face, card_face_mask, CARD_FACE_W, CARD_FACE_H);
  gfx::bitmap(42, 15, ranks + 12 * RANKS_FRAME_BYTES, RANKS_W, RANKS_H, gfx::BLACK);
  gfx::text(-2, 45, "Hi 10!");
  gfx::textInverted(70, 3, "ok");
  gfx::number(100, 61, 407);
  gfx::textId(gfx::textId(4, 55, text::OPPONENT_HARD), 55, text::IS_THINKING);
  hw::display();
}
void loop() {}
"""


def reference_gfx() -> Image.Image:
    """What GFX_SKETCH should show, drawn with Pillow from the PNGs."""
    assets = ROOT / "assets"
    screen = Image.new("1", (128, 64), 0)
    screen.paste(1, (10, 10, 60, 40))
    back, face = Image.open(assets / "card_back.png"), Image.open(assets / "card_face.png")
    for img, xy in ((back, (-5, -7)), (face, (120, 50)), (face, (40, 13))):
        screen.paste(img.convert("1"), xy, img.getchannel("A"))
    ace = Image.open(assets / "ranks.png").crop((60, 0, 65, 7))
    screen.paste(0, (42, 15), ace)
    font = Image.open(assets / "font.png")

    def text(x: int, y: int, s: str, ink: int) -> None:
        for ch in s:
            k = ord(ch) - 32
            cell = font.crop((k % 16 * 4, k // 16 * 6, k % 16 * 4 + 3, k // 16 * 6 + 6))
            screen.paste(ink, (x, y), cell)
            x += 4

    text(-2, 45, "Hi 10!", 1)
    screen.paste(1, (69, 2, 69 + 2 * 4 - 1 + 2, 2 + 7))
    text(70, 3, "ok", 0)
    text(100, 61, "407", 1)
    text(4, 55, "Max is thinking", 1)
    return screen


@needs_avr
@needs_emulator
def test_gfx_draws_like_the_reference(sketch_hex: Callable[[str, str], Path], tmp_path: Path) -> None:
    from generator.targets.emulator import Emulator, frame_to_image

    with Emulator(sketch_hex("gfx", GFX_SKETCH)) as emu:
        emu.run_ms(100)
        shown = frame_to_image(emu.screen())
    want = reference_gfx()
    if shown.tobytes() != want.tobytes():
        shown.save(tmp_path / "shown.png")
        want.save(tmp_path / "want.png")
        pytest.fail(f"screen differs from the reference: see {tmp_path}/shown.png and want.png")


SOUND_SKETCH = r"""
#include <Arduino.h>
#include "hw.h"
#include "sound.h"
const uint16_t MELODY[] PROGMEM = {sound::note(1000), 40, 0, 20, sound::note(500), 16, 0, 0};
uint8_t frames;
void setup() { hw::begin(); sound::setEnabled(true); sound::play(MELODY); }
void loop() {
  if (!hw::nextFrame()) return;
  // One line per frame: the tone now (Hz, from the timer's registers) or 0.
  println(TCCR3B ? 1000000UL / (OCR3A + 1) : 0);
  if (++frames == 6) { sound::setEnabled(false); sound::play(MELODY); }
  if (frames == 8) { print(sound::playing() ? "playing\r\n" : "silent\r\n"); for (;;) {} }
}
"""


@needs_avr
@needs_emulator
def test_sound_plays_a_melody_and_obeys_the_flag(sketch_hex: Callable[[str, str], Path]) -> None:
    from generator.targets.emulator import Emulator

    with Emulator(sketch_hex("sound", SOUND_SKETCH)) as emu:
        assert emu.run_until_serial("silent\r\n") or emu.run_until_serial("playing\r\n")
        lines = emu.serial_read().decode().split()
        eeprom = emu.eeprom
    # Each line is the tone for the frame that starts there; the first frame (play() in setup)
    # is not printed. 40 ms of 1 kHz = 3 frames, a 20 ms rest = 2, 16 ms of 500 Hz = 1; then
    # off, and nothing while muted.
    assert lines == ["1000", "1000", "0", "0", "500", "0", "0", "0", "silent"]
    assert eeprom[2] == 0 and eeprom[:2] + eeprom[3:] == b"\xff" * 1023


@needs_avr
def test_the_screen_buffer_is_the_last_static_data(firmware_elf: Path) -> None:
    """The search's table runs on from hw::frame into the free RAM: nothing static may follow the buffer."""
    from generator.targets import package

    package.check_screen_last(firmware_elf)
    with pytest.raises(BuildError, match="not the last static data"):
        package.check_screen_last(firmware_elf, "_ZN2hw10frameCountE")


@needs_avr
def test_stack_high_water_mark_is_measured_and_checked(firmware_hex: Path, firmware_elf: Path, monkeypatch) -> None:
    from generator.targets import package

    _, ram = package.elf_size(firmware_elf)
    space = package.RAM - ram - package.TABLE_ABOVE  # what the build gives the stack
    line = package.stack_report(firmware_hex, space)
    used, free = (int(x.replace(",", "")) for x in re.findall(r"([\d,]+) B", line))
    assert used + free == space and used > 100  # the search and the redraws on top of it
    monkeypatch.setattr(package, "STACK_MARGIN", free + 1)
    with pytest.raises(BuildError, match="stack too close"):
        package.stack_report(firmware_hex, space)


@needs_avr
def test_a_stack_run_is_measured_once_a_program_and_kept(firmware_hex: Path, fx_hex: Path, fx_image,
                                                          tmp_path: Path, monkeypatch) -> None:
    """The build's stack run is kept in the cache by what decides it (make hex measures it, make
    test's build of the same bytes reads it): measured in the emulator when not there or damaged,
    another program or chip image another run. A short hand here; the build's own is Hard's."""
    from generator.targets import package

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(package, "STACK_RUN", "play seed=1 deck=28 scoring=every target=0 p0=greedy p1=easy fast=1")
    key = package.stack_key(firmware_hex)
    assert package.stack_key(fx_hex, fx_image) != package.stack_key(fx_hex) != key
    damaged = fx_image.save[:-1] + bytes([fx_image.save[-1] ^ 1])
    assert package.stack_key(fx_hex, type(fx_image)("ArduboyFX", fx_image.data, damaged)) != package.stack_key(
        fx_hex, fx_image)
    measured = package.stack_free(firmware_hex)
    assert 0 < measured < package.RAM and package.stack_cache_path(key).read_text() == f"{measured}\n"
    package.stack_cache_path(key).write_text("7\n")  # what is kept is what is read: no run
    assert package.stack_free(firmware_hex) == 7
    package.stack_cache_path(key).write_text("not a number")
    assert package.stack_free(firmware_hex) == measured  # the run again, and kept
    assert package.stack_cache_path(key).read_text() == f"{measured}\n"
    monkeypatch.setattr(package, "STACK_RUN", "play seed=2 deck=28 scoring=every target=0 p0=greedy p1=easy fast=1")
    assert package.stack_key(firmware_hex) != key


@needs_avr
def test_the_mini_differs_from_the_fx_edition_only_in_its_select_line(firmware_dist: Path) -> None:
    """So the build measures the FX edition's stack once for both; any other difference measures both."""
    from generator.targets.package import same_but_select

    fx, mini = firmware_dist / "ArduboyFX" / "WhistFX.hex", firmware_dist / "ArduboyMini" / "WhistMini.hex"
    assert same_but_select(fx, mini) and fx.read_bytes() != mini.read_bytes()
    assert not same_but_select(fx, firmware_dist / "Whist.hex")
