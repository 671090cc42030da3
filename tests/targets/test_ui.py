"""The whole game on the device, driven through its buttons in the emulator.

Menus and settings (kept over a power cycle, defaults after a corrupt or
erased save, EEPROM bytes 0..15 untouched), whole games played with the
buttons whose traces equal the engine's, a continued game, deal numbers,
stats, the demo, and random-button fuzzing with the stack's high-water mark.
Where the pack, the pace or the level is not the point the games are Small Whist at the fast speed,
on fixed short deals (a game to 10 in two hands, a single hand in ProjectABE). `make longtest` also
runs the slow ones (a Classic game at normal speed, 100,000 fuzz frames, three more kinds of
damaged log).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest

from conftest import needs_firmware
from generator.codegen.core import EEPROM_LOG, EEPROM_SAVES
from generator.targets.emulator import frame_to_image
from generator.ai.persona import OPPONENTS, next_line
from generator.ai.players import DEVICE_PLAYERS, FIRST_LEVEL
from generator.engine.display import score_reason, stage2_notice
from generator.engine.rules import HIGH, LOW
from generator.engine.cards import parse_card
from generator.targets.buttons import SCREEN, SCREENS, SETTINGS, ButtonGame, Device, booted, button_game
from generator.targets.screenshots import enter_deal
from generator.targets.screentext import FX_HAND_END_FACE, GAME_OVER_FACE, HAND_END_FACE, TABLE_FACE, mood, read
from generator.targets.thinktime import hook_address

pytestmark = needs_firmware

# A system area as a real Arduboy might have it (flags, audio on, unit id and name).
SYSTEM = bytes([0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00]) + b"\x12\x34Whist!"
AUDIO = 2  # the system audio flag, which the Sound setting is
ROW_TOP, ROW_H = 9, 7  # settings rows (firmware/screens.cpp)


def changed_rows(a: bytes, b: bytes) -> set[int]:
    """Settings rows whose pixels differ between two screens."""
    pa, pb = frame_to_image(a).load(), frame_to_image(b).load()
    rows = set()
    for y in range(64):
        if any(pa[x, y] != pb[x, y] for x in range(128)):
            rows.add((y - ROW_TOP + 1) // ROW_H)
    return rows


def stack_free(dev: Device) -> int:
    dev.read()
    dev.emu.serial_write("stack\n")
    dev.wait_serial(r"# stack free=\d+\n", regex=True)
    return int(re.search(r"# stack free=(\d+)", dev.read()).group(1))


def settings_screen(hex_path, eeprom: bytes) -> tuple[bytes, bytes]:
    """The settings screen after booting with this EEPROM, and the EEPROM after looking."""
    with booted(hex_path, eeprom=eeprom) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        return dev.emu.screen(), dev.emu.eeprom


def test_every_setting_changes_and_survives_a_power_cycle(firmware_hex):
    image = SYSTEM + b"\xff" * 1008
    with booted(firmware_hex, eeprom=image) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        for row in range(len(SETTINGS)):
            if row:
                dev.tap("DOWN")
            before = dev.emu.screen()
            dev.tap("RIGHT")
            # the scoring's title names the pack's tricks; the title bar shows the level's hint
            also = {"game": {1}, "ai": {-1}}.get(SETTINGS[row], set())
            assert changed_rows(before, dev.emu.screen()) == {row} | also, SETTINGS[row]
        dev.tap("UP", len(SETTINGS) - 1)
        changed = dev.emu.screen()
        dev.tap("B")
        dev.wait_screen("menu")
        saved = dev.emu.eeprom
    # only the audio flag moved in the system area: Sound is that flag, now off
    assert saved[AUDIO] == 0
    assert saved[:AUDIO] + saved[AUDIO + 1:16] == image[:AUDIO] + image[AUDIO + 1:16]

    with booted(firmware_hex, eeprom=saved) as dev:  # power cycle
        dev.menu("settings")
        dev.wait_screen("settings")
        assert dev.emu.screen() == changed
        dev.tap("B")
        dev.menu("play")
        # classic suit order and single-click play off (A twice), at the fast speed
        game = ButtonGame(dev, style="classic", clicks=2)
        game.start()
        ai = DEVICE_PLAYERS[(DEVICE_PLAYERS.index(FIRST_LEVEL) + 1) % len(DEVICE_PLAYERS)]
        assert re.fullmatch(rf"game v1 seed=\d+ deck=28 scoring=every target=50 p0=human p1={ai}", game.want[0])
        assert game.device_lines()[0] == game.want[0]
        game.play_hand(tricks=3)
        assert dev.emu.eeprom[:16] == saved[:16]


def test_saves_at_the_old_place_are_moved_once(firmware_hex):
    """Versions before the saves moved kept them from EEPROM byte 16: the first boot copies them
    to EEPROM_SAVES (the settings, the game and the stats as they were) and leaves the old
    place alone, another game's now; a save at the new place is never replaced by the old one."""
    erased = SYSTEM + b"\xff" * 1008

    def saved(steps: int) -> bytes:
        with booted(firmware_hex, eeprom=erased) as dev:
            dev.menu("settings")
            dev.tap("RIGHT", steps)
            return dev.emu.eeprom

    one, two = saved(1), saved(2)
    area, size = one[EEPROM_SAVES:], 1024 - EEPROM_SAVES
    old = SYSTEM + area + b"\xff" * (1008 - size)  # the same blocks at 16
    screen, moved = settings_screen(firmware_hex, old)
    assert screen == settings_screen(firmware_hex, one)[0] != settings_screen(firmware_hex, erased)[0]
    assert moved[:EEPROM_SAVES] == old[:EEPROM_SAVES] and moved[EEPROM_SAVES:] == area
    both = two[:16] + area + two[16 + size:]  # a save at each place: the new one counts
    screen, after = settings_screen(firmware_hex, both)
    assert screen == settings_screen(firmware_hex, two)[0] and after == both


