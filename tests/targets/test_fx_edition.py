"""The FX edition (firmware/fx.h, generator/codegen/fxdata.py) as a player runs it.

Its texts, font and sprites come from the emulated chip, so every screen and trace here
reads them there: cross-tests in both emulators (the Mini's select line in avr8js, which
alone wires a chip to it), a hand to its game's end on the buttons in ProjectABE (a whole game
in avr8js in `make longtest`), saves on the chip across a power-off (avr8js: ProjectABE drops
the chip's writes), a blank or corrupt save block, a chip without this build's data, and the
opponent's words beside its portrait. The larger cross-test subset runs in `make longtest`. The classic edition's tests are in test_ui.py and
test_crosstest.py.
"""

from __future__ import annotations

import pytest

from conftest import needs_firmware
from generator.ai import persona
from generator.ai.players import DEVICE_PLAYERS
from generator.targets import crosstest
from generator.targets.buttons import ButtonGame, booted, button_game
from generator.targets.emulator import Emulator, FxImage
from generator.targets.screenshots import enter_deal
from generator.targets.screentext import read
from test_crosstest import case
from test_opponent import bubble
from test_ui import SYSTEM, at_turn, leave, play_reading_scoreboards, resume

pytestmark = [needs_firmware, pytest.mark.xdist_group("fx_edition")]
SAVE_BYTES = 8192


def mini(firmware_dist, image: FxImage) -> tuple:
    return firmware_dist / "ArduboyMini" / "WhistMini.hex", FxImage("ArduboyMini", image.data, image.save)


def test_a_few_cross_tests_in_both_emulators(firmware_dist, fx_hex, fx_image, projectabe, endgame_tables):
    """Master (hard-fx, reading the endgame tables) on both sides of single hands of both packs, high
    and low, split between the emulators, the other levels seated, and a game to a target; the Mini's
    build on its own select line (a single hand). The 12 games in each emulator: `make longtest`."""
    both = {None: [case(31, 52, "highlow", 0, "hard", "easy"), case(32, 28, "last13", 0, "original", "hard"),
                   case(33, 28, "every", 10, "random", "greedy")],
            projectabe: [case(34, 28, "highlow", 0, "greedy", "hard"), case(35, 52, "diff", 0, "hard", "random")]}
    hands = [c for games in both.values() for c in games if "hard" in (c.p0, c.p1)]
    assert {(c.variant.deck.size, c.variant.scoring.name in ("highlow",)) for c in hands} == {
        (d, h) for d in (28, 52) for h in (False, True)}
    assert "hard" in {c.p0 for c in hands} & {c.p1 for c in hands}
    assert {p for games in both.values() for c in games for p in (c.p0, c.p1)} == set(DEVICE_PLAYERS)
    for backend, games in both.items():
        report = crosstest.run(fx_hex, games, backend=backend, fx=fx_image)
        assert report.differing == 0, report.first_failure
    report = crosstest.run(*mini(firmware_dist, fx_image)[:1], [case(36, 28, "diff", 0, "original", "easy")],
                           fx=mini(firmware_dist, fx_image)[1])
    assert report.differing == 0, report.first_failure


@pytest.mark.slow
def test_cross_tests_in_both_emulators(firmware_dist, fx_hex, fx_image, projectabe, endgame_tables):
    """Every pack x scoring, seated by each level, and Master (hard-fx, reading the endgame tables)
    on both sides of single hands of both packs, high and low; the Mini's build on its own select line."""
    masters = crosstest.spread(8, players=("hard",), targets=(0,))
    cases = crosstest.spread(8) + [masters[k] for k in (0, 3, 4, 7)]
    for backend in (None, projectabe):
        report = crosstest.run(fx_hex, cases, backend=backend, fx=fx_image)
        assert report.differing == 0, report.first_failure
    report = crosstest.run(*mini(firmware_dist, fx_image)[:1], crosstest.spread(4, first_seed=9),
                           fx=mini(firmware_dist, fx_image)[1])
    assert report.differing == 0, report.first_failure


