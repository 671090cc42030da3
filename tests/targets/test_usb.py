"""The game's own USB device (firmware/usb.cpp) as hosts see it, in the avr8js model (emulator/src/usb.js).

The model is strict where the firmware relies on the chip or the specifications: a new
address only after SET_ADDRESS's status stage and within 2 ms of it, data toggles on the
bulk endpoints (a packet out of step is lost, as on the bus), replies no longer than
wLength, the datasheet's register rules (violations are listed), and a watchdog that
resets the chip and records what a bootloader would find. What only a real device can
confirm is in docs/firmware.md ("USB").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import needs_firmware
from test_serial import fast_pace
from generator.ai.players import seats
from generator.codegen.protocol import play_command
from generator.engine.game import play_game
from generator.engine.rules import Variant
from generator.targets.buttons import SCREEN
from generator.targets.emulator import CYCLES_PER_MS, Emulator

pytestmark = needs_firmware

MAX_GAP = 40 * CYCLES_PER_MS  # a frame is due every 16 ms: more than 40 ms without one is a freeze
WDTCSR, KEY, TOP = 0x60, 0x0800, 0x0AFE  # the watchdog; Caterina's key; RAMEND-1, where LUFA-style bootloaders look


def utf16(text: str) -> bytes:
    return bytes([2 + 2 * len(text), 3]) + text.encode("utf-16-le")


# What the Arduino core sent, byte for byte (the emulator read them from the last build with it).
DEVICE = bytes.fromhex("12010002ef02014041233680000101020301")
CONFIG = bytes.fromhex(
    "09024b00020100a0fa"  # configuration: 75 B, 2 interfaces, value 1, bus powered, remote wake-up, 500 mA
    "080b000202020000"  # IAD: interfaces 0-1, CDC ACM
    "090400000102020000" "0524001001" "0524010101" "04240206" "0524060001"  # interface 0, CDC functionals
    "07058103100040"  # endpoint 0x81: interrupt, 16 B, 64 ms
    "09040100020a000000" "07050202400000" "07058302400000")  # interface 1: bulk 0x02 and 0x83, 64 B
STRINGS = {0: bytes.fromhex("04030904"), 1: utf16("Arduino LLC"), 2: utf16("Whist"), 3: b"\x02\x03"}
LINE_115200 = bytes.fromhex("00c20100000008")  # 115200 baud, 1 stop bit, no parity, 8 bits
LINE_1200 = bytes.fromhex("b0040000000008")


def setup(kind: int, request: int, value: int = 0, index: int = 0, length: int = 0) -> bytes:
    return bytes([kind, request, value & 0xFF, value >> 8, index & 0xFF, index >> 8, length & 0xFF, length >> 8])


def get_descriptor(kind: int, index: int = 0, length: int = 255, language: int = 0) -> bytes:
    return setup(0x80, 6, kind << 8 | index, language, length)


SET_LINE_CODING = setup(0x21, 0x20, length=7)
GET_LINE_CODING = setup(0xA1, 0x21, length=7)


def line_state(dtr: bool, rts: bool = False) -> bytes:
    return setup(0x21, 0x22, int(dtr) | int(rts) << 1)


def halt(endpoint: int, on: bool) -> bytes:
    return setup(0x02, 3 if on else 1, 0, endpoint)


def get_status(recipient: int = 0, index: int = 0) -> bytes:
    return setup(0x80 | recipient, 0, 0, index, 2)


def control(emu: Emulator, packet: bytes, data: bytes | None = None) -> tuple[str, bytes]:
    t = emu.usb_control(packet, data)
    return t["status"], bytes(t["data"])


def clean(emu: Emulator) -> None:
    """Nothing the model calls a breach of the datasheet's rules, and no packet lost to a data toggle."""
    usb = emu.status()["usb"]
    assert usb["violations"] == [] and usb["lost"] == 0, usb["violations"]