def test_the_settings_cursor_is_where_it_was_left(firmware_hex):
    with booted(firmware_hex, eeprom=SYSTEM + b"\xff" * 1008) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        dev.tap("DOWN", 2)  # the target
        dev.tap("B")
        dev.wait_screen("menu")
        dev.menu("settings")
        dev.wait_screen("settings")
        before = dev.emu.screen()
        dev.tap("RIGHT")  # changes the row the cursor was left on
        assert changed_rows(before, dev.emu.screen()) == {2}


def test_a_corrupt_or_erased_save_gives_the_defaults(firmware_hex):
    erased = SYSTEM + b"\xff" * 1008
    defaults, after = settings_screen(firmware_hex, erased)
    assert after == erased  # looking writes nothing
    with booted(firmware_hex, eeprom=erased) as dev:  # a valid settings block, then damaged
        dev.menu("settings")
        dev.tap("RIGHT")
        valid = dev.emu.eeprom
    at = EEPROM_SAVES  # the saves fill EEPROM's top, settings first
    assert valid[at:at + 2] == b"WS" and valid[:at] == erased[:at]
    assert settings_screen(firmware_hex, valid)[0] != defaults
    rng = random.Random(7)
    damaged = [
        valid[:at + 2] + bytes([valid[at + 2] ^ 1]) + valid[at + 3:],  # a data byte: the checksum fails
        valid[:at + 3] + b"\x09" + valid[at + 4:],  # out-of-range value (checksum fails too)
        SYSTEM + bytes(rng.randrange(256) for _ in range(1008)),  # noise
        SYSTEM + b"\x00" * 1008,
    ]
    for image in damaged:
        screen, after = settings_screen(firmware_hex, image)
        assert screen == defaults
        assert after == image


# Deal numbers whose games are short: TWO_HANDS's Small Whist to 10, every trick scoring, ends after
# two hands (the computer's 4, then 6 points); ONE_POINT's single Small Whist hand (last 7 scoring)
# gives the player 1 point, 4 tricks to 3.
TWO_HANDS, ONE_POINT = 24, 1