@pytest.mark.parametrize("emulator", [pytest.param("avr8js", marks=pytest.mark.slow), "projectabe"])
def test_a_whole_game_with_the_buttons(fx_hex, fx_image, emulator, request):
    """Small Whist, fast, the scoreboards read off the screen; no EEPROM byte written. In ProjectABE
    a single hand to its game's end in `make test`; in avr8js (31 s against ProjectABE's 8) a game to
    10 in `make longtest`; the FX hands on the buttons of test_fx_coach and the saves below run in avr8js."""
    backend = request.getfixturevalue("projectabe") if emulator == "projectabe" else None
    image = SYSTEM + b"\xff" * 1008
    target = 3 if emulator == "avr8js" else 2  # from 25: 10, or a single hand
    with button_game(fx_hex, eeprom=image, adc_seed=11, backend=backend, fx=fx_image,
                     settings={"game": 1, "target": target, "speed": 1}) as game:
        play_reading_scoreboards(game, fx=True)
        assert game.device_lines() == game.want
        assert game.dev.emu.eeprom == image


def save_block(emu: Emulator) -> bytes:
    return emu.fx_read(emu.fx_save_address, SAVE_BYTES)


def continues_small_whist(fx_hex, fx_image, block: bytes) -> None:
    """Power on with this save block: Continue opens the table, and the pause names the saved game."""
    with booted(fx_hex, fx=FxImage("ArduboyFX", fx_image.data, block)) as dev:
        dev.menu("continue", has_save=True)
        dev.wait_screen("table")
        dev.tap("UP")  # the pause box names the game: Small Whist
        dev.wait_screen("pause")


@pytest.mark.slow
def test_saves_survive_a_power_off(fx_hex, fx_image):
    """Settings, the game after its first hand and the stats live in the chip's save block (in `make
    test`: the end of the next test, after its resumed hand)."""
    with button_game(fx_hex, fx=fx_image, settings={"game": 1, "speed": 1}) as game:
        game.play_hand()
        game.dev.wait_screen("hand_end")
        game.dev.tap("B")  # to the menu: the game is saved
        game.dev.wait_screen("menu")
        saved = save_block(game.dev.emu)
        data_at = game.dev.emu.fx_data_address
        assert game.dev.emu.fx_read(data_at, len(fx_image.data)) == fx_image.data  # the data untouched
    assert saved != fx_image.save
    continues_small_whist(fx_hex, fx_image, saved)


def test_a_hand_resumes_after_a_power_off(fx_hex, fx_image):
    """Left after 4 tricks, a setting changed at the menu (its record carries the hand's log over
    to its own log page), switched off: Continue resumes the hand at its 5th trick, the same
    table, and the hand played on gives the engine's trace. No EEPROM byte written. Then the game
    after that first hand (and the stats) saved from the scoreboard, switched off: Continue
    resumes it (the pause names Small Whist)."""
    image = SYSTEM + b"\xff" * 1008
    with button_game(fx_hex, eeprom=image, fx=fx_image, settings={"game": 1, "speed": 1}) as game:  # to 25
        dev = game.dev
        game.play_hand(tricks=4)
        left = at_turn(dev)
        leave(dev)
        dev.menu("settings", has_save=True)
        dev.wait_screen("settings")
        dev.change_settings({"target": 1})  # for the next game
        dev.tap("B")
        dev.wait_screen("menu")
        saved = save_block(dev.emu)
        assert dev.emu.eeprom == image
    with booted(fx_hex, eeprom=image, fx=FxImage("ArduboyFX", fx_image.data, saved)) as dev:
        dev.log = game.want[0] + "\n"  # printed before the power cycle
        again = ButtonGame(dev)
        again.start(hand=1)
        # the same table below the top line, where the opponent's words of trick 4 may still show before
        # the power-off (a resumed hand's table does not say them again)
        assert resume(dev, again, 4)[128:] == left[128:]
        again.play_hand()
        dev.wait_serial("score ")
        dev.wait_screen("hand_end")
        dev.read()
        assert "end winner=" not in dev.log
        assert again.device_lines()[1:] == game.want[1:len(again.device_lines())]
        dev.tap("B")  # to the menu: the game is saved
        dev.wait_screen("menu")
        after_hand = save_block(dev.emu)
        assert dev.emu.eeprom == image
    assert after_hand != saved
    continues_small_whist(fx_hex, fx_image, after_hand)