def ask(emu: Emulator, line: str, until: str, frames: int = 60) -> str:
    """Send a line and run frame by frame (failing on a freeze) until `until` is in the output."""
    emu.serial_read()
    emu.serial_write(line)
    out = ""
    for _ in range(frames):
        assert emu.run_frames(1, max_cycles=MAX_GAP) == 1, "no frame for 40 ms: the game froze"
        out += emu.serial_read().decode()
        if until in out:
            break
    return out


def frames_go_on(emu: Emulator, frames: int) -> None:
    for n in range(frames):
        assert emu.run_frames(1, max_cycles=MAX_GAP) == 1, f"no frame for 40 ms after {n} frames: the game froze"


def with_lufa_signature(hex_path: Path, out: Path) -> Path:
    """The hex with 0xDCFB in flash's last word, where Cathy3K (the FX's bootloader) keeps its LUFA signature."""
    record = bytes([2, 0x7F, 0xFE, 0, 0xFB, 0xDC])
    line = ":" + (record + bytes([-sum(record) & 0xFF])).hex().upper() + "\n"
    text = hex_path.read_text()
    out.write_text(text.replace(":00000001FF", line + ":00000001FF"))
    return out


@pytest.fixture(params=["classic", "fx"])
def edition(request, firmware_hex, fx_hex, fx_image):
    return (firmware_hex, None) if request.param == "classic" else (fx_hex, fx_image)


def test_hosts_enumerate_it_as_the_core_was_byte_for_byte(edition):
    """A Linux-like enumeration: every descriptor as the core sent it, the device qualifier stalled (a
    full-speed device has none), the line coding set and read back; no rule of the datasheet broken."""
    hex_path, fx = edition
    with Emulator(hex_path, usb="full", fx=fx) as emu:
        assert emu.run_until_ready()
        got = [(t["name"], t["status"], bytes(t["data"])) for t in emu.status()["usb"]["transfers"]]
        clean(emu)
    assert got == [
        ("GET_DESCRIPTOR(device)", "ok", DEVICE),
        ("SET_ADDRESS", "ok", b""),
        ("GET_DESCRIPTOR(device)", "ok", DEVICE),
        ("GET_DESCRIPTOR(configuration)", "ok", CONFIG[:9]),
        ("GET_DESCRIPTOR(configuration)", "ok", CONFIG),
        ("GET_DESCRIPTOR(device qualifier)", "stall", b""),
        *((f"GET_DESCRIPTOR(string {i})", "ok", STRINGS[i]) for i in range(4)),
        ("SET_CONFIGURATION", "ok", b""),
        ("GET_CONFIGURATION", "ok", b"\x01"),
        ("SET_LINE_CODING", "ok", b""),
        ("SET_CONTROL_LINE_STATE", "ok", b""),
        ("GET_LINE_CODING", "ok", LINE_115200),
    ]