@pytest.mark.parametrize("emulator", ["avr8js", "projectabe"])
def test_a_whole_game_with_the_buttons_matches_the_engine(firmware_hex, emulator, request):
    """At fast speed, then the stats and their reset, in both emulators: in avr8js a game of Small
    Whist to 10 (every trick scoring, deal TWO_HANDS: two hands), in ProjectABE a single hand (deal
    ONE_POINT: "You scored 1 point", one point said as one); in avr8js A then asks a rematch (as
    test_a_rematch_from_the_game_over_screen, in `make longtest`). `make longtest` plays a Classic game."""
    backend = request.getfixturevalue("projectabe") if emulator == "projectabe" else None
    image = SYSTEM + b"\xff" * 1008
    # the first target is 25, then 50, a single hand, 10; the first scoring last 13 (7), then every
    settings, deal = ({"game": 1, "scoring": 1, "target": 3, "speed": 1}, TWO_HANDS) if backend is None else \
        ({"game": 1, "target": 2, "speed": 1}, ONE_POINT)
    with booted(firmware_hex, eeprom=image, adc_seed=11, backend=backend) as dev:
        dev.menu("settings")
        dev.change_settings(settings)
        dev.tap("B")
        enter_deal(dev, deal)
        game = ButtonGame(dev)
        game.start()
        boards = play_reading_scoreboards(game)
        assert len(boards) == (2 if backend is None else 1)
        if backend is not None:
            assert read(boards[0], 0) == "Hand 1: You scored 1 point"
        assert dev.screen == SCREEN["game_over"]
        assert game.device_lines() == game.want
        assert dev.emu.eeprom[:16] == SYSTEM
        print(f"stack free after the game: {stack_free(dev)} B")

        won = int(game.want[-1].split()[1] == "winner=0")
        if backend is None:  # A: a rematch (test_a_rematch_from_the_game_over_screen's checks), then the menu
            rematch(game)
            leave(dev)
            dev.menu("stats", has_save=True)
        else:
            dev.tap("B")  # B: the menu
            dev.menu("stats")
        dev.wait_screen("stats")
        stats = dev.emu.eeprom
        shown = dev.emu.screen()
        dev.tap("A")  # asks first
        dev.tap("B")  # no
        assert dev.emu.eeprom == stats and dev.emu.screen() == shown
        dev.tap("A")
        dev.tap("A")  # yes
        assert dev.emu.eeprom != stats and dev.emu.screen() != shown
        assert won in (0, 1)


def test_a_new_game_over_a_saved_one_asks_first(firmware_hex):
    """A game left at its first turn is saved (the hand too, from its start); Play over it warns first.
    (test_a_game_continues_after_power_off continues one saved at the end of a hand.)"""
    with button_game(firmware_hex, adc_seed=4, settings={"game": 1, "speed": 1, "target": 1}) as game:
        dev = game.dev
        dev.wait_turn()
        leave(dev)
        saved = dev.emu.eeprom
        dev.menu("play", has_save=True)  # the first A only warns
        dev.run(30)
        assert dev.screen == SCREEN["menu"] and dev.emu.eeprom == saved
        dev.tap("A")
        dev.wait_screen("table")


def at_turn(dev: Device) -> bytes:
    """The table above the player's hand once the player's turn is drawn (its top line, the
    trick on the table, the stock, trump and the panel with the trick counts; below it the
    cursor starts anew on a resumed table), once a trump the computer led has stopped flashing
    (the replay plays it without); the opponent's face left out (it blinks by the clock). The
    turn marker is consumed: play_hand's next press goes on from here."""
    dev.wait_turn()
    dev.run(26)  # the flash lasts the computer's pause, at most 24 frames
    dev.waiting = True
    table = bytearray(dev.emu.screen()[:4 * 128])
    for page in (1, 2):
        table[page * 128 + TABLE_FACE[0]:page * 128 + TABLE_FACE[0] + 10] = bytes(10)
    return bytes(table)


def leave(dev: Device) -> None:
    """UP, then B twice at the pause: the table left for the menu (the turn no longer awaited)."""
    dev.waiting = False
    dev.tap("UP")
    dev.wait_screen("pause")
    dev.tap("B", 2)
    dev.wait_screen("menu")


def resume(dev: Device, game: ButtonGame, tricks: int) -> bytes:
    """Continue from the menu: the hand resumes after `tricks` of its tricks; the table at the turn."""
    dev.menu("continue", has_save=True)
    dev.wait_screen("table")
    game.resumed(tricks)
    return at_turn(dev)


POWER_OFF = 36  # Small Whist to 10, every trick scoring: two hands