def test_a_blank_or_corrupt_save_block_gives_the_defaults(fx_hex, fx_image):
    """Blank, noise, zeros, a record torn by a power cut, each in turn: defaults, and nothing written
    until the player changes something; then a record again (read back after a power-off from the
    zeros and the torn block). Each block keeps the record of the first boot's check (a blank block's
    first boot: test_fx_saves)."""
    import random

    with booted(fx_hex, fx=fx_image) as dev:  # a valid record: one setting changed
        dev.menu("settings")
        dev.wait_screen("settings")
        defaults = dev.emu.screen()
        dev.tap("RIGHT")
        changed = dev.emu.screen()
        valid = save_block(dev.emu)
    rng = random.Random(3)
    mark = fx_image.save[:512]  # the first boot's record (the data checked) and its log page
    blocks = {
        "blank": fx_image.save,  # blank but for that record
        "noise": mark + bytes(rng.randrange(256) for _ in range(SAVE_BYTES - 512)),
        "zeros": mark + bytes(SAVE_BYTES - 512),
        "torn": valid[:612] + b"\xff" * (SAVE_BYTES - 612),  # the next record cut short by a power cut
    }
    for damage, block in blocks.items():
        with booted(fx_hex, fx=FxImage("ArduboyFX", fx_image.data, block)) as dev:
            dev.menu("settings")
            dev.wait_screen("settings")
            assert dev.emu.screen() == defaults, damage
            assert save_block(dev.emu) == block, damage  # looking writes nothing
            dev.tap("RIGHT")
            assert dev.emu.screen() == changed, damage
            again = save_block(dev.emu)
        assert again != block, damage
        if damage in ("blank", "noise"):  # as zeros' (a sector erased first) and torn's (after one cut short)
            continue
        with booted(fx_hex, fx=FxImage("ArduboyFX", fx_image.data, again)) as dev:  # read after a power-off
            dev.menu("settings")
            dev.wait_screen("settings")
            assert dev.emu.screen() == changed, damage


def test_records_go_round_the_save_block(fx_hex, fx_image):
    """More saves than the block's 16 records: each on an even page, the hand's log page after
    it, and each 4 KB sector (8 records) erased when its turn comes, so the other keeps the last
    records. Record 0 is the first boot's (the data checked), then 39 settings changes."""
    with booted(fx_hex, fx=fx_image) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        for n in range(39):
            dev.tap("RIGHT")
        shown = dev.emu.screen()
        block = save_block(dev.emu)
    numbers = [int.from_bytes(block[p * 256 + 252:p * 256 + 254], "little") for p in range(32)]
    # records 0-7 filled the first sector, 8-15 the second, 16-23 the first again, 24-31 the
    # second, 32-39 the first: each sector erased for them; every log page blank
    assert numbers[1::2] == [0xFFFF] * 16
    assert numbers[::2] == list(range(32, 40)) + list(range(24, 32))
    with booted(fx_hex, fx=FxImage("ArduboyFX", fx_image.data, block)) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        assert dev.emu.screen() == shown


def test_the_fx_screens_are_the_classic_ones(firmware_hex, fx_hex, fx_image):
    """Read from the chip, every text and picture comes out as the classic edition draws it from
    program flash: the title once its cards are dealt, the menu, the rules pages (below their title
    bar, which counts the FX edition's extra page on the coach), settings and stats. (The table and the
    scoreboard differ: the FX edition's has the opponent's portrait.)"""

    def pictures(hex_path, fx=None) -> list[bytes]:
        shots = []
        with booted(hex_path, fx=fx, adc_seed=5) as dev:
            dev.run(100)  # the title once the power-on's splash and fan are over
            title = dev.emu.screen()
            shots.append(title[:2 * 128] + title[6 * 128:])  # above and below the letters' glint
            for item, presses in (("rules", ["DOWN", "DOWN", "DOWN"]), ("settings", ["DOWN", "DOWN"]), ("stats", ["RIGHT"])):
                dev.menu(item)
                dev.run(2)
                shots.append(dev.emu.screen()[128:] if item == "rules" else dev.emu.screen())
                for button in presses:
                    dev.tap(button)
                    shots.append(dev.emu.screen()[128:] if item == "rules" else dev.emu.screen())
                dev.tap("B")
                dev.wait_screen("menu")
            shots.append(dev.emu.screen())
        return shots

    assert pictures(fx_hex, fx_image) == pictures(firmware_hex)


