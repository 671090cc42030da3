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


# --- The cross-tests in ProjectABE's own code (generator/targets/projectabe.py, emulator/projectabe/) ---

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from generator.ai.players import DEVICE_PLAYERS  # noqa: E402
from generator.cli.main import main as cli  # noqa: E402
from generator.engine.cards import DECKS  # noqa: E402
from generator.engine.rules import SCORINGS  # noqa: E402
from generator.targets import crosstest, projectabe as pabe  # noqa: E402
from generator.targets import emulator  # noqa: E402
from generator.targets.emulator import Backend, Emulator, EmulatorError, backend  # noqa: E402
from conftest import emulator_args  # noqa: E402
from test_emulator import build  # noqa: E402,F401 (the fixture sketches' builder)
from generator.targets.buttons import booted  # noqa: E402
from test_ui import SYSTEM, fuzz  # noqa: E402
from test_crosstest import case  # noqa: E402

CI_GAMES = 25  # every deck, scoring, target and seating; `make crosstest EMULATOR=projectabe` runs 1,000


def test_a_few_games_match_the_engine_in_projectabe(firmware_hex, projectabe):
    """Every device player seated, Master (hard) on both sides, a game to a target and both packs: the
    rest of the cheap cover is in avr8js (test_crosstest.py); the 25 games below in `make longtest`."""
    games = [case(21, 28, "highlow", 0, "hard", "original"), case(22, 28, "last13", 0, "greedy", "hard"),
             case(23, 52, "every", 0, "easy", "random"), case(24, 28, "diff", 10, "random", "greedy")]
    assert {p for c in games for p in (c.p0, c.p1)} == set(DEVICE_PLAYERS)
    report = crosstest.run(firmware_hex, games, backend=projectabe)
    assert report.games == len(games)
    assert report.differing == 0, report.first_failure


@pytest.mark.slow
def test_ci_subset_matches_the_engine_in_projectabe(firmware_hex, projectabe):
    games = crosstest.spread(CI_GAMES)
    assert {(c.variant.deck.size, c.variant.scoring.name) for c in games} == {(d, s) for d in DECKS for s in SCORINGS}
    assert {c.variant.target for c in games} == set(crosstest.TARGETS)
    assert {(c.p0, c.p1) for c in games} == {(a, b) for a in DEVICE_PLAYERS for b in DEVICE_PLAYERS}
    report = crosstest.run(firmware_hex, games, backend=projectabe)
    assert report.games == CI_GAMES
    assert report.differing == 0, report.first_failure


def test_fuzz_in_projectabe_leaves_an_eeprom_image_both_emulators_read_alike(firmware_hex, projectabe):
    blank = SYSTEM + b"\xff" * 1008
    with booted(firmware_hex, eeprom=blank, backend=projectabe) as dev:  # a saved setting to start from
        dev.menu("settings")
        dev.wait_screen("settings")
        dev.change_settings({"game": 1, "speed": 1})
        start = dev.emu.eeprom
    assert start[:16] == SYSTEM and start != blank
    images: list[bytes] = []
    run = fuzz(firmware_hex, 600, seed=3, backend=projectabe, images=images, start=start)
    assert run.stack_free > 64
    image = images[0]
    assert image[:16] == SYSTEM and image != blank
    screens = []
    for chosen in (projectabe, None):  # the image is kept and shown alike by both emulators
        with booted(firmware_hex, eeprom=image, backend=chosen) as dev:
            dev.menu("settings")
            dev.wait_screen("settings")
            assert dev.emu.eeprom == image
            screens.append(dev.emu.screen())
    assert screens[0] == screens[1]


def run_probe(hex_path: Path, chosen: Backend | None) -> tuple[dict[str, int], dict[int, int], str]:
    """tests/targets/fixtures/probe.cpp: its name=value lines, its markers (value -> cycle), and the pending write's output."""
    with Emulator(hex_path, backend=chosen) as emu:
        assert emu.run_until_serial("done\r\n")
        values = dict(line.split("=") for line in emu.serial_read().decode().split("\r\n") if "=" in line)
        emu.serial_write("x" * 70)  # 32 or more of them wait unread in the firmware's endpoint
        assert emu.run_until_marker(0x58, max_cycles=80_000_000)
        emu.run_ms(20)
        pending = emu.serial_read().decode()
        markers = dict(emu.markers())
    return {k: int(v) for k, v in values.items()}, markers, pending


