"""`whist upload` of an FX package onto a chip that holds a cart (generator/targets/fxcart.py, recovery.py).

The carts are made by cart_model.build as the community's builder makes them (categories,
games with data and save blocks, 12 MB), loaded into the simulated bootloader's chip; the
game is looked for as a player would, with cart_model.Menu, the bootloader's menu walk.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import random
import tempfile
import zipfile
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from caterina_sim import CHIP_BLOCK, CaterinaSim, Faults, to_hex
from cart_model import Menu, Row, build, chain
from conftest import needs_firmware
from generator.targets import cart, fxcart, fxchip, intelhex, recovery
from generator.targets.uploader import Timing, run

FAST = Timing(reply=0.5, boot=0.5, settle=0.1, poll=0.01, chip=2.0, jedec_gap=0.0)
TITLE, AUTHOR, VERSION = "Whist Duel", "Whist for Arduboy developers", "1.4.0"
SAVE_BYTES = 8192
ISR = 0x1000  # where the test program's Timer0 overflow ISR is


class Host:
    """The machine: the simulator's port is given with --port, so nothing is listed or touched."""

    def ports(self) -> list:
        return []

    def touch(self, device: str) -> None:
        raise AssertionError("no touch expected")

    def open(self, device: str, timeout: float):
        from generator.targets.uploader import SystemHost

        return SystemHost().open(device, timeout)