def test_a_game_continues_after_power_off(firmware_hex):
    """Switched off in hand 2 after 3 tricks: Continue resumes it at its 4th trick (the same table),
    and the game played on gives the engine's trace (Small Whist to 10, every trick scoring: deal
    POWER_OFF's game ends with hand 2). Hand 1 is left and continued on the way (left_and_resumed)."""
    with booted(firmware_hex, eeprom=SYSTEM + b"\xff" * 1008, adc_seed=4) as dev:
        dev.menu("settings")
        dev.change_settings({"game": 1, "scoring": 1, "target": 3, "speed": 1})
        dev.tap("B")
        enter_deal(dev, POWER_OFF)
        game = ButtonGame(dev)
        game.start()
        left_and_resumed(game)  # now in hand 2, saved at the end of hand 1
        game.play_hand(tricks=3)
        left = at_turn(dev)
        image = dev.emu.eeprom
        header = game.want[0]

    with booted(firmware_hex, eeprom=image) as dev:
        dev.log = header + "\n"  # printed before the power cycle
        again = ButtonGame(dev)
        again.start(hand=2)
        assert resume(dev, again, 3) == left
        again.play_game()
        assert dev.screen == SCREEN["game_over"] and again.hand == 2
        start = game.want.index(next(x for x in game.want if x.startswith("hand 2 ")))
        assert again.device_lines()[1:] == game.want[start:]


def left_and_resumed(game: ButtonGame) -> None:
    """Continue after leaving a hand resumes it where it was left, not dealt again: the same table at
    the same trick, at once, after some tricks (stage 1), again (stage 2) and at the last trick, nothing
    of the hand on USB before it is over; the hand played on gives the engine's trace."""
    dev = game.dev
    for tricks in (0, 3, 9, game.variant.deck.hand_size * 2 - 1):
        game.play_hand(tricks=tricks - game.tricks_played())
        left = at_turn(dev)
        leave(dev)
        assert dev.emu.eeprom[:16] == SYSTEM
        assert resume(dev, game, 0) == left
        assert game.device_lines() == game.want[:1]  # nothing of the hand before it is over
    game.play_hand()
    assert not game.finish_hand()
    assert game.device_lines()[1:] == game.want[1:len(game.device_lines())]


@pytest.mark.slow
def test_leaving_a_hand_resumes_it(firmware_hex):
    """In a game from Play (Small Whist at fast speed); test_a_game_continues_after_power_off leaves its
    first hand the same way."""
    with button_game(firmware_hex, eeprom=SYSTEM + b"\xff" * 1008, adc_seed=6,
                     settings={"game": 1, "speed": 1}) as game:
        left_and_resumed(game)


def test_hard_finds_its_cards_again_when_a_hand_resumes(firmware_hex):
    """At Hard the replay searches again (stage-1 rollouts on the game's random stream, stage-2
    proofs): left in stage 2 of a Small Whist hand, after 9 tricks, the resumed hand and the next give
    the engine's trace."""
    hard = (DEVICE_PLAYERS.index("hard") - DEVICE_PLAYERS.index(FIRST_LEVEL)) % len(DEVICE_PLAYERS)
    with button_game(firmware_hex, adc_seed=3, settings={"game": 1, "ai": hard, "speed": 1}) as game:
        dev = game.dev
        assert "p1=hard" in game.want[0]
        game.play_hand(tricks=9)
        left = at_turn(dev)
        leave(dev)
        assert resume(dev, game, 0) == left
        game.play_hand()
        assert not game.finish_hand()
        game.play_hand()  # the next hand: the random stream went on from where the replay left it
        game.finish_hand()
        assert game.device_lines()[1:] == game.want[1:len(game.device_lines())]


# "torn" (random bytes of another mark from the 4th cell on) in `make test`; the other three stop the
# replay at one damaged cell the same way (make longtest)
@pytest.mark.parametrize("damage", [pytest.param("mark", marks=pytest.mark.slow),
                                    pytest.param("no card", marks=pytest.mark.slow),
                                    pytest.param("not held", marks=pytest.mark.slow), "torn"])
