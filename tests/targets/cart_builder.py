"""A model of the community's cart builders for the tests: flashcart-builder.py (MrBlinky's
Arduboy-Python-Utilities) and the Arduboy toolset's arduboy/fxcart.py lay a cart out so.

A chain of slots from page 0 (256-byte pages), each a 256-byte header (bytes 0-6 "ARDUBOY", 7 the
list, 8-9 the previous slot's page, 10-11 the next's, 12-13 the slot's size in pages, 14 the
program's size in 128-byte units, 15-16 its page, 17-18 the data's page, 19-20 the save block's,
21-22 the data's size in pages, 25-56 the SHA-256 of program and data, then the title, 0-ended;
every page number big-endian, 0xFFFF where there is none), a 1 KB title image, the program with
vectors 5 and 6 patched (generator/targets/cart.py), the data padded to whole pages, 0xFF to a 4 KB
boundary and the save block in whole 4 KB sectors; a blank header page ends the chain.
"""

from __future__ import annotations

import hashlib

from generator.targets import cart

PAGE, SECTOR, CHIP = 256, 4096, 1 << 24


def padded(data: bytes, unit: int) -> bytes:
    return data + b"\xff" * (-len(data) % unit)


def be(value: int) -> bytes:
    return value.to_bytes(2, "big")


def slot(at: int, previous: int, category: int, title: str, program: bytes = b"", data: bytes = b"",
         save: bytes = b"") -> tuple[bytearray, bytearray, int, int]:
    """One cart slot at page ``at`` as the builders write it: (its bytes, the program as patched,
    its data page, its save page)."""
    program, data = bytearray(padded(program, PAGE)), padded(data, PAGE)
    save = padded(save, SECTOR) if save else b""
    program_page = at + 5
    data_page = program_page + len(program) // PAGE
    align_page = data_page + len(data) // PAGE
    align = -align_page % 16 * PAGE if save else 0
    save_page = align_page + align // PAGE
    size = 5 + (len(program) + len(data) + align + len(save)) // PAGE
    header = bytearray(b"ARDUBOY" + b"\xff" * 249)
    header[7] = category
    header[8:14] = be(previous) + be(at + size) + be(size)
    header[14] = len(program) // 128
    if program:
        header[15:17] = be(program_page)
        if data:
            header[17:19], header[21:23] = be(data_page), be(len(data) // PAGE)
        if save:
            header[19:21] = be(save_page)
        cart.patch_pages(program, data_page if data else None, save_page if save else None)
        header[25:57] = hashlib.sha256(program + data).digest()
    header[57:57 + len(title) + 1] = title.encode() + b"\0"
    body = bytearray(header + b"\0" * 1024 + program + data + b"\xff" * align + save)
    return body, program, data_page, save_page


def build_cart(game: bytes, data: bytes, save: bytes, clear_save: bool = False) -> tuple[bytes, bytes, int, int]:
    """A cart: the bootloader's screen, a category, this game, another game with data and a save of
    its own, then the blank header that ends the chain. Returns (the cart's bytes, the game's program
    as the cart patched it, its data page, its save block's first page). With ``clear_save`` the game's
    block was cleared in the toolset's editor: the slot rebuilt without it from the program read back
    from the cart (its vector 6 still naming the old block's page, now inside the next slot)."""
    out, pages = bytearray(), []

    def add(*args, **kwargs) -> tuple[bytearray, int, int]:
        at = len(out) // PAGE
        body, program, data_page, save_page = slot(at, pages[-1] if pages else 0xFFFF, *args, **kwargs)
        out.extend(body)
        pages.append(at)
        return program, data_page, save_page

    add(0, "Loader")
    add(1, "Tabletop")
    at = len(out) // PAGE
    program, data_page, save_page = add(1, "Whist Duel", game, data, save)
    if clear_save:
        del out[at * PAGE:]
        pages.pop()
        program, data_page, _ = add(1, "Whist Duel", bytes(program), data)
    add(1, "Other game", bytes(range(256)) * 12, bytes(range(255, -1, -1)) * 3, b"\xa5" * SECTOR)
    out.extend(b"\xff" * PAGE)
    return bytes(out), bytes(program), data_page, save_page
