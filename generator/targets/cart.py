"""What a cart builder does to a program, so the build can keep it possible.

The community's cart builders (flashcart-builder.py, the Arduboy toolset)
patch two things into each program they put on an FX cart:

- **the menu button**: they replace the Arduino core's Timer0 overflow ISR
  (vector 23) with one of their own, 148 bytes, that also returns to the
  cart's menu when UP and DOWN are held. They find the ISR by vector 23's
  jump, then walk it: the 1st, 5th and 6th ``lds`` give the addresses of
  ``timer0_millis``, ``timer0_fract`` and ``timer0_overflow_count``, which
  their ISR keeps counting. A program whose ISR is shorter than 148 bytes,
  calls a subroutine, or lacks those loads keeps no menu button;
- **the data and save pages**: a ``reti`` word (0x9518), then the page
  number, big-endian, in vectors 5 (byte 0x14, the data) and 6 (0x18, the
  save), which firmware/fx.cpp reads before it looks at the chip's end.

:func:`timer0_isr` checks the first as the builders do, :func:`patch_pages`
does the second, and :func:`for_cart` both, as `whist upload` puts the game
on a cart (fxcart.py). The menu button is the project's own ISR
(menu_button.S, 146 bytes), which does what the builders' does.
"""

from __future__ import annotations

from dataclasses import dataclass

TIMER0_OVF_VECTOR = 23  # the ATmega32u4's; 4 bytes a vector (a jmp)
PATCH_BYTES = 148  # the builders' menu-button ISR
RETI, RET = 0x9518, 0x9508
DATA_VECTOR, SAVE_VECTOR = 0x14, 0x18
# menu_button.S assembled with MILLIS, FRACT and OVERFLOW 0 (test_cart.py assembles it to check).
MENU_BUTTON = bytes.fromhex(
    "8f938fb78f939f93ef93ff9391e0809100008d5f8d3710f08d5792e080930000e0e0f0e028d0e0e0f0e091e024d0"
    "909101008fb1807f669b80e01c9b80e0803689f48091ff0a981b963070f087e7809300088093010888e180936000"
    "88e080936000ffcf9093ff0aff91ef919f918f918fbf8f9118958081890f819390e08081891f81938081891f8193"
    "8081891f81930895")
# Where MENU_BUTTON takes the addresses: lds/sts words of FRACT and of MILLIS + 1; ldi r30, r31 pairs
# of MILLIS and OVERFLOW.
FRACT_WORDS, MILLIS_HIGH_WORD = (16, 30), 48
MILLIS_LDI, OVERFLOW_LDI = 32, 38


class CartError(ValueError):
    """Why a cart builder could not patch the program; the message is one line."""


@dataclass(frozen=True)
class Isr:
    """The Timer0 overflow ISR: where it starts, its length, and the core's variables it counts."""

    address: int
    length: int
    millis: int
    fract: int
    overflow_count: int


def _word(flash: bytes, at: int) -> int:
    return flash[at] | flash[at + 1] << 8


def _lds(word: int) -> bool:
    return word & 0xFE0F == 0x9000


def _long(word: int) -> bool:
    """A 32-bit instruction: lds, sts, jmp, call."""
    return word & 0xFC0F == 0x9000 or word & 0xFE0C == 0x940C


def timer0_isr(flash: bytes) -> Isr:
    """The program's Timer0 overflow ISR as a cart builder reads it; CartError if it could not patch it."""
    vector = TIMER0_OVF_VECTOR * 4
    if len(flash) < vector + 4 or _word(flash, vector) & 0xFE0E != 0x940C:
        raise CartError("vector 23 (Timer0 overflow) is not a jmp")
    start = _word(flash, vector + 2) * 2
    loads, at = [], start
    while at + 2 <= len(flash):
        word = _word(flash, at)
        if word == RET:
            raise CartError(f"the Timer0 ISR at 0x{start:04X} returns from a subroutine (ret at 0x{at:04X})")
        if word == RETI:
            break
        if _lds(word):
            loads.append(_word(flash, at + 2))
        at += 4 if _long(word) else 2
    else:
        raise CartError(f"the Timer0 ISR at 0x{start:04X} has no reti")
    length = at + 2 - start
    if length < PATCH_BYTES:
        raise CartError(f"the Timer0 ISR is {length} B, shorter than the {PATCH_BYTES} B menu-button ISR")
    if len(loads) < 6:
        raise CartError(f"the Timer0 ISR loads {len(loads)} variables, not the core's millis, fract and overflow count")
    return Isr(start, length, loads[0], loads[4], loads[5])


def patch_pages(flash: bytearray, data_page: int, save_page: int | None) -> None:
    """Vectors 5 and 6 as a cart builder writes them: reti, then the page, big-endian."""
    for vector, page in ((DATA_VECTOR, data_page), (SAVE_VECTOR, save_page)):
        if page is not None:
            flash[vector:vector + 4] = bytes([RETI & 0xFF, RETI >> 8, page >> 8, page & 0xFF])


def _ldi_pair(address: int) -> bytes:
    """``ldi r30, lo8(address)`` then ``ldi r31, hi8(address)``, as AVR words (little-endian)."""
    lo, hi = address & 0xFF, address >> 8
    return bytes([0xE0 | lo & 0x0F, 0xE0 | lo >> 4, 0xF0 | hi & 0x0F, 0xE0 | hi >> 4])


def menu_button(isr: Isr) -> bytes:
    """The menu-button ISR for a program whose core variables are at `isr`'s addresses."""
    code = bytearray(MENU_BUTTON)
    for at in FRACT_WORDS:
        code[at:at + 2] = isr.fract.to_bytes(2, "little")
    code[MILLIS_HIGH_WORD:MILLIS_HIGH_WORD + 2] = (isr.millis + 1).to_bytes(2, "little")
    code[MILLIS_LDI:MILLIS_LDI + 4] = _ldi_pair(isr.millis)
    code[OVERFLOW_LDI:OVERFLOW_LDI + 4] = _ldi_pair(isr.overflow_count)
    return bytes(code)


def for_cart(flash: bytes, data_page: int, save_page: int | None) -> tuple[bytes, str | None]:
    """The program as a cart builder puts it in a slot: vectors 5 and 6 set, and the menu button in place of
    the Timer0 ISR; with the reason in words when the ISR could not take it (the program then keeps its own,
    as the builders leave it)."""
    patched = bytearray(flash)
    patch_pages(patched, data_page, save_page)
    try:
        isr = timer0_isr(flash)
    except CartError as e:
        return bytes(patched), str(e)
    patched[isr.address:isr.address + len(MENU_BUTTON)] = menu_button(isr)
    return bytes(patched), None