def test_the_documented_emulator_differences(build, projectabe):  # noqa: F811 (the fixture imported above)
    """Every row of docs/emulator.md's table "Where the two emulators differ", measured in both."""
    hex_path = build("probe")
    avr, avr_m, avr_pending = run_probe(hex_path, None)
    pabe_, pabe_m, pabe_pending = run_probe(hex_path, projectabe)
    per_ms = lambda m: (m[0x52] - m[0x51]) / 100  # noqa: E731
    # Timer0: stopped without a clock source; the boot's overflows; its rate; overflows caught up after cli.
    assert avr["timer0_stopped_counts"] == 0 and pabe_["timer0_stopped_counts"] > 50
    assert 320_000 < avr_m[0x50] < 340_000 and pabe_m[0x50] < 200_000
    assert 15_900 < per_ms(avr_m) < 16_100 and 11_500 < per_ms(pabe_m) < 13_000
    assert avr["millis_after_5ms_cli"] == 1 and pabe_["millis_after_5ms_cli"] >= 3
    # Instruction timing: the lds/sts/sbiw/breq/rjmp loop is 9,003 cycles on the chip.
    assert avr_m[0x56] - avr_m[0x55] == 9003 and pabe_m[0x56] - pabe_m[0x55] < 6000
    # SPI, EEPROM, ADC, pins.
    assert (avr["spif_just_after_spdr_write"], pabe_["spif_just_after_spdr_write"]) == (0, 1)
    assert (avr["spif_after_spdr_read"], pabe_["spif_after_spdr_read"]) == (1, 1)  # the chip: 0
    assert (avr["eepe_after_write"], pabe_["eepe_after_write"]) == (1, 0)
    assert avr["eeprom_readback"] == pabe_["eeprom_readback"] == 0x5A
    assert (avr["adsc_after_start"], pabe_["adsc_after_start"]) == (1, 0)
    assert (avr["pin_of_output_high"], pabe_["pin_of_output_high"]) == (1, 0)
    assert (avr["pin_of_pulled_up_input"], pabe_["pin_of_pulled_up_input"]) == (1, 0)
    # USB: a write with host bytes unread goes out at once in both (ProjectABE's host keeps at most 32 unread:
    # with 64, its core would make the write wait 250 ms and lose it).
    assert avr_m[0x58] - avr_m[0x57] < 5_000 and "pending\n" in avr_pending
    assert pabe_m[0x58] - pabe_m[0x57] < 5_000 and "pending\n" in pabe_pending


def test_a_program_that_stalls_projectabes_core_is_one_error_not_a_hang(tmp_path, projectabe, monkeypatch):
    """A valid hex on which ProjectABE's core spins inside one call and never answers (avr8js runs it); the
    wait for an answer has a limit, and the command ends on one line.

    The program is one instruction, `jmp 2` (0C 94 01 00): a jump to its own second word. ProjectABE's
    Atcore compiles code into blocks (getBlock: one function whose `switch (this.pc)` has a case for each
    instruction start) and maps every word a block covers to it (native[0] and native[1] here), the JMP's
    operand word too. With pc = 1, exec's `while (tick < endTick)` loop finds native[1] and calls the
    block, no case matches, and neither pc nor tick moves: the loop never ends (getBlock, which would
    stop it at an unknown opcode or past the end of flash, is not called again). On the chip and in
    avr8js word 1, 0x0001, is `movw r0, r2`, and the program runs on through the blank flash.

    (A flash of NOPs is no such program: ProjectABE's core answers on it, with 65,535 cycles, after
    compiling a one-NOP block for each word past the flash up to pc 65535; that takes about 1 s on an
    idle machine and 2 s on a busy one, so it met the 2 s limit only on a busy one.)"""
    stuck = tmp_path / "stuck.hex"
    stuck.write_text(":040000000C9401005B\n:00000001FF\n")
    with Emulator(stuck) as emu:
        assert emu.run_frames(1, max_cycles=100_000) == 0
    monkeypatch.setattr(emulator, "ANSWER_SECONDS", 2.0)
    with Emulator(stuck, backend=projectabe) as emu:
        with pytest.raises(EmulatorError, match="projectabe emulator gave no answer to 'run_frames' in 2 s"):
            emu.run_frames(1, max_cycles=100_000)
    r = CliRunner().invoke(cli, ["emulate", str(stuck), "--frames", "0", "--ms", "5", *emulator_args(projectabe)])
    assert r.exit_code == 1 and r.stderr == f"error: {stuck}: the projectabe emulator gave no answer to 'run' in 2 s, " \
        "stuck in the program (ProjectABE's core can spin for ever on code it cannot run); try it with " \
        "--emulator avr8js\n"