@pytest.mark.parametrize("junk,emulator", [
    ("noise", "avr8js"), ("noise", "projectabe"), ("another build's", "projectabe"), ("the Mini's hex", "avr8js"),
    pytest.param("another build's", "avr8js", marks=pytest.mark.slow),
    pytest.param("the Mini's hex", "projectabe", marks=pytest.mark.slow)])
def test_a_package_without_this_builds_data_is_one_error(firmware_dist, tmp_path, emulator, junk, request):
    """A package whose data image is junk, or not this build's, or whose hex drives the other select
    line: the game shows its no-data screen and says so on serial; crosstest ends on that one line,
    at once, not after its wait for a game. Each case in one emulator at least (both in `make longtest`)."""
    import io
    import json
    import time
    import zipfile

    from click.testing import CliRunner

    from conftest import emulator_args
    from generator.cli import main

    source = firmware_dist / "ArduboyFX" / "WhistFX.arduboy"
    with zipfile.ZipFile(source) as z:
        files = {name: z.read(name) for name in z.namelist()}
    data = files["WhistFX-data.bin"]
    if junk == "noise":
        files["WhistFX-data.bin"] = bytes((i * 97 + 13) % 256 for i in range(len(data)))
    elif junk == "another build's":
        files["WhistFX-data.bin"] = data[:100] + bytes([data[100] ^ 1]) + data[101:]  # one bit: the sums differ
    else:
        files["WhistFX.hex"] = (firmware_dist / "ArduboyMini" / "WhistMini.hex").read_bytes()
    package = tmp_path / "junk.arduboy"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, body in files.items():
            z.writestr(name, body)
    package.write_bytes(buf.getvalue())
    assert json.loads(files["info.json"])["binaries"][0]["flashdata"] == "WhistFX-data.bin"
    backend = request.getfixturevalue("projectabe") if emulator == "projectabe" else None
    args = emulator_args(backend) if backend else []
    start = time.perf_counter()
    r = CliRunner().invoke(main, ["crosstest", "--games", "4", "--arduboy", str(package), *args])
    assert time.perf_counter() - start < 60
    errors = [line for line in r.stderr.splitlines() if "error" in line]  # after the progress bar's label
    assert r.exit_code == 1 and errors == [
        f"error: {package} (WhistFX.hex): no game data on the FX chip: the chip's data image is not this build's "
        "(an FX edition runs with the data in its own .arduboy package, from 'make hex')"], r.stderr


def test_the_emulator_counts_the_cycles_the_cpu_sleeps(firmware_hex, fx_hex, fx_image):
    """What `make bench` reads a frame's busy time from: the game sleeps the rest of each frame, and How
    to play's first page (its texts read from the chip) is drawn within one (it counted its pages by
    reading every text twice a frame: 22 ms)."""
    from generator.targets.bench import FRAME_MS, frame_busy

    with Emulator(firmware_hex) as emu:
        emu.run_until_ready()
        before = emu.status()
        emu.run_frames(60)
        after = emu.status()
    slept, total = after["asleep"] - before["asleep"], after["cycles"] - before["cycles"]
    assert 0 < slept < total
    assert 0 < frame_busy(fx_hex, fx_image, "rules", frames=20) < FRAME_MS


def test_the_opponent_speaks_and_a_press_only_ends_its_words(fx_hex, fx_image):
    """Reg (Club, the first level) greets a game's first hand and stage 2 in its own words, chosen by
    the deal; a press ends them and plays nothing (the game on the buttons goes on as the engine's)."""
    with button_game(fx_hex, fx=fx_image, adc_seed=5, settings={"game": 1, "speed": 1}) as game:
        dev = game.dev
        dev.run(2)
        greeting = persona.line("original", "first", game.seed, 1)
        assert bubble(dev.emu.screen()) == greeting
        dev.tap("A")
        assert bubble(dev.emu.screen()) != greeting, "a press did not end the words"
        size = game.variant.deck.hand_size
        game.play_hand(tricks=size)  # stage 1: the press played no card
        said = persona.line("original", "stage2", game.seed, 1, size)
        for _ in range(300):
            dev.run(1)
            if bubble(dev.emu.screen()) == said:
                break
        assert bubble(dev.emu.screen()) == said, "no words as stage 2 began"
        game.play_hand()
        dev.wait_serial(r"score .*\n", regex=True)
        dev.read()
        assert game.device_lines() == game.want[:len(game.device_lines())]