# Requests of Windows (usbser.sys: the MS OS string 0xEE, GET_STATUS, GET_LINE_CODING before
# any SET), macOS (other-speed and BOS descriptors, SET/GET_INTERFACE) and Linux, and the ones
# no host should send, which must STALL and leave the next request unharmed.
REQUESTS = [
    (get_descriptor(1, length=64), "ok", DEVICE),  # the first request of Windows and Linux
    (get_descriptor(1, length=8), "ok", DEVICE[:8]),
    (get_descriptor(1, length=0), "ok", b""),
    (get_descriptor(2, length=64), "ok", CONFIG[:64]),  # one full packet: exactly wLength, no more
    (get_descriptor(3, 0xEE, 18), "stall", b""),  # Windows' MS OS string descriptor
    (get_descriptor(7, length=9), "stall", b""),  # other-speed configuration
    (get_descriptor(15, length=5), "stall", b""),  # BOS (asked of bcdUSB >= 2.01 only)
    (get_descriptor(3, 4, language=0x0409), "stall", b""),
    (get_descriptor(2, 1), "stall", b""),  # configuration 1 of 1 (index 0 only)
    (get_status(), "ok", b"\x00\x00"),  # bus powered, remote wake-up off
    (setup(0x00, 3, 1), "ok", b""),  # SET_FEATURE(DEVICE_REMOTE_WAKEUP)
    (get_status(), "ok", b"\x02\x00"),
    (setup(0x00, 1, 1), "ok", b""),  # CLEAR_FEATURE(DEVICE_REMOTE_WAKEUP)
    (get_status(), "ok", b"\x00\x00"),
    (get_status(1, 0), "ok", b"\x00\x00"),  # interface
    (get_status(2, 0x81), "ok", b"\x00\x00"),  # endpoint: not halted
    (GET_LINE_CODING, "ok", bytes.fromhex("00e10000000008")),  # 57600 8N1 until a host sets it
    (setup(0x81, 10, 0, 0, 1), "ok", b"\x00"),  # GET_INTERFACE: alternate setting 0
    (setup(0x01, 11, 0, 1), "ok", b""),  # SET_INTERFACE(1, 0)
    (setup(0x01, 11, 1, 1), "stall", b""),  # no alternate setting 1
    (setup(0x00, 9, 2), "stall", b""),  # no configuration 2
    (setup(0x00, 7, 0x0100, 0, 18), "stall", b""),  # SET_DESCRIPTOR
    (setup(0x82, 12, 0, 0x83, 2), "stall", b""),  # SYNCH_FRAME: no isochronous endpoint
    (setup(0x21, 0x22, 3, 1), "stall", b""),  # a CDC request to the data interface
    (setup(0xC0, 1, 0, 0, 4), "stall", b""),  # a vendor request
    (setup(0x21, 0x23, 0xFFFF), "ok", b""),  # SEND_BREAK (the ACM descriptor says it is supported)
    (setup(0x80, 8, 0, 0, 1), "ok", b"\x01"),  # GET_CONFIGURATION
]


def test_it_answers_what_each_host_asks_and_stalls_the_rest(firmware_hex):
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        got = [(packet, *control(emu, packet)) for packet, *_ in REQUESTS]
        assert got == REQUESTS
        assert ask(emu, "stack\n", "dropped=").endswith("dropped=0\n")  # the port works after it all
        clean(emu)


def test_a_halted_endpoint_keeps_its_data_until_the_host_clears_it(firmware_hex):
    """SET_FEATURE(ENDPOINT_HALT): the host gets STALL there (the model holds its data); CLEAR_FEATURE
    restarts both sides' data toggles at DATA0, so nothing is lost either way."""
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        assert control(emu, halt(0x83, True)) == ("ok", b"")
        assert control(emu, get_status(2, 0x83)) == ("ok", b"\x01\x00")
        assert ask(emu, "stack\n", "dropped=", frames=20) == ""  # answered into the halted endpoint
        assert control(emu, halt(0x83, False)) == ("ok", b"")
        assert control(emu, get_status(2, 0x83)) == ("ok", b"\x00\x00")
        emu.run_frames(2)
        assert re.fullmatch(r"# stack free=\d+\n# serial dropped=0\n", emu.serial_read().decode())
        assert control(emu, halt(0x02, True)) == ("ok", b"")
        assert ask(emu, "stack\n", "dropped=", frames=20) == ""  # the host holds the line back
        assert control(emu, halt(0x02, False)) == ("ok", b"")
        assert ask(emu, "", "dropped=0\n")
        clean(emu)


def test_set_configuration_again_restarts_the_data_toggles(firmware_hex):
    """A second SET_CONFIGURATION (a driver bound again) resets the host's toggles: the device's endpoints
    start again at DATA0 too. SET_CONFIGURATION(0) leaves it unconfigured until the next."""
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        for _ in range(2):
            assert ask(emu, "stack\n", "dropped=0\n")
            assert control(emu, setup(0x00, 9, 1)) == ("ok", b"")
        assert control(emu, setup(0x00, 9, 0)) == ("ok", b"")
        assert control(emu, setup(0x80, 8, 0, 0, 1)) == ("ok", b"\x00")
        assert ask(emu, "stack\n", "dropped=", frames=20) == ""  # no endpoint to carry it
        assert control(emu, setup(0x00, 9, 1)) == ("ok", b"")
        assert ask(emu, "", "dropped=0\n")
        clean(emu)