@functools.cache
def program(seed: int = 1, size: int = 0x2400) -> dict[int, int]:
    """A program a cart builder can patch: random code with vector 23 jumping to a Timer0 ISR shaped as the
    Arduino core's (six lds among 148 bytes, then reti)."""
    rng = random.Random(seed)
    memory = {a: rng.randrange(256) for a in range(size)}
    memory.update(enumerate(bytes([0x0C, 0x94]) + (ISR // 2).to_bytes(2, "little"), 0x5C))
    body = b"".join(bytes([0x80, 0x91]) + (0x0100 + 4 * i).to_bytes(2, "little") for i in range(6))
    body = body.ljust(146, b"\x00") + b"\x18\x95"
    memory.update(enumerate(body, ISR))
    return memory


@functools.cache
def banner(mark: int = 1) -> bytes:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((mark, mark, 127 - mark, 63 - mark), outline=1)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def package(folder: Path, memory: dict[int, int], data: bytes, device: str = "ArduboyFX",
            version: str = VERSION, name: str = "WhistFX.arduboy") -> Path:
    """A schema-4 package as the build makes one: info.json's title, version, author and description."""
    binary = {"title": f"{TITLE} ({device})", "device": device, "filename": "w.hex", "flashdata": "d.bin",
              "flashsave": "s.bin", "cartimage": "banner.png"}
    info = {"schemaVersion": 4, "title": TITLE, "version": version, "author": AUTHOR,
            "description": "German Whist for two.", "binaries": [binary]}
    path = folder / name
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("info.json", json.dumps(info))
        z.writestr("w.hex", _hex(tuple(memory.items())))
        z.writestr("d.bin", data)
        z.writestr("s.bin", b"\xff" * SAVE_BYTES)
        z.writestr("banner.png", banner())
    return path


@functools.cache
def _hex(memory: tuple[tuple[int, int], ...]) -> str:
    return to_hex(dict(memory))


def flat(memory: dict[int, int]) -> bytes:
    out = bytearray(b"\xff" * (max(memory) + 1))
    for at, value in memory.items():
        out[at] = value
    return bytes(out)


def title_screen(seed: int) -> bytes:
    return random.Random(seed).randbytes(1024)


def game_row(rng: random.Random, list_number: int, title: str, data_kb: int) -> Row:
    """A game with a program, data and a 4 KB save block; its sizes from `rng`, its bytes from its title."""
    program_kb, data_extra = rng.randrange(4, 28), rng.randrange(256)
    own = random.Random(title)
    return Row(list_number, title, own.randbytes(1024), own.randbytes(program_kb * 1024),
               own.randbytes(data_kb * 1024 + data_extra), b"\xff" * 4096, "1.0", "Someone", f"{title}, a game")


def cart_rows(big_kb: int = 10_000, extra: list[Row] | None = None, seed: int = 3) -> list[Row]:
    """A cart of about 12 MB (`big_kb` of it the first Action game's data): the bootloader's screen, then
    categories and their games (the Tabletop list has Press-Play-On-Tape's German Whist), as the official
    cart's list orders them; `extra` rows go at the end of their list."""
    rng = random.Random(seed)
    rows = [Row(0, "Arduboy FX", title_screen(0), info="the loader")]
    for number, (category, games) in enumerate([("Action", 3), ("Tabletop", 2), ("Puzzle", 3)], 1):
        rows.append(Row(number, category, title_screen(number)))
        if category == "Tabletop":
            rows.append(Row(number, "German Whist", title_screen(99), rng.randbytes(20000), version="1.0",
                            developer="Press Play On Tape"))
        rows += [game_row(rng, number, f"{category} {i}", big_kb if number == 1 and i == 0 else rng.randrange(64, 900))
                 for i in range(games)]
        rows += [r for r in (extra or []) if r.list == number]
    return rows


@functools.cache
def a_cart(size: int = 12_000_000) -> bytes:
    """A cart of `size` bytes but for a few pages (its first game's data takes up the difference)."""
    base = len(build(cart_rows(0)))
    return build(cart_rows((size - base) // 1024))


def screen_bytes(png: bytes) -> bytes:
    """A 128x64 PNG as the bootloader draws a title: 8-pixel columns, the top pixel in bit 0."""
    image = Image.open(io.BytesIO(png)).convert("1")
    return bytes(sum(1 << bit for bit in range(8) if image.getpixel((x, band + bit))) for band in range(0, 64, 8)
                 for x in range(128))


def upload(capsys, sim: CaterinaSim, file: Path, tmp_path: Path, **options) -> tuple[int, str, str]:
    code = run(str(file), sim.port, Host(), options.pop("timing", FAST), state=tmp_path / "state", **options)
    out, err = capsys.readouterr()
    return code, out, err


def error_line(code: int, err: str) -> str:
    assert code == 1 and "Traceback" not in err
    return err.strip().splitlines()[-1]


def with_chip(image: bytes, **kwargs) -> CaterinaSim:
    sim = CaterinaSim(cathy3k=True, **kwargs)
    sim.preload(0, image)
    return sim


def again(sim: CaterinaSim) -> CaterinaSim:
    """The same Arduboy back in its bootloader for another upload: its chip as it was left."""
    sim.close()
    return CaterinaSim(cathy3k=True, chip=sim.chip)


def same_outside(sim: CaterinaSim, before: bytes, start: int, end: int) -> None:
    """Every byte of `before` (the chip's first bytes before the upload) outside [start, end) unchanged."""
    now = sim.chip_read(0, len(before))
    assert now[:start] == before[:start]
    assert now[end:] == before[end:]


def slot_of(sim: CaterinaSim, title: str):
    return next(h for h in chain(sim.chip_read) if h.title == title)


def check_slot(sim: CaterinaSim, memory: dict[int, int], data: bytes, list_number: int):
    """The game's slot as a builder makes it, shown in the list's menu, its program the MCU's."""
    slot = slot_of(sim, TITLE)
    assert slot.list == list_number
    assert slot.strings[:3] == [TITLE, VERSION, AUTHOR]
    unpatched = fxchip.padded(flat(memory), 256)
    assert slot.raw[25:57] == hashlib.sha256(unpatched + fxchip.padded(data, 256)).digest()
    data_page, save_page = slot.field(17), slot.field(19)
    assert (slot.field(15), slot.field(21)) == (slot.page + 5, len(fxchip.padded(data, 256)) // 256)
    assert save_page % 16 == 0 and slot.page + slot.size - save_page == SAVE_BYTES // 256  # the save block ends it
    assert sim.chip_read(data_page * 256, len(data)) == data
    menu = Menu(sim.chip_read)
    menu.find(TITLE)
    assert menu.list == list_number
    assert menu.image == screen_bytes(banner())
    launched = menu.press("A")
    assert launched == bytes(sim.flash[:len(launched)])  # the program the upload wrote is the slot's
    assert launched[0x14:0x1C] == b"\x18\x95" + data_page.to_bytes(2, "big") + b"\x18\x95" + save_page.to_bytes(2, "big")
    isr = cart.timer0_isr(unpatched)
    assert launched[ISR:ISR + len(cart.MENU_BUTTON)] == cart.menu_button(isr)
    assert launched[0x20:ISR] == unpatched[0x20:ISR]
    return slot


# --- putting the game on a cart -------------------------------------------------------------------------
def test_the_game_goes_in_as_a_slot_of_the_tabletop_list_and_nothing_else_changes(capsys, tmp_path):
    memory, data = program(), random.Random(9).randbytes(70_000)
    cart_image = a_cart()
    end = len(cart_image) - 256  # the blank page that ends the chain: the new slot's header goes there
    with with_chip(cart_image) as sim:
        sim.preload(0xF00000, b"beyond the cart")  # free space, not blank: kept
        code, out, err = upload(capsys, sim, package(tmp_path, memory, data), tmp_path)
        assert code == 0, err
        slot = check_slot(sim, memory, data, list_number=2)
        assert slot.page == end // 256 and slot.previous == chain(sim.chip_read)[-2].page
        assert chain(sim.chip_read)[-1] == slot
        assert sim.chip_read((slot.page + slot.size) * 256, 256) == b"\xff" * 256  # the chain's end
        same_outside(sim, cart_image[:end], end, end)
        assert sim.chip_read(0xF00000, 15) == b"beyond the cart"
        assert end // CHIP_BLOCK not in sim.erased  # the block it shares with the last slot: never erased
        assert sim.chip_writes()[-1] == end  # the header last, into a blank page
    assert out.startswith("ok: wrote and verified 9,216 bytes (72 pages) and ")
    assert (f"bytes of the FX chip (a new slot at page 0x{end // 256:04X}, in the cart's Tabletop list: data at "
            f"page 0x{end // 256 + 5 + 36:04X}, a blank save block) for an ArduboyFX on {sim.port}") in out
    assert not (tmp_path / "state").exists() or not list((tmp_path / "state").iterdir())  # nothing at risk


def save_record(number: int) -> bytes:
    """A 256-byte page as firmware/save.cpp commits a record (see test_uploader.save_record)."""
    page = (b"WS" + bytes(12) + b"WG" + bytes(40)).ljust(252, b"\xff") + number.to_bytes(2, "little")
    a = b = 0
    for value in page:
        a, b = (a + value) % 255, (b + (a + value) % 255) % 255
    return page + (b << 8 | a).to_bytes(2, "little")


def test_a_second_upload_replaces_the_slot_in_place_and_keeps_the_saves(capsys, tmp_path):
    memory, data = program(), random.Random(9).randbytes(70_000)
    cart_image = a_cart()
    end = len(cart_image) - 256
    with with_chip(cart_image) as sim:
        assert upload(capsys, sim, package(tmp_path, memory, data), tmp_path)[0] == 0
        first = slot_of(sim, TITLE)
        saves = save_record(1) + save_record(2)
        sim.preload(first.field(19) * 256, saves)
    with again(sim) as sim:
        new_memory, new_data = program(seed=2, size=0x2800), random.Random(10).randbytes(90_000)  # a new build
        code, out, err = upload(capsys, sim, package(tmp_path, new_memory, new_data, name="new.arduboy"), tmp_path)
        assert code == 0, err
        slot = check_slot(sim, new_memory, new_data, list_number=2)
        assert slot.page == first.page and slot.size > first.size  # the cart's last slot grows
        assert sim.chip_read(slot.field(19) * 256, len(saves)) == saves
        same_outside(sim, cart_image[:end], end, end)
        assert [h.title for h in chain(sim.chip_read)].count(TITLE) == 1
    assert f"its slot at page 0x{first.page:04X} replaced in place: data at page " in out
    assert "the saved games on it kept" in out


def old_slot(version: str = "1.0", data: bytes = bytes(60_000)) -> Row:
    """This game's slot from an older cart build, in Tabletop, another game after it."""
    return Row(2, TITLE, title_screen(7), flat(program(seed=5)), data, save_record(1).ljust(SAVE_BYTES, b"\xff"),
               version, AUTHOR, "an older build")


def test_a_slot_another_follows_is_replaced_in_its_pages_or_left_when_too_small(capsys, tmp_path):
    image = build(cart_rows(extra=[old_slot()]))  # last in Tabletop: the Puzzle list's title screen follows
    old = next(h for h in chain(lambda a, n: image[a:a + n]) if h.title == TITLE)
    memory = program(seed=6)
    with with_chip(image) as sim:
        code, out, err = upload(capsys, sim, package(tmp_path, memory, bytes(range(256)) * 200), tmp_path)
        assert code == 0, err
        slot = check_slot(sim, memory, bytes(range(256)) * 200, list_number=2)
        assert (slot.page, slot.size, slot.previous, slot.next) == (old.page, old.size, old.previous, old.next)
        assert sim.chip_read(slot.field(19) * 256, 256) == save_record(1)  # the saves, where they were
        same_outside(sim, image, old.page * 256, (old.page + old.size) * 256)
        assert f"its slot at page 0x{old.page:04X} replaced in place" in out and "saved games on it kept" in out
    before = sim.chip_read(0, len(image) - 256)
    with again(sim) as sim:
        bigger = bytes(range(256)) * 900  # 225 KB: more than the old slot holds
        code, out, err = upload(capsys, sim, package(tmp_path, memory, bigger, name="big.arduboy"), tmp_path)
        assert code == 0, err
        slots = chain(sim.chip_read)
        assert [h.title for h in slots].count(TITLE) == 2 and slots[-1].title == TITLE
        assert slots[-1].list == 2 and sim.chip_read(slots[-1].field(19) * 256, 256) == save_record(1)
        assert (f"its older slot at page 0x{old.page:04X} had no room for this build and is left as it was (remove "
                "it with the Arduboy toolset's cart editor)") in out
        same_outside(sim, before, len(before), len(before))


def test_no_room_is_one_line_and_nothing_is_written(capsys, tmp_path):
    image = a_cart(16_400_000)
    with with_chip(image) as sim:
        code, _, err = upload(capsys, sim, package(tmp_path, program(), bytes(600_000)), tmp_path)
        assert sim.chip_writes() == [] and sim.writes() == []
    start = len(image) // 256 - 1
    save_page = -(-(start + 5 + 36 + 2344) // 16) * 16  # the program's 36 pages, the data's 2,344
    need, free = (save_page + 32 + 1 - start) * 256, (1 << 24) - start * 256
    assert error_line(code, err) == (
        f"error: {tmp_path / 'WhistFX.arduboy'}: {TITLE} needs {need:,} bytes of the chip from page "
        f"0x{(len(image) - 256) // 256:04X} (its slot, and a blank page to end the cart) and {free:,} are left "
        f"there: {need - free:,} bytes are missing; nothing was written; make room: remove games from the cart "
        "with the Arduboy toolset's cart editor (or write a smaller cart), then run 'whist upload' again")


@pytest.mark.parametrize("device, select, says", [
    ("ArduboyMini", "PD1", "the ArduboyMini edition, which selects the flash chip on PE2, and the bootloader on "
                           "{port} is an Arduboy FX's, which selects it on PD1; nothing was written; upload its "
                           "package, distributable/ArduboyFX/WhistFX.arduboy"),
    ("ArduboyFX", "PE2", "the ArduboyFX edition, which selects the flash chip on PD1, and the bootloader on {port} "
                         "is an Arduboy Mini's, which selects it on PE2; nothing was written; upload its package, "
                         "distributable/ArduboyMini/WhistMini.arduboy"),
    ("ArduboyFX", "PD2", "the ArduboyFX edition, which selects the flash chip on PD1, and the bootloader on {port} "
                         "is a home-made FX board's, which selects it on PD2; nothing was written; upload the "
                         "classic edition, distributable/Whist.hex"),
])
def test_the_other_edition_is_refused_before_anything_is_written(capsys, tmp_path, device, select, says):
    path = package(tmp_path, program(), bytes(1000), device=device)
    with with_chip(a_cart(), select=select) as sim:
        code, _, err = upload(capsys, sim, path, tmp_path)
        assert sim.writes() == [] and sim.chip_log == []
    assert error_line(code, err) == f"error: {path} is " + says.format(port=sim.port)


def test_the_right_edition_and_an_unknown_bootloader_go_ahead(capsys, tmp_path):
    for device, select in (("ArduboyMini", "PE2"), ("ArduboyFX", None)):
        with CaterinaSim(cathy3k=True, select=select) as sim:
            code, _, err = upload(capsys, sim, package(tmp_path, program(), bytes(1000), device=device), tmp_path)
            assert code == 0, err


def test_a_damaged_chain_is_refused(capsys, tmp_path):
    image = bytearray(a_cart())
    second = chain(lambda a, n: bytes(image[a:a + n]))[1]
    image[second.page * 256 + 10:second.page * 256 + 12] = b"\x00\x10"  # its next page no longer its end
    with with_chip(bytes(image)) as sim:
        code, _, err = upload(capsys, sim, package(tmp_path, program(), bytes(1000)), tmp_path)
        assert sim.chip_writes() == [] and sim.writes() == []
    assert error_line(code, err).startswith(
        f"error: the cart on the FX chip of {sim.port} is damaged: the slot at page 0x{second.page:04X} says the "
        f"next is at page 0x0010 but its size of {second.size} pages ends it at page 0x{second.page + second.size:04X}"
        "; nothing was written; rewrite the cart with the Arduboy toolset or flashcart-writer, or add "
        "--overwrite-cart-end")


def test_the_development_layout_over_a_cart_only_when_asked(capsys, tmp_path):
    image = a_cart(16_700_000)
    data = bytes(70_000)
    with with_chip(image) as sim:
        code, out, err = upload(capsys, sim, package(tmp_path, program(), data), tmp_path, overwrite_cart_end=True)
        assert code == 0, err
        assert sim.chip_read((1 << 24) - SAVE_BYTES - 70_144, len(data)) == data
    last = chain(lambda a, n: image[a:a + n])[-1]
    assert f"(at the chip's end, over 1 of the cart's slots from {last.title!r} at page 0x{last.page:04X}: " in out


# --- a cable pulled --------------------------------------------------------------------------------------
def cut_then_rerun(capsys, tmp_path, image: bytes, path: Path, cut: tuple[int, int],
                   whole: bool) -> tuple[bytes, str]:
    """Upload with the cable pulled during the chip's write `cut[0]` (from 1), `cut[1]` pages into it; check
    that the menu still walks the cart (all of it if `whole`, else the slots up to where the cut left the
    chain); upload again on the same chip. The chip after the rerun, and the rerun's stderr."""
    with with_chip(image, faults=Faults(cut=(cut[0] - 1, cut[1]))) as sim:
        code, _, err = upload(capsys, sim, path, tmp_path)
        assert code == 1 and "vanished during the write of FX chip block" in err, err
        walked = [h.page for h in chain(sim.chip_read)]  # it ends where a page is not a slot's
        before = [h.page for h in chain(lambda a, n: image[a:a + n])]
        assert walked == (before if whole else before[:len(walked)]) and len(walked) > 2
        menu = Menu(sim.chip_read)
        menu.press("RIGHT")
        assert menu.title == "Action"
        if whole:
            menu.find("Puzzle 2")  # the last list's last game
    with again(sim) as sim:
        code, _, err = upload(capsys, sim, path, tmp_path)
        assert code == 0, err
        return sim.chip_read(0, 1 << 24), err


@functools.cache
def in_place_cart() -> bytes:
    """This game's slot, with saves, between a game (the end of whose data shares the slot's first block) and
    the Puzzle list's title screen (in the slot's last block)."""
    rows = cart_rows(big_kb=2000)
    at = next(i for i, r in enumerate(rows) if r.title == "Puzzle")
    rows[at:at] = [old_slot(data=random.Random(4).randbytes(150_000))]
    return build(rows)


@functools.cache
def leftovers_cart() -> bytes:
    """A 4 MB cart whose free space, after the blank page that ends it, holds an older cart's bytes."""
    image = a_cart(4_000_000)
    return image + random.Random(1).randbytes(CHIP_BLOCK - len(image) % CHIP_BLOCK + 5000)


@functools.cache
def uninterrupted(image: bytes, memory: tuple[tuple[int, int], ...], data: bytes) -> bytes:
    """The chip after the upload that no cable cut."""
    with tempfile.TemporaryDirectory() as folder, with_chip(image) as sim:
        path = package(Path(folder), dict(memory), data)
        assert run(str(path), sim.port, Host(), FAST, state=Path(folder) / "state") == 0
        return sim.chip_read(0, 1 << 24)


# In place, five writes: the slot's next two blocks, the one it shares with the title screen after it, its
# first block (shared with the game before it, the header page left blank), its header page.
@pytest.mark.parametrize("cut", [(1, 100), (3, 0), (4, 0), (4, 120), (5, 0)],
                         ids=lambda c: f"write-{c[0]}-after-{c[1]}-pages")
def test_a_cut_during_an_in_place_replacement_is_undone_by_the_rerun(capsys, tmp_path, cut):
    data = random.Random(8).randbytes(140_000)
    path = package(tmp_path, program(seed=8), data)
    chip, err = cut_then_rerun(capsys, tmp_path, in_place_cart(), path, cut, whole=False)
    assert chip == uninterrupted(in_place_cart(), tuple(program(seed=8).items()), data)  # all else as it was
    slot = next(h for h in chain(lambda a, n: chip[a:a + n]) if h.title == TITLE)
    assert chip[slot.field(19) * 256:slot.field(19) * 256 + 256] == save_record(1)  # the saves kept
    assert list((tmp_path / "state").iterdir()) == []  # the copy is gone once the upload is done
    assert ("note: an upload into this cart was cut; its blocks are back as they were" in err) == (cut[0] >= 3)


# Appended after an older cart's leftovers, three writes: the block after the slot's first, its first (erased,
# for the leftovers), its header page.
@pytest.mark.parametrize("cut", [(1, 30), (2, 0), (3, 0)], ids=lambda c: f"write-{c[0]}-after-{c[1]}-pages")
def test_a_cut_while_appending_leaves_the_cart_as_it_was(capsys, tmp_path, cut):
    data = random.Random(9).randbytes(70_000)
    path = package(tmp_path, program(seed=8), data)
    chip, _ = cut_then_rerun(capsys, tmp_path, leftovers_cart(), path, cut, whole=True)
    assert chip == uninterrupted(leftovers_cart(), tuple(program(seed=8).items()), data)


# --- the real package -------------------------------------------------------------------------------------
@needs_firmware
def test_the_fx_package_on_a_cart(capsys, tmp_path, firmware_dist):
    """distributable/ArduboyFX/WhistFX.arduboy, as the README says to upload it, onto a 12 MB cart."""
    path = firmware_dist / "ArduboyFX" / "WhistFX.arduboy"
    with zipfile.ZipFile(path) as z:
        info = json.loads(z.read("info.json"))
        memory = intelhex.parse(z.read("WhistFX.hex").decode())
        data, image = z.read("WhistFX-data.bin"), z.read("banner.png")
    image_cart = a_cart()
    with with_chip(image_cart) as sim:
        code, out, err = upload(capsys, sim, path, tmp_path)
        assert code == 0, err
        slot = slot_of(sim, "Whist Duel")
        assert slot.strings == ["Whist Duel", info["version"], info["author"], info["description"]][:len(slot.strings)]
        assert sim.chip_read(slot.field(17) * 256, len(data)) == data
        menu = Menu(sim.chip_read)
        menu.find("Whist Duel")
        assert menu.list == 2 and menu.image == screen_bytes(image)
        launched = menu.press("A")
        assert launched == bytes(sim.flash[:len(launched)])
        flash = fxchip.padded(flat(memory), 256)
        isr = cart.timer0_isr(flash)
        assert launched[isr.address:isr.address + len(cart.MENU_BUTTON)] == cart.menu_button(isr)
        assert launched[0x14:0x16] == launched[0x18:0x1A] == b"\x18\x95"
        same_outside(sim, image_cart[:-256], len(image_cart) - 256, len(image_cart) - 256)
    assert "in the cart's Tabletop list" in out


# --- the order of the writes ------------------------------------------------------------------------------
def slot_bytes(pages: int) -> bytes:
    return b"ARDUBOY" + bytes(249) + random.Random(pages).randbytes((pages - 1) * 256)


def test_the_header_page_is_written_last_into_a_blank_page():
    """A slot at page 0x1234 (mid-block) in free space: its first block programmed from the page after the
    header without an erase, the following blocks erased and written whole, the header page last."""
    image = slot_bytes(600)
    first = bytearray(random.Random(1).randbytes(0x3400)) + b"\xff" * (CHIP_BLOCK - 0x3400)  # the slot before
    plan = fxcart.plan(0x1234, image, {0x120000: bytes(first), 0x140000: b"\xff" * CHIP_BLOCK})
    assert [(w.address, len(w.data)) for w in plan.writes] == [
        (0x130000, CHIP_BLOCK), (0x140000, CHIP_BLOCK), (0x123500, 0xCB00), (0x123400, 256)]
    assert plan.writes[-1].data == image[:256] and plan.kept_blocks == []


def test_a_block_with_another_slots_bytes_is_kept_and_its_header_page_left_blank():
    """The same slot over an older cart's leftovers: its first block erased and written whole, the slot
    before's bytes in it and the header page blank, then the header; the block kept for a rerun."""
    image = slot_bytes(600)
    first = random.Random(1).randbytes(CHIP_BLOCK)
    plan = fxcart.plan(0x1234, image, {0x120000: first, 0x140000: b"\xff" * CHIP_BLOCK})
    body, header = plan.writes[-2:]
    assert (body.address, header.address) == (0x120000, 0x123400)
    assert body.data[:0x3400] == first[:0x3400] and body.data[0x3400:0x3500] == b"\xff" * 256
    assert [k[0] for k in plan.kept_blocks] == [0x120000]


def test_a_slot_on_a_block_boundary_has_its_header_in_the_last_write():
    image = slot_bytes(600)
    plan = fxcart.plan(0x1200, image, {0x120000: b"\xff" * CHIP_BLOCK, 0x140000: b"\xff" * CHIP_BLOCK})
    assert [w.address for w in plan.writes] == [0x130000, 0x140000, 0x120000]
    assert plan.writes[-1].data[:256] == image[:256]


def test_a_shared_block_that_would_not_change_is_not_written():
    image = slot_bytes(600)
    last = bytearray(random.Random(2).randbytes(CHIP_BLOCK))
    last[:0x8C00] = image[0x1CC00:]  # the slot's end as it is already, the next slot after it
    plan = fxcart.plan(0x1234, image, {0x120000: b"\xff" * CHIP_BLOCK, 0x140000: bytes(last)})
    assert 0x140000 not in [w.address for w in plan.writes]


def test_another_carts_record_is_kept_and_named(capsys, tmp_path):
    folder = tmp_path / "state"
    before, after = random.Random(1).randbytes(CHIP_BLOCK), random.Random(2).randbytes(CHIP_BLOCK)
    other = recovery.save(folder, recovery.Record([(0x100000, before, after)], None))
    with with_chip(a_cart()) as sim:
        code, _, err = upload(capsys, sim, package(tmp_path, program(), bytes(1000)), tmp_path)
        assert code == 0, err
    assert f"note: {other} keeps bytes of another cart, from an upload to it that was cut;" in err
    assert list(folder.iterdir()) == [other]