def test_a_corrupt_log_resumes_the_hand_before_the_damage(firmware_hex, damage):
    """The hand's log (a cell a trick from EEPROM_LOG: the card in the low 6 bits, the hand's mark
    above) damaged at its 4th cell: another hand's mark, a value that is no card, a card the
    player does not hold, or every cell from there torn to random bytes of another mark. The
    replay stops there: Continue resumes the hand at its 4th trick, and the hand and the game
    played on still give the engine's trace."""
    import random

    with button_game(firmware_hex, eeprom=SYSTEM + b"\xff" * 1008, adc_seed=6,
                     settings={"game": 1, "speed": 1}) as game:  # Small Whist at fast speed
        dev = game.dev
        game.play_hand(tricks=5)
        at_turn(dev)
        leave(dev)
        image = bytearray(dev.emu.eeprom)
    cell = EEPROM_LOG + 3
    mark = image[EEPROM_LOG] & 0xC0
    assert all(b & 0xC0 == mark for b in image[EEPROM_LOG:cell + 2])  # the 5 cells written
    theirs = next(p[2:] for p in game.lines[5 + 3].split() if p.startswith("1:"))  # the computer's
    if damage == "mark":
        image[cell] ^= 0x40
    elif damage == "no card":
        image[cell] = mark | 63
    elif damage == "not held":
        image[cell] = mark | parse_card(theirs)
    else:
        rng = random.Random(5)
        image[cell:EEPROM_SAVES] = bytes(rng.randrange(64) | (mark ^ 0x80) for _ in range(EEPROM_SAVES - cell))

    with booted(firmware_hex, eeprom=bytes(image)) as dev:
        dev.log = game.want[0] + "\n"  # printed before the power cycle
        again = ButtonGame(dev)
        again.start(hand=1)
        resume(dev, again, 3)
        again.play_hand()
        assert not again.finish_hand()
        assert again.device_lines()[1:] == game.want[1:len(again.device_lines())]


def scoreboard_mood(lines: list[str], score: str, reason: str) -> str:
    """The opponent's face on the scoreboard after the trace's ``score`` line: triumphant on its slam or on
    the hand that wins it the game, pleased with its points, sulking over the player's, else neutral."""
    points = tuple(map(int, score.split()[2][len("points="):].split(",")))
    wins_game = lines[lines.index(score) + 1:][:1] == [f"end winner=1 {score.split()[3]}"]
    if points[1]:
        return "triumphant" if reason.startswith("SLAM") or wins_game else "pleased"
    return "sulking" if points[0] else "neutral"


def play_reading_scoreboards(game: ButtonGame, fx: bool = False) -> list[bytes]:
    """Play the game out on the buttons; stage 2's notice must say which tricks score and each
    scoreboard why, in the engine's words, and the opponent's face how it takes it (``fx``: the FX
    edition's scoreboard, its rows closer and its portrait). Returns the scoreboards' pictures."""
    reason_y, face = (46, FX_HAND_END_FACE) if fx else (51, HAND_END_FACE)
    dev = game.dev
    scores = iter(x for x in game.want if x.startswith("score "))
    modes = iter(x for x in game.want if x.startswith("trump "))
    boards = []
    while True:
        mode = LOW if next(modes).endswith("mode=low") else HIGH
        game.play_hand(tricks=game.variant.deck.hand_size)
        dev.wait_turn()
        dev.run(2)
        for _ in range(130):  # the notice, in turn with the coach's tip in the FX edition
            if read(dev.emu.screen(), 0) == stage2_notice(game.variant.scoring, game.variant.deck, mode):
                break
            dev.run(1)
        assert read(dev.emu.screen(), 0) == stage2_notice(game.variant.scoring, game.variant.deck, mode)
        dev.waiting = True  # still our turn for play_hand
        game.play_hand()
        dev.wait_screen("hand_end")
        score = next(scores)
        tricks = tuple(map(int, score.split()[1][len("tricks="):].split(",")))
        reason = score_reason(game.variant.scoring, game.variant.deck, mode, tricks)
        assert read(dev.emu.screen(), reason_y) == reason
        boards.append(dev.emu.screen())
        assert mood(dev.emu.screen(), *face, portrait=fx) == scoreboard_mood(game.want, score, reason), score
        if game.finish_hand():
            return boards