def test_a_zero_length_packet_does_not_jam_the_input(firmware_hex):
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        emu.usb_host("zlp")
        assert ask(emu, "stack\n", "dropped=0\n")
        clean(emu)


def test_dtr_or_rts_opens_the_port_as_the_cores_did(firmware_hex):
    """Output goes while DTR or RTS is set (the core's lineState > 0) and is dropped, without waiting,
    while neither is; input is read either way."""
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        assert control(emu, line_state(False)) == ("ok", b"")
        assert ask(emu, "stack\n", "dropped=", frames=20) == ""
        assert control(emu, line_state(False, rts=True)) == ("ok", b"")
        assert ask(emu, "stack\n", "dropped=0\n")
        clean(emu)


def touch(emu: Emulator) -> int:
    """The uploader's 1200-baud touch (pyserial's open at 1200 and close); returns the cycle it ended."""
    assert control(emu, SET_LINE_CODING, LINE_1200) == ("ok", b"")
    assert control(emu, line_state(False))[0] == "ok"
    return emu.cycles


def test_the_1200_baud_touch_resets_into_caterina_with_its_key(firmware_hex):
    """At 1200 baud, DTR dropped: Caterina's key 0x7777 at RAM 0x0800 and a watchdog reset about 120 ms
    later (the key still there then, though the screen and the search's table lie over 0x0800)."""
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        emu.watch([WDTCSR])
        at = touch(emu)
        assert [v for _, v, _ in emu.writes()] == [0x18, 0x0B]  # WDCE|WDE, then WDE with the 120 ms prescaler
        emu.run_ms(200)
        reset = emu.status()["reset"]
    assert reset is not None and reset["key0800"] == 0x7777
    assert 110 * CYCLES_PER_MS < reset["cycle"] - at < 140 * CYCLES_PER_MS


def test_the_touch_keeps_the_key_during_a_search(firmware_hex):
    """The classic edition's search table lies over 0x0800: a touch while Hard searches still leaves the
    key there at the reset (the game waits for it instead of going on). Small Whist: its stage 2 comes
    sooner, and its search writes there too."""
    game = play_command(11, Variant.make(28, "last13", 0), "hard", "hard", fast=True)
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        emu.serial_write(game + "\n")
        assert emu.run_until_serial("trick 8 ")  # stage 2, where the search fills its table
        emu.markers()
        assert emu.run_until_marker(0xA0)  # thinking
        emu.watch([KEY, KEY + 1])
        emu.run_ms(2)
        assert emu.writes(), "the search wrote nothing over the key's place"
        touch(emu)
        emu.run_ms(200)
        reset = emu.status()["reset"]
    assert reset is not None and reset["key0800"] == 0x7777


def test_under_cathy3k_the_key_goes_to_the_top_of_ram(firmware_hex, tmp_path):
    """With the LUFA signature in flash's last word (Cathy3K, the FX's bootloader, which starts on any
    reset but power-on: the classic edition on an FX), the key goes to RAMEND-1, as the core put it;
    0x0800 is not written (on the title, nothing else writes it in the classic edition)."""
    signed = with_lufa_signature(firmware_hex, tmp_path / "signed.hex")
    with Emulator(signed) as emu:
        assert emu.run_until_ready()
        emu.watch([KEY, KEY + 1])
        touch(emu)
        emu.run_ms(200)
        reset = emu.status()["reset"]
        assert emu.writes() == []
    assert reset is not None and reset["keyTop"] == 0x7777 and reset["signature"] == 0xDCFB


