"""The FX edition's saves and data where players put them (issue 48): only its own save block,
no save block said plainly, the whole data image checked once (firmware/fx.cpp, save.cpp).

The carts are built as the community's builder lays them out (cart_model.py); the toolset's
cart editor can give a game a 4 KB block, or clear it, which leaves the header's save page 0xFFFF
and the program's vector 6 pointing where the block was (now the next slot).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from cart_model import PAGE, with_game
from caterina_sim import to_hex
from conftest import needs_firmware
from generator.codegen import fxdata
from generator.codegen.fxdata import SECTOR
from generator.targets.buttons import Device, booted
from generator.targets.emulator import Emulator, FxImage
from generator.targets.screentext import read
from test_cart import flash_of

pytestmark = [needs_firmware, pytest.mark.xdist_group("fx_saves")]
CHIP = 1 << 24
NOT_KEPT = "Progress is not kept here"


def on_cart(fx_hex, fx_image, tmp_path, save_bytes: int, clear_save: bool = False):
    """The FX edition's hex as a cart patched it, the chip holding that cart (the rest erased), and the
    game's data and save pages. The save block holds the mark of its first boot's check."""
    data = fx_image.data
    trial = with_game(flash_of(fx_hex), data, b"\xff" * save_bytes, clear_save)
    save = fxdata.checked_save(data, trial[2], save_bytes) if save_bytes else b""
    image, program, data_page, save_page = with_game(flash_of(fx_hex), data, save, clear_save)
    hex_path = tmp_path / "cart.hex"
    hex_path.write_text(to_hex(program))
    chip = image + b"\xff" * (CHIP - len(image))
    return hex_path, chip, data_page, save_page


@contextmanager
def boot_on(hex_path, chip: bytes) -> Iterator[Device]:
    """The game booted from a chip holding ``chip``."""
    with Emulator(hex_path, fx=FxImage("ArduboyFX", b"", b"")) as emu:
        emu.fx_write(0, chip[:len(chip.rstrip(b"\xff")) + 1])
        dev = Device(emu)
        dev.boot()
        yield dev


def whole_chip(emu: Emulator) -> bytes:
    return b"".join(emu.fx_read(at, 1 << 22) for at in range(0, CHIP, 1 << 22))


def settings_rows(dev) -> list[str]:
    return [read(dev.emu.screen(), 9 + 7 * i) for i in range(8)]


@pytest.mark.parametrize("save_bytes,saves", [(SECTOR, 100), pytest.param(2 * SECTOR, 24, marks=pytest.mark.slow)])
def test_a_carts_save_block_takes_its_saves_and_nothing_outside_it_changes(fx_hex, fx_image, tmp_path, save_bytes,
                                                                           saves):
    """A 4 KB block (one sector: each time its 8 records are used it is erased and the record
    written again at once) takes 100 settings changes, the 8 KB one 24 (round the block once; in
    `make longtest`: the 8 KB block of a cart is below, with the slot `whist upload` makes, and the
    records go round it in test_fx_edition): the next slot (right after the block) and every other
    byte of the chip as they were, the records where they belong, the last setting read back after a
    power cycle."""
    hex_path, chip, data_page, save_page = on_cart(fx_hex, fx_image, tmp_path, save_bytes)
    block = range(save_page * PAGE, save_page * PAGE + save_bytes)
    with boot_on(hex_path, chip) as dev:
        dev.tap("A")
        dev.wait_screen("menu")
        assert read(dev.emu.screen(), 58, 4) == ""  # saves are kept
        dev.menu("settings")
        dev.wait_screen("settings")
        for _ in range(saves):
            dev.tap("RIGHT")
        shown = settings_rows(dev)
        after = whole_chip(dev.emu)
    assert after[:block.start] == chip[:block.start] and after[block.stop:] == chip[block.stop:]
    kept = after[block.start:block.stop]
    numbers = [int.from_bytes(kept[p * PAGE + 252:p * PAGE + 254], "little") for p in range(save_bytes // PAGE)]
    assert numbers[1::2] == [0xFFFF] * (save_bytes // PAGE // 2)  # the log pages: no hand played
    records, pages = save_bytes // PAGE // 2, {}  # record 0 is the first boot's, then one a change
    for n in range(saves + 1):
        at = n % records * 2
        if at % 16 == 0:  # a sector's first page: the sector erased first
            pages = {p: m for p, m in pages.items() if not at <= p < at + 16}
        pages[at] = n
    assert numbers[::2] == [pages.get(2 * i, 0xFFFF) for i in range(records)]
    with boot_on(hex_path, after) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        assert settings_rows(dev) == shown


@pytest.mark.parametrize("layout", ["cleared", pytest.param("misaligned", marks=pytest.mark.slow),
                                    pytest.param("overlapping", marks=pytest.mark.slow)])
def test_a_save_block_that_makes_no_sense_is_never_written(fx_hex, fx_image, tmp_path, layout):
    """A block the toolset cleared (header 0xFFFF, vector 6 pointing into the next slot), one whose
    page is not on a sector boundary, one that runs past where the next slot starts: no save is
    written anywhere, and the menu says that progress is not kept. Without a save block each boot
    checks the whole image (15 s of avr8js): the last two run in `make longtest`."""
    hex_path, chip, data_page, save_page = on_cart(fx_hex, fx_image, tmp_path, 2 * SECTOR, layout == "cleared")
    chip = bytearray(chip)
    at = next(p for p in range(0, len(chip), PAGE) if chip[p + 17:p + 19] == data_page.to_bytes(2, "big")) // PAGE
    header = chip[at * PAGE:at * PAGE + PAGE]
    if layout == "misaligned":
        header[19:21] = (save_page + 1).to_bytes(2, "big")
    elif layout == "overlapping":
        header[10:12] = (int.from_bytes(header[10:12], "big") - 1).to_bytes(2, "big")
    chip[at * PAGE:at * PAGE + PAGE] = header
    chip = bytes(chip)
    with boot_on(hex_path, chip) as dev:
        dev.tap("A")
        dev.wait_screen("menu")
        said = read(dev.emu.screen(), 58, 4)
        dev.menu("settings")
        dev.wait_screen("settings")
        dev.tap("RIGHT", 3)
        dev.tap("B")
        dev.wait_screen("menu")
        assert whole_chip(dev.emu) == chip
        assert said == NOT_KEPT


def test_the_slot_whist_upload_makes_gives_the_game_its_save_block(firmware_dist, fx_image, tmp_path, capsys):
    """`whist upload` of the FX package into a cart (fxcart.py), then the game booted from that chip with
    the program the upload left in the MCU: it finds the block the upload gave its slot (the first boot's
    mark put there, as test_the_first_boot... shows it writes), saves there, and nothing else changes."""
    from cart_model import build, chain
    from caterina_sim import CaterinaSim
    from test_cart_upload import cart_rows, upload

    with CaterinaSim(cathy3k=True) as sim:
        sim.preload(0, build(cart_rows(0)))
        code, out, err = upload(capsys, sim, firmware_dist / "ArduboyFX" / "WhistFX.arduboy", tmp_path)
        assert code == 0, err
        slot = next(h for h in chain(sim.chip_read) if h.title == "Whist Duel")
        save_page, size = slot.field(19), (slot.page + slot.size - slot.field(19)) * PAGE
        sim.preload(save_page * PAGE, fxdata.checked_save(fx_image.data, slot.field(17), size))
        used = (slot.page + slot.size + 1) * PAGE
        chip = sim.chip_read(0, used) + b"\xff" * (CHIP - used)
        hex_path = tmp_path / "uploaded.hex"
        hex_path.write_text(to_hex(bytes(sim.flash[:0x7400])))
    block = range(save_page * PAGE, save_page * PAGE + size)
    with boot_on(hex_path, chip) as dev:
        dev.tap("A")
        dev.wait_screen("menu")
        assert read(dev.emu.screen(), 58, 4) == ""  # saves are kept
        dev.menu("settings")
        dev.wait_screen("settings")
        dev.tap("RIGHT")
        after = whole_chip(dev.emu)
    assert after[:block.start] == chip[:block.start] and after[block.stop:] == chip[block.stop:]
    assert after[block.start + 2 * PAGE:block.start + 3 * PAGE] != b"\xff" * PAGE  # the setting's record


def pause_lines(dev) -> list[str]:
    return [read(dev.emu.screen(), y, 12, 26) for y in (42, 49)]


@pytest.mark.parametrize("image", ["data", "data and save"])
def test_without_a_save_block_the_menu_and_the_pause_say_so(fx_hex, fx_image, projectabe, image):
    """In ProjectABE: its .arduboy's data alone at the chip's end (as a data-only upload leaves it),
    or the data and save image as its data (its chip drops every write: the game's first record does
    not take, and from then on it says so). The menu's last line and the pause say progress is not
    kept, and leaving the hand says it is lost. With a save block neither does."""
    data = fx_image.data + b"\xff" * fxdata.SAVE_BYTES if image == "data and save" else fx_image.data
    with booted(fx_hex, fx=FxImage("ArduboyFX", data), backend=projectabe) as dev:
        dev.tap("A")
        dev.wait_screen("menu")
        assert read(dev.emu.screen(), 58, 4) == NOT_KEPT
        dev.menu("play")
        dev.wait_screen("table")
        dev.tap("UP")
        dev.wait_screen("pause")
        assert pause_lines(dev) == ["A: resume  B: menu", NOT_KEPT]
        dev.tap("B")
        assert pause_lines(dev) == ["B again: menu, hand lost", NOT_KEPT]
    if image != "data":
        return
    with booted(fx_hex, fx=fx_image) as dev:  # with a save block (once: it is the same for both)
        dev.tap("A")
        dev.wait_screen("menu")
        assert read(dev.emu.screen(), 58, 4) == ""
        dev.menu("play")
        dev.wait_screen("table")
        dev.tap("UP")
        dev.wait_screen("pause")
        dev.tap("B")
        assert pause_lines(dev)[0] == "B again: menu, hand kept"


def test_the_first_boot_checks_the_whole_image_and_remembers_it(fx_hex, fx_image):
    """After an upload (a blank save block) the game sums all the data, the tables too, with a bar on
    the screen, then leaves exactly the mark the tests' images start with (conftest's fx_image); the
    next boot reads the mark and shows no bar."""
    blank = b"\xff" * fxdata.SAVE_BYTES
    bars = []
    with Emulator(fx_hex, fx=FxImage("ArduboyFX", fx_image.data, blank)) as emu:
        for _ in range(100):
            emu.run_ms(200)
            screen = emu.screen()
            if read(screen, 22, 20) == "Checking the game data":
                bars.append(sum(screen[4 * 128 + x] != 0 for x in range(128)))
            elif bars:
                break
        assert emu.run_until_ready()
        assert emu.fx_read(emu.fx_save_address, len(blank)) == fx_image.save
    assert len(bars) > 5 and bars == sorted(bars) and bars[-1] >= 80
    with Emulator(fx_hex, fx=fx_image) as emu:
        emu.run_ms(200)
        assert read(emu.screen(), 22, 20) != "Checking the game data"
        assert emu.run_until_ready(max_cycles=2_000_000)


@pytest.mark.parametrize("damage", [pytest.param("a byte of the tables", marks=pytest.mark.slow), "an upload cut short"])
def test_damaged_tables_are_found_before_they_are_trusted(fx_hex, fx_image, projectabe, damage):
    """In ProjectABE (no save block: the image is checked at every boot) a data image whose last
    64 KB were never written, or (`make longtest`) whose tables differ in one byte: the error screen
    and line, no game."""
    data = bytearray(fx_image.data)
    if damage == "an upload cut short":
        data[-65536:] = b"\xff" * 65536
    else:
        data[len(data) // 2] ^= 0x10
    with Emulator(fx_hex, fx=FxImage("ArduboyFX", bytes(data)), backend=projectabe) as emu:
        assert emu.run_until_serial("# whist error: no game data on the FX chip\n", max_cycles=200_000_000)
        emu.run_ms(100)
        lines = ["Game data missing or damaged:", "upload the whole .arduboy file."]
        assert [read(emu.screen(), y, (129 - 4 * len(line)) // 2) for y, line in zip((24, 32), lines)] == lines