def test_each_level_is_a_named_opponent_at_the_table(firmware_hex):
    """The panel names the opponent of the chosen level (persona.OPPONENTS): Club's Reg first (Small
    Whist: its deal is over sooner)."""
    with booted(firmware_hex, adc_seed=4) as dev:
        first = DEVICE_PLAYERS.index(FIRST_LEVEL)
        for i in range(len(DEVICE_PLAYERS)):
            player = DEVICE_PLAYERS[(first + i) % len(DEVICE_PLAYERS)]
            dev.menu("settings", has_save=bool(i))
            dev.change_settings({"ai": 1} if i else {"game": 1})
            dev.tap("B")
            enter_deal(dev, 5, last=5 if i else 0, has_save=bool(i))
            dev.wait_turn()
            dev.run(2)
            assert read(dev.emu.screen(), 14, 96, 3) == OPPONENTS[player], player
            leave(dev)


def rematch(game: ButtonGame) -> None:
    """At the game over screen: the opponent's face and words, the deal's number (or who is next), and A
    deals a new game with the same settings (pack, scoring, target, level)."""
    dev = game.dev
    assert dev.screen == SCREEN["game_over"]
    assert read(dev.emu.screen(), 58) == "A: rematch  B: menu"
    picture = dev.emu.screen()  # the opponent's face and words between the columns
    assert (mood(picture, *GAME_OVER_FACE), read(picture, 28, 38, 11)) == {
        "Reg wins": ("triumphant", "I beat you!"), "You win the game!": ("sulking", "You got me!"),
        "A draw!": ("neutral", "Close game!")}[read(picture, 0)]
    won = read(picture, 0) == "You win the game!"  # then who is next, else the deal's number
    assert read(picture, 48) == (next_line("original") if won else f"Deal {game.seed}")
    dev.read()
    dev.log = ""
    dev.tap("A")
    dev.wait_screen("table")
    dev.wait_serial("game ")
    header = next(line for line in dev.read().splitlines() if line.startswith("game "))
    first = game.want[0].split()
    again = header.split()
    assert again[2] != first[2] and again[3:] == first[3:]  # a new seed, the same pack, scoring, target, players


@pytest.mark.slow
def test_a_rematch_from_the_game_over_screen(firmware_hex):
    """A at the end of a game played from Play (a single hand of Small Whist)."""
    with booted(firmware_hex, eeprom=SYSTEM + b"\xff" * 1008, adc_seed=8) as dev:
        dev.menu("settings")
        dev.change_settings({"game": 1, "target": 2, "speed": 1})  # Small Whist, a single hand
        dev.tap("B")
        dev.menu("play")
        game = ButtonGame(dev)
        game.start()
        game.play_game()
        rematch(game)

def test_a_deal_number_replays_that_deal(firmware_hex):
    with booted(firmware_hex) as dev:
        dev.menu("deal")
        dev.wait_screen("deal")
        dev.tap("UP", 2)  # last digit: 2
        dev.tap("LEFT")
        dev.tap("UP", 4)  # 42
        dev.tap("A")
        dev.wait_serial("game v1 seed=42 ")
        assert dev.read().startswith("game v1 seed=42 ")
        dev.tap("UP")
        dev.wait_screen("pause")
        dev.tap("B")  # asks: the hand in progress would be lost
        dev.run(30)
        assert dev.screen == SCREEN["pause"]
        dev.tap("B")
        dev.wait_screen("menu")
        dev.menu("deal", has_save=True)  # offers the last deal again
        dev.tap("A", 2)  # the game left in its first hand was saved: the first A warns
        dev.wait_serial("game v1 seed=42 ")
        assert dev.read().startswith("game v1 seed=42 ")


def test_the_demo_starts_on_an_idle_title_and_stops_at_a_button(firmware_hex):
    with booted(firmware_hex) as dev:
        dev.run(590)
        assert dev.screen == SCREEN["title"]
        dev.wait_screen("auto", 30)
        dev.wait_serial("trick 1 ")
        assert f"p0={FIRST_LEVEL} p1={FIRST_LEVEL}" in dev.read()
        dev.tap("B")
        assert dev.screen == SCREEN["title"]