def test_a_touch_cancelled_before_the_reset_gives_everything_back(firmware_hex):
    """Hosts toggle DTR while setting a port up: a line state that does not touch, before the reset,
    stops the watchdog and puts back the RAM word the key replaced; the game goes on."""
    def words(writes: list[tuple[int, int, int]]) -> dict[int, int]:
        out: dict[int, int] = {}
        for address, value, _ in writes:
            if address != WDTCSR:
                out[address & ~1] = out.get(address & ~1, 0) & ~(0xFF << 8 * (address & 1)) | value << 8 * (address & 1)
        return out

    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        emu.watch([WDTCSR, KEY, KEY + 1, TOP, TOP + 1])
        touch(emu)
        touched = emu.writes()
        saved = words(touched)[TOP]  # the word the key replaces, kept at RAMEND-1
        assert words(touched) == {TOP: saved, KEY: 0x7777}
        assert [v for a, v, _ in touched if a == WDTCSR] == [0x18, 0x0B]
        assert control(emu, line_state(True, rts=True)) == ("ok", b"")
        cancelled = emu.writes()
        assert words(cancelled) == {KEY: saved}
        assert [v for a, v, _ in cancelled if a == WDTCSR][-1] == 0  # the watchdog off
        emu.run_ms(300)
        assert emu.status()["reset"] is None
        assert ask(emu, "stack\n", "dropped=0\n")


@pytest.mark.parametrize("coding,dtr,rts", [(LINE_115200, False, False), (LINE_1200, True, False)])
def test_no_touch_but_at_1200_baud_with_dtr_dropped(firmware_hex, coding, dtr, rts):
    with Emulator(firmware_hex) as emu:
        assert emu.run_until_ready()
        emu.watch([WDTCSR, KEY])
        assert control(emu, SET_LINE_CODING, coding) == ("ok", b"")
        assert control(emu, line_state(dtr, rts)) == ("ok", b"")
        emu.run_ms(200)
        assert emu.writes() == [] and emu.status()["reset"] is None


def engine_trace(command: str, variant: Variant) -> list[str]:
    fields = dict(kv.split("=") for kv in command.split()[1:])
    seed = int(fields["seed"])
    return play_game(seed, variant, seats(seed, (fields["p0"], fields["p1"]))).lines


def test_without_a_host_nothing_waits(firmware_hex):
    """On battery: the controller never sees a bus; the title, then its demo (whose trace goes nowhere),
    frame after frame."""
    with Emulator(firmware_hex, usb="none") as emu:
        frames_go_on(emu, 700)  # the demo starts after 600 frames on the title
        assert SCREEN["auto"] in [v for v, _ in emu.markers()]
        frames_go_on(emu, 100)


@pytest.mark.parametrize("away,back", [("unplug", "plug"), ("suspend", "resume")])
def test_a_host_that_goes_away_mid_game_costs_the_game_nothing(firmware_hex, away, back):
    """The cable pulled (or the bus suspended) during a serial game on the table (at the Fast speed:
    the pace is not the point): the device cannot tell, its banks fill; the game goes on, frame after
    frame, its output dropped and counted; with the host back (enumerating again after a plug) the port
    works, and a new game's trace (a fast one) is the engine's."""
    variant = Variant.make(28, "last13", 0)
    game = play_command(5, variant, "greedy", "original", fast=False)
    with Emulator(firmware_hex, eeprom=fast_pace(firmware_hex)) as emu:
        assert emu.run_until_ready()
        emu.serial_write(game + "\n")
        assert emu.run_until_serial("trick 1 ")
        emu.usb_host(away)
        frames_go_on(emu, 400)
        emu.usb_host(back)
        out = ask(emu, "stack\n", "dropped=")
        assert int(re.search(r"dropped=(\d+)", out).group(1)) > 0
        quick = game.replace("fast=0", "fast=1")
        emu.serial_read()
        emu.serial_write(quick + "\n")
        assert emu.run_until_serial("end winner=")
        out = emu.serial_read().decode()
        assert [line for line in out.splitlines() if not line.startswith("#")] == engine_trace(quick, variant)
        clean(emu)
