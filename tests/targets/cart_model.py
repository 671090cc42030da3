"""An FX cart as the community's builder makes one, and the bootloader's menu walking it.

Written for the tests from the format (MrBlinky's flashcart-builder.py v1.10 and the
bootloader's own code, cathy3k.asm: LoadApplicationInfo, SelectList, SelectGame),
apart from generator/targets/fxcart.py, so that they check it rather than repeat it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable

PAGE = 256
MAGIC = b"ARDUBOY"


def pad(data: bytes, unit: int) -> bytes:
    return data + b"\xff" * (-len(data) % unit)


@dataclass(frozen=True)
class Row:
    """One line of the builder's CSV: a category's title screen (no program) or a game."""

    list: int
    title: str
    image: bytes = bytes(1024)
    program: bytes = b""  # flash from address 0 (the builder reads the hex into it)
    data: bytes = b""
    save: bytes = b""
    version: str = ""
    developer: str = ""
    info: str = ""


def build(rows: list[Row], menu_patch: Callable[[bytearray], None] | None = None) -> bytes:
    """The cart image flashcart-builder.py writes for `rows`: each slot, then a blank page."""
    out = bytearray()
    previous, current = 0xFFFF, 0
    for row in rows:
        header = bytearray(MAGIC + b"\xff" * 249)
        program = bytearray(pad(row.program, PAGE))
        data, save = pad(row.data, PAGE), pad(row.save, 4096)
        digest = hashlib.sha256(bytes(program) + data).digest()
        program_page = current + 5
        data_page = program_page + len(program) // PAGE
        align_page = data_page + len(data) // PAGE
        align = (-align_page % 16) * PAGE if save else 0
        save_page = align_page + align // PAGE
        size = (len(program) + len(data) + align + len(save)) // PAGE + 5
        following = current + size
        header[7] = row.list
        header[8:14] = previous.to_bytes(2, "big") + following.to_bytes(2, "big") + size.to_bytes(2, "big")
        header[14] = len(program) // 128 - (program[-128:] == b"\xff" * 128) if program else 0
        if program:
            header[15:17] = program_page.to_bytes(2, "big")
            if data:
                program[0x14:0x18] = b"\x18\x95" + data_page.to_bytes(2, "big")
                header[17:19] = data_page.to_bytes(2, "big")
                header[21:23] = (len(data) // PAGE).to_bytes(2, "big")
            if save:
                program[0x18:0x1C] = b"\x18\x95" + save_page.to_bytes(2, "big")
                header[19:21] = save_page.to_bytes(2, "big")
            header[25:57] = digest
            strings = b"".join(s.encode() + b"\0" for s in (row.title, row.version, row.developer, row.info))
            if menu_patch:
                menu_patch(program)
        else:
            strings = row.title.encode() + b"\0" + row.info.encode() + b"\0"
        strings = strings[:199]
        header[57:57 + len(strings)] = strings
        out += header + row.image + program + data + b"\xff" * align + save
        previous, current = current, following
    return bytes(out + b"\xff" * PAGE)


def with_game(program: bytes, data: bytes, save: bytes, clear_save: bool = False) -> tuple[bytes, bytes, int, int]:
    """A cart holding this game: the loader's screen, a category, the game, another game with data and a
    save of its own right after it. Returns (the cart, the game's program as the cart patched it, its data
    page, its save block's page). With ``clear_save`` the block was cleared in the toolset's cart editor:
    the slot rebuilt without it from the program read back from the cart, so vector 6 still names the old
    block's page, now inside the next slot."""
    other = Row(1, "Other game", program=bytes(range(256)) * 12, data=bytes(range(255, -1, -1)) * 3,
                save=b"\xa5" * 4096)

    def cart(game: Row) -> tuple[bytes, Header]:
        image = build([Row(0, "Loader"), Row(1, "Tabletop"), game, other])
        return image, chain(lambda at, n: image[at:at + n])[2]

    image, slot = cart(Row(1, "Whist Duel", program=program, data=data, save=save))
    save_page = slot.field(19)
    at = slot.field(15) * PAGE
    patched = image[at:at + len(pad(program, PAGE))]
    if clear_save:
        image, slot = cart(Row(1, "Whist Duel", program=patched, data=data))
    return image, patched, slot.field(17), save_page


@dataclass(frozen=True)
class Header:
    page: int
    raw: bytes

    def field(self, at: int) -> int:
        return self.raw[at] << 8 | self.raw[at + 1]

    @property
    def list(self) -> int:
        return self.raw[7]

    @property
    def previous(self) -> int:
        return self.field(8)

    @property
    def next(self) -> int:
        return self.field(10)

    @property
    def size(self) -> int:
        return self.field(12)

    @property
    def title(self) -> str:
        return self.raw[57:256].split(b"\0")[0].decode()

    @property
    def strings(self) -> list[str]:
        return [s.decode() for s in self.raw[57:256].split(b"\0")[:-1]]


def chain(read: Callable[[int, int], bytes]) -> list[Header]:
    """The slots the toolset finds: from page 0, each slot's size on, while a page starts with ARDUBOY."""
    out, page = [], 0
    while page < 0x10000:
        raw = read(page * PAGE, PAGE)
        if raw[:7] != MAGIC:
            break
        out.append(Header(page, raw))
        assert out[-1].next == page + out[-1].size, f"slot at page {page:#x}: next and size disagree"
        page += out[-1].size
    return out


class Menu:
    """The bootloader's menu over a chip (`read(address, n)`): the slot shown, the list it is in, and the
    buttons. LEFT and RIGHT change the list, UP and DOWN move in it (the bootloader's list 0, its own
    screen, takes neither), A starts a game (loads its program) and on a title screen acts as DOWN."""

    def __init__(self, read: Callable[[int, int], bytes]):
        self.read = read
        self.list = 0
        self.shown = self._load(0)
        assert self.shown is not None, "no cart: the bootloader shows its USB screen"

    def _load(self, page: int) -> Header | None:
        """LoadApplicationInfo: the header at `page` if it starts with ARDUBOY."""
        raw = self.read((page & 0xFFFF) * PAGE, PAGE)
        return Header(page & 0xFFFF, raw) if raw[:7] == MAGIC else None

    @property
    def title(self) -> str:
        return self.shown.title

    @property
    def image(self) -> bytes:
        return self.read(self.shown.page * PAGE + PAGE, 1024)

    def press(self, button: str) -> bytes | None:
        """One press; the program loaded into the MCU for A on a game, else None."""
        if button in ("LEFT", "RIGHT"):
            self._select_list(1 if button == "RIGHT" else -1)
        elif self.list == 0:
            pass
        elif button == "DOWN" or (button == "A" and self.shown.raw[14] == 0):
            self._down()
        elif button == "UP":
            self._up()
        elif button == "A":
            return self.read(self.shown.field(15) * PAGE, self.shown.raw[14] * 128)
        return None

    def _select_list(self, step: int) -> None:
        """SelectList: the first slot of the new list from page 0, else the nearest list in that direction."""
        wanted = (self.list + step) & 0xFF
        nearest_page, nearest = 0, 0
        page = 0
        while (slot := self._load(page)) is not None:
            if slot.list == wanted:
                self.list, self.shown = wanted, slot
                return
            if step > 0 and slot.list > wanted and (slot.list < nearest or nearest == 0):
                nearest_page, nearest = page, slot.list
            if step < 0 and slot.list < wanted and slot.list > nearest:
                nearest_page, nearest = page, slot.list
            page = slot.next
        self.list, self.shown = nearest, self._load(nearest_page)

    def _down(self) -> None:
        """SelectGame_down: the next slot of this list; at the chain's end, the list's first."""
        page = self.shown.next
        while (slot := self._load(page)) is not None:
            if slot.list == self.list:
                self.shown = slot
                return
            page = slot.next
        page = 0
        while (slot := self._load(page)) is not None:
            if slot.list == self.list:
                self.shown = slot
                return
            page = slot.next

    def _up(self) -> None:
        """SelectGame_up: the previous slot of this list; before the first, the list's last."""
        page = self.shown.previous  # 0xFFFF before the first: the chip's last page, not a slot
        while (slot := self._load(page)) is not None:
            if slot.list == self.list:
                self.shown = slot
                return
            page = slot.previous
        last, page = self.shown, self.shown.page
        while (slot := self._load(page)) is not None:
            if slot.list == self.list:
                last = slot
            page = slot.next
        self.shown = last

    def find(self, title: str, presses: int = 300) -> list[str]:
        """The buttons pressed (RIGHT through the lists, DOWN through each) until `title` is shown."""
        pressed: list[str] = []
        for _ in range(presses):
            if self.title == title:
                return pressed
            button = "DOWN" if self.list and self._in_list_after() else "RIGHT"
            self.press(button)
            pressed.append(button)
        raise AssertionError(f"{title!r} is in none of the menu's lists")

    def _in_list_after(self) -> bool:
        """Whether DOWN from here reaches another slot of this list before wrapping to its first."""
        page = self.shown.next
        while (slot := self._load(page)) is not None:
            if slot.list == self.list:
                return True
            page = slot.next
        return False