def test_rules_in_pages_and_credits_show(firmware_hex):
    with booted(firmware_hex) as dev:
        dev.menu("rules")
        dev.wait_screen("rules")
        first = dev.emu.screen()
        pages = {first}
        for _ in range(3):  # one press a page
            dev.tap("A")
            pages.add(dev.emu.screen())
        assert len(pages) == 4 and dev.screen == SCREEN["rules"]
        dev.tap("UP", 30)
        assert dev.emu.screen() == first
        dev.tap("DOWN", 3)
        dev.tap("A")  # A on the last page leaves
        dev.wait_screen("menu")
        dev.menu("rules")
        dev.wait_screen("rules")
        dev.tap("B")
        dev.wait_screen("menu")
        dev.menu("credits")
        dev.wait_screen("credits")
        dev.tap("B")
        dev.wait_screen("menu")


@pytest.mark.parametrize("after, seed", [(2, 1), (13, 2)], ids=["stage 1", "stage 2"])
def test_the_screen_keeps_moving_while_the_computer_thinks(firmware_hex, firmware_elf, after, seed):
    """Hard's stage-1 search plays out every candidate over its worlds (about 0.5 s a card on the
    52-card pack); seed 2's first stage-2 moves take it most of its work budget (seed 1's, since the
    classic judge plays its stage 1, are searched within a frame each). The game is paced at the Fast
    setting, so that it reaches those tricks sooner: the searches are the same."""
    max_gap = 40 * 16_000  # cycles: a frame is due every 16 ms; the search looks after every rollout or 128 work units (about 3 ms)
    hook = hook_address(firmware_elf)
    with booted(firmware_hex) as dev:
        dev.menu("settings")
        dev.change_settings({"speed": 1})
        dev.tap("B")
        dev.wait_screen("menu")
        dev.read()
        dev.emu.serial_write(f"play seed={seed} deck=52 scoring=last13 target=0 p0=hard p1=hard fast=0\n")
        dev.wait_serial(f"trick {after} ", max_cycles=1_000_000_000)
        dev.emu.watch([hook, hook + 1])
        dev.emu.writes()
        pointer, before = [0, 0], dev.emu.screen()
        seen, searched = dev.read(), []
        while f"trick {after + 3} " not in seen:  # six decisions
            assert dev.emu.run_frames(1, max_cycles=max_gap) == 1, "no frame for 40 ms: the screen froze"
            for address, value, _ in dev.emu.writes():
                pointer[address - hook] = value
            picture = dev.emu.screen()
            if any(pointer):
                searched.append(picture)
                assert picture[128:] == before[128:], "the picture below the top line changed during a search"
            else:
                before = picture
            seen += dev.read()
        # "is thinking" and its moving dots on the top line; below it the OLED keeps the table drawn
        # before the search, while the search fills the rest of the frame buffer with its table
        assert len(searched) >= 4 and len({p[:128] for p in searched}) >= 2


# Buttons by screen, weighted toward what moves a game on so that a run finishes
# hands and games and reaches the deep screens: at the table A (play, skip a
# pause) and mostly RIGHT, which sweeps the hand for a card that may be played
# (a random walk of LEFT and RIGHT takes many times longer to find the one
# card that follows suit). Every button keeps some weight everywhere.
FUZZ_WEIGHTS = {
    "table": {"A": 8, "RIGHT": 6, "LEFT": 1.5, "B": 0.5, "UP": 0.1, "DOWN": 0.3},
    "pause": {"A": 6, "B": 0.5, "UP": 0.5, "DOWN": 0.5, "LEFT": 0.5, "RIGHT": 0.5},
    "hand_end": {"A": 10, "B": 0.5, "UP": 0.5, "DOWN": 0.5, "LEFT": 0.5, "RIGHT": 0.5},
    "game_over": {"A": 10, "B": 1, "UP": 0.5, "DOWN": 0.5, "LEFT": 0.5, "RIGHT": 0.5},
    # DOWN as often as A: settings and stats are three rows from Play
    "menu": {"A": 3, "DOWN": 3, "UP": 1, "B": 0.5, "LEFT": 0.5, "RIGHT": 0.5},
}
FUZZ_OTHER = {"A": 2, "B": 3, "UP": 1, "DOWN": 1, "LEFT": 1, "RIGHT": 1}  # settings, stats, deal, title...


@dataclass
class FuzzRun:
    frames: int = 0
    hands: int = 0  # scoreboards reached
    games: int = 0  # game-over screens reached
    screens: set[str] = field(default_factory=set)
    stack_free: int = 0


