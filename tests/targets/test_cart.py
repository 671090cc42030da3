"""On an FX cart: what the community's cart builders patch into a program (generator/targets/cart.py).

Both editions keep the Arduino core's Timer0 overflow ISR as the builders need it, so a
cart's menu button can be patched in: the tests patch in the project's own
(generator/targets/menu_button.S, which `whist upload` patches in on a cart) and hold UP
and DOWN. The FX edition finds its data and saves at the pages a builder writes into
vectors 5 and 6.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cart_model import with_game
from caterina_sim import to_hex
from conftest import needs_firmware
from generator.codegen import fxdata
from generator.targets import cart, fxchip, intelhex
from generator.targets.buttons import Device
from generator.targets.emulator import Emulator, FxImage
from generator.targets.package import symbols

pytestmark = [needs_firmware, pytest.mark.xdist_group("cart")]
MENU_BUTTON = Path(cart.__file__).with_name("menu_button.S")
WDTCSR, BOOT_KEY = 0x60, 0x0800


def flash_of(hex_path: Path) -> bytearray:
    memory = intelhex.parse(hex_path.read_text())
    flash = bytearray(b"\xff" * (max(memory) + 1))
    for at, value in memory.items():
        flash[at] = value
    return flash


def address_of(elf: Path, name: str) -> int:
    return next(int(p[0], 16) & 0xFFFF for p in symbols(elf) if p[-1] == name)


@pytest.mark.parametrize("edition", ["classic", "fx"])
def test_the_timer0_isr_is_the_one_cart_builders_patch(firmware_dist, edition):
    hex_path = firmware_dist / ("Whist.hex" if edition == "classic" else "ArduboyFX/WhistFX.hex")
    elf = firmware_dist.parent / "build" / ("avr" if edition == "classic" else "fx/avr") / "Whist.elf"
    isr = cart.timer0_isr(bytes(flash_of(hex_path)))
    assert isr.length == cart.PATCH_BYTES  # the core's own, exactly the builders' size
    assert (isr.millis, isr.fract, isr.overflow_count) == tuple(
        address_of(elf, name) for name in ("timer0_millis", "timer0_fract", "timer0_overflow_count"))


def test_an_isr_a_builder_could_not_patch_is_named():
    flash = bytearray(0x100)
    flash[0x5C:0x60] = bytes([0x0C, 0x94, 0x40, 0x00])  # jmp 0x80
    flash[0x80:0x84] = bytes([0x08, 0x95, 0x18, 0x95])  # ret, reti
    with pytest.raises(cart.CartError, match="returns from a subroutine"):
        cart.timer0_isr(bytes(flash))
    flash[0x80:0x84] = bytes([0x00, 0x00, 0x18, 0x95])  # nop, reti
    with pytest.raises(cart.CartError, match="is 4 B, shorter than the 148 B"):
        cart.timer0_isr(bytes(flash))


def assembled(isr: cart.Isr, tmp_path: Path) -> bytes:
    """menu_button.S assembled for these variables."""
    elf = tmp_path / "menu_button.elf"
    syms = f"--defsym,MILLIS={isr.millis},--defsym,FRACT={isr.fract},--defsym,OVERFLOW={isr.overflow_count}"
    subprocess.run(["avr-gcc", "-mmcu=atmega32u4", "-nostdlib", "-Wl,-Ttext=0", "-x", "assembler",
                    str(MENU_BUTTON), f"-Wa,{syms}", "-o", str(elf)], check=True)
    subprocess.run(["avr-objcopy", "-O", "binary", "-j", ".text", str(elf), str(elf.with_suffix(".bin"))], check=True)
    return elf.with_suffix(".bin").read_bytes()


def test_the_menu_button_is_its_source_assembled(fx_hex, tmp_path):
    real = cart.timer0_isr(bytes(flash_of(fx_hex)))
    for isr in (real, cart.Isr(0, 148, 0, 0, 0), cart.Isr(0, 148, 0x1234, 0x5678, 0x9ABC)):
        assert cart.menu_button(isr) == assembled(isr, tmp_path)
    assert len(cart.MENU_BUTTON) <= cart.PATCH_BYTES


def test_holding_up_and_down_returns_to_the_carts_menu(fx_hex, fx_image, tmp_path):
    at = fxchip.layout(fx_image.data, fx_image.save, 1 << 24)  # where the emulator puts the data and save
    flash, unpatched = cart.for_cart(bytes(flash_of(fx_hex)), at.data_page, at.save_page)  # as `whist upload` does
    assert unpatched is None
    patched = tmp_path / "patched.hex"
    patched.write_text(to_hex(bytes(flash)))
    with Emulator(patched, fx=fx_image) as emu:
        assert emu.run_until_ready()  # millis() runs: the game's frames go on
        emu.watch([BOOT_KEY, BOOT_KEY + 1, WDTCSR])  # the game's stack passes 0x0800 too: WDTCSR tells

        def watchdog() -> list[tuple[int, int]]:
            return [(a, v) for a, v, _ in emu.writes() if a == WDTCSR]

        for held in (["UP", "DOWN", "A"], ["UP"]):  # not the menu's buttons: the game goes on
            emu.set_buttons(held)
            emu.run_ms(2500)
            assert not watchdog()
        emu.set_buttons([])
        emu.run_ms(100)
        emu.set_buttons(["UP", "DOWN"])
        emu.run_ms(1000)
        assert not watchdog()  # not yet: 1.5 s
        emu.run_ms(1000)
        writes = [(a, v) for a, v, _ in emu.writes()]
    assert writes[-4:] == [(BOOT_KEY, 0x77), (BOOT_KEY + 1, 0x77), (WDTCSR, 0x18), (WDTCSR, 0x08)]


def test_the_fx_edition_reads_the_pages_a_cart_builder_patched(fx_hex, fx_image, tmp_path):
    """Data and save where a cart puts them (a slot as the builder writes it: cart_model), nothing
    at the chip's end: the game plays from there and saves in its slot's save block (test_fx_saves
    has the blocks of other sizes, and those the game must not write)."""
    data = fx_image.data
    data_page = with_game(flash_of(fx_hex), data, fx_image.save)[2]
    image, program, data_page, save_page = with_game(flash_of(fx_hex), data, fxdata.checked_save(data, data_page))
    patched = tmp_path / "cart.hex"
    patched.write_text(to_hex(program))
    with Emulator(patched, fx=FxImage("ArduboyFX", b"", b"")) as emu:
        emu.fx_write(0, image)
        dev = Device(emu)
        dev.boot()
        dev.read()
        emu.serial_write("play seed=5 deck=28 scoring=last13 target=0 p0=random p1=greedy fast=1\n")
        dev.wait_serial("end winner=")
        assert dev.read().startswith("game v1 seed=5 deck=28")
        dev.menu("settings")
        dev.wait_screen("settings")
        dev.tap("RIGHT")  # saved: a record after the first boot's in the slot's save block
        assert emu.fx_read(save_page * 256 + 2 * 256 + 252, 4) != b"\xff" * 4  # its number and checksum
        assert emu.fx_read((65536 - 64) * 256, 64 * 256) == b"\xff" * (64 * 256)  # nothing at the chip's end
