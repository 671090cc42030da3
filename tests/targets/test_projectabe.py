"""The hex runs in ProjectABE, the web emulator players use: it needs none of
what ProjectABE leaves out (../shared/reference/arduboy-platform.md)."""

import re
import subprocess

from conftest import needs_firmware

pytestmark = needs_firmware

# ATmega32u4 vectors ProjectABE does not raise: INT0-3, INT6, PCINT0, WDT,
# Timer0 compare A/B, USART1 (RX, UDRE, TX), Timer4 (COMPA, COMPB, COMPD, OVF, FPF).
UNEMULATED_VECTORS = {1, 2, 3, 4, 7, 9, 12, 21, 22, 25, 26, 27, 38, 39, 40, 41, 42}
# Instructions whose whole basic block ProjectABE drops.
DROPPED = {"sez", "sen", "sev", "ses", "seh", "break", "fmulsu"}


def test_only_emulated_interrupts_have_handlers(firmware_dist):
    elf = firmware_dist.parent / "build" / "avr" / "Whist.elf"
    nm = subprocess.run(["avr-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    handlers = {int(m.group(1)) for m in re.finditer(r" [Tt] __vector_(\d+)$", nm, re.M)}
    assert handlers, "no interrupt handlers found: the USB and Timer0 ones should be there"
    assert not handlers & UNEMULATED_VECTORS


def test_no_instruction_that_projectabe_drops(firmware_dist):
    elf = firmware_dist.parent / "build" / "avr" / "Whist.elf"
    dis = subprocess.run(["avr-objdump", "-d", str(elf)], capture_output=True, text=True, check=True).stdout
    used = {m.group(1) for m in re.finditer(r"^\s+[0-9a-f]+:\s+(?:[0-9a-f]{2} )+\s*([a-z]+)", dis, re.M)}
    assert "ldi" in used and "rjmp" in used  # the disassembly was read
    assert not used & DROPPED


def test_hex_digits_are_uppercase(firmware_dist):
    text = (firmware_dist / "Whist.hex").read_text()
    assert re.fullmatch(r"(:[0-9A-F]+\r?\n)+", text)