def fuzz(hex_path, frames: int, seed: int, backend=None, images: list[bytes] | None = None,
         start: bytes = SYSTEM + b"\xff" * 1008) -> FuzzRun:
    """Weighted random buttons for `frames` frames from the EEPROM `start`, failing on a hang, a
    restart or a write to the system's EEPROM bytes; counts the hands and games finished (and
    appends the EEPROM to `images`)."""
    rng = random.Random(seed)
    run = FuzzRun()
    with booted(hex_path, eeprom=start, adc_seed=seed, backend=backend) as dev:
        while run.frames < frames:
            name = SCREENS[dev.screen - 1] if dev.screen else "title"
            weights = FUZZ_WEIGHTS.get(name, FUZZ_OTHER)
            held = rng.choices(list(weights), list(weights.values()), k=rng.choice((1, 1, 1, 2)))
            n = min(rng.randint(1, 2), frames - run.frames)  # a press counts from its first frame
            gap = rng.randint(1, 3)
            for count, buttons in ((n, held), (gap, [])):
                dev.emu.set_buttons(buttons)
                assert dev.emu.run_frames(count) == count, f"hang after {run.frames} frames"
                run.frames += count
                for value, _ in dev.emu.markers():
                    if value != dev.screen and value in (SCREEN["hand_end"], SCREEN["game_over"]):
                        run.hands += value == SCREEN["hand_end"]
                        run.games += value == SCREEN["game_over"]
                    if 0 < value <= len(SCREENS):
                        dev.screen = value
                        run.screens.add(SCREENS[value - 1])
            if run.frames % 500 < 14:
                assert "# whist " not in dev.read(), f"the firmware restarted before frame {run.frames}"
        assert "# whist " not in dev.read()
        assert dev.emu.eeprom[:AUDIO] + dev.emu.eeprom[AUDIO + 1:16] == start[:AUDIO] + start[AUDIO + 1:16]
        if images is not None:
            images.append(dev.emu.eeprom)
        run.stack_free = stack_free(dev)
    print(f"fuzz ({backend.name if backend else 'avr8js'}): {run.frames:,} frames, {run.hands} hands and {run.games} games finished, 0 hangs, 0 restarts, "
          f"stack {run.stack_free} B never touched; screens seen: {', '.join(sorted(run.screens))}")
    return run


def fast_small_whist(hex_path) -> bytes:
    """An EEPROM image with Small Whist at the fast speed saved: fuzzing from it finishes hands sooner."""
    with booted(hex_path, eeprom=SYSTEM + b"\xff" * 1008) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        dev.change_settings({"game": 1, "speed": 1})
        return dev.emu.eeprom


def test_fuzz_random_buttons(firmware_hex):
    """A short run (`make longtest` fuzzes 100,000 frames from the default settings in both emulators)."""
    run = fuzz(firmware_hex, 1_200, seed=1, start=fast_small_whist(firmware_hex))
    assert run.hands >= 1
    assert {"table", "pause", "hand_end"} <= run.screens
    assert run.stack_free > 64


@pytest.mark.slow
@pytest.mark.parametrize("emulator", ["avr8js", "projectabe"])
def test_fuzz_100k_frames(firmware_hex, emulator, request):
    backend = request.getfixturevalue("projectabe") if emulator == "projectabe" else None
    run = fuzz(firmware_hex, 100_000, seed=3, backend=backend)
    assert run.hands >= 24 and run.games >= 3  # dozens of hands, several games
    assert {"table", "pause", "hand_end", "game_over", "menu", "settings"} <= run.screens
    assert run.stack_free > 64


@pytest.mark.slow
def test_a_classic_game_with_the_buttons_matches_the_engine(firmware_hex):
    """The default settings (Classic 52, last 13, to 25) at normal speed."""
    with button_game(firmware_hex, eeprom=SYSTEM + b"\xff" * 1008, adc_seed=9) as game:
        dev = game.dev
        play_reading_scoreboards(game)
        assert dev.screen == SCREEN["game_over"]
        assert game.device_lines() == game.want
        assert dev.emu.eeprom[:16] == SYSTEM
        print(f"stack free after a Classic game: {stack_free(dev)} B")