def changed_build(tmp_path: Path, source: Path, old: bytes = b"FX connected", new: bytes = b"FX Connected") -> Path:
    """A copy of a ProjectABE folder with one byte of app.js changed (in a log message, so it still runs)."""
    dest = tmp_path / "projectabe"
    shutil.copytree(source, dest)
    app = dest / "app.js"
    data = app.read_bytes()
    assert data.count(old) == 1
    app.write_bytes(data.replace(old, new))
    return dest


def test_a_changed_byte_in_app_js_fails_loudly(firmware_hex, projectabe, tmp_path):
    wrong = changed_build(tmp_path, projectabe.projectabe)
    with pytest.raises(EmulatorError, match=r"not the pinned one: sha256 of .*app\.js is [0-9a-f]{64}, "
                                            r"expected db833503.*whist projectabe fetch, or pass --any-build"):
        Emulator(firmware_hex, backend=backend("projectabe", wrong))
    result = CliRunner().invoke(cli, ["crosstest", "--games", "1", "--hex", str(firmware_hex),
                                      "--emulator", "projectabe", "--projectabe", str(wrong)])
    assert result.exit_code == 1 and "not the pinned one" in result.output
    with Emulator(firmware_hex, backend=backend("projectabe", wrong, any_build=True)) as emu:  # accepted on request
        assert emu.run_until_ready()


def test_a_missing_app_js_fails_loudly(firmware_hex, projectabe, tmp_path):
    folder = tmp_path / "projectabe"
    shutil.copytree(projectabe.projectabe, folder)
    (folder / "app.js").unlink()
    with pytest.raises(EmulatorError, match=r"--projectabe .*: no app\.js there; run: whist projectabe fetch"):
        backend("projectabe", folder)
    with pytest.raises(EmulatorError, match=r"app\.js is missing"):  # the folder checked on load, too
        Emulator(firmware_hex, backend=Backend("projectabe", folder))
    result = CliRunner().invoke(cli, ["emulate", str(firmware_hex), "--emulator", "projectabe",
                                      "--projectabe", str(folder)])
    assert result.exit_code == 1 and result.output.count("\n") == 1 and "no app.js" in result.output


def test_no_build_anywhere_is_one_line_naming_every_place(monkeypatch, tmp_path):
    monkeypatch.delenv(pabe.ENV, raising=False)
    monkeypatch.setattr(pabe, "SHARED", tmp_path / "shared" / "projectabe")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(pabe.NotFound) as e:
        pabe.find()
    message = str(e.value)
    assert "\n" not in message
    for part in ("--projectabe DIR", "WHIST_PROJECTABE=DIR", str(tmp_path / "shared" / "projectabe"),
                 "whist projectabe fetch", str(tmp_path / "cache")):
        assert part in message
    monkeypatch.setenv(pabe.ENV, str(tmp_path / "elsewhere"))
    with pytest.raises(pabe.NotFound, match="WHIST_PROJECTABE .*elsewhere: no app.js"):
        pabe.find()


def test_fetch_checks_every_file_and_writes_only_a_whole_build(projectabe, tmp_path, monkeypatch):
    """No network: the downloads are served from the build found here."""
    served = {pabe.PINNED["url"].format(commit=commit, path=path): projectabe.projectabe / path
              for path, (commit, _) in pabe.pinned_files().items()}
    folder = pabe.fetch(tmp_path / "ok", download=lambda url: served[url].read_bytes())
    for path in pabe.pinned_files():
        assert (folder / path).read_bytes() == (projectabe.projectabe / path).read_bytes()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(pabe, "SHARED", tmp_path / "none")
    monkeypatch.delenv(pabe.ENV, raising=False)
    with pytest.raises(pabe.NotFound):
        pabe.find()
    # the default destination is the cache, which find() then uses
    assert pabe.fetch(download=lambda url: served[url].read_bytes()) == pabe.find() == pabe.cache_dir()

    def corrupt(url: str) -> bytes:
        data = served[url].read_bytes()
        return data[:-1] + bytes([data[-1] ^ 1]) if url.endswith("Sim.html") else data

    with pytest.raises(pabe.NotFound, match=r"Sim\.html: sha256 [0-9a-f]{64}, expected 6a30ed1e.*nothing written"):
        pabe.fetch(tmp_path / "bad", download=corrupt)
    assert not (tmp_path / "bad").exists()
