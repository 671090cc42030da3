"""The opponent across the table (issue 49): always there, readable, never in the way.

The FX edition in ProjectABE, as players run it: the opponent greets a hand in a one-line bubble on the
top line while the stock, the face-up card, the trump box, the scores and the hand stay in sight; play
goes on under its words, so at Fast the first stage-2 turn comes as quickly as any other; its slam and
the game's end are said where the player looks. The classic edition (in ProjectABE too): Continue shows its own
page at once and then the table, nothing of the menu or the search between; a trick's counts and the
face change when its winner is framed, not while the answer is on show alone; the opponent has one
name everywhere.
"""

from __future__ import annotations

import pytest

from conftest import needs_firmware
from test_ui import at_turn, leave
from generator.ai import persona
from generator.targets.buttons import SCREEN, ButtonGame, Device, booted, button_game
from generator.targets.screenshots import enter_deal
from generator.targets.screentext import TABLE_FACE, lit, mood, read
from generator.targets.thinktime import FRAME_CYCLES

pytestmark = needs_firmware

PORTRAIT_X = 104  # firmware/table.cpp, the FX edition's panel: the portrait at the right edge
SMALL, FAST, SINGLE, MASTER = {"game": 1}, {"speed": 1}, {"target": 2}, {"ai": 2}  # RIGHT presses from the defaults
SLAM_DEAL = 3  # Small Whist, a single hand: the FX Master (hard-fx) takes every trick of stage 2
ONE_POINT_DEAL = 1  # Small Whist, a single hand at Club: the player scores 1 point (4 tricks to 3, test_ui)


def bubble(picture: bytes) -> str:
    """The opponent's words on the top line: black on the white bubble that ends left of its portrait,
    its tail pointing there ("" when none shows)."""
    right = PORTRAIT_X - 3
    if not (all(lit(picture, right, y) for y in range(7)) and lit(picture, right + 2, 6)):
        return ""
    left = next(x for x in range(right, -1, -1) if not lit(picture, x, 0)) + 1
    return read(picture, 1, left + 2, (right - left - 1) // 4, ink=False)


def region(picture: bytes, x0: int, x1: int, y0: int, y1: int) -> list[bool]:
    return [lit(picture, x, y) for y in range(y0, y1) for x in range(x0, x1)]


def greeting_in_sight(game: ButtonGame) -> None:
    """The first hand's greeting (a game's first hand: not "another hand") shows while the stock, the
    face-up card, the trump box, the scores and the hand are drawn as they are once it is over."""
    dev = game.dev
    dev.run(70)  # the deal (4 frames a card) and the trump's flash over
    during = dev.emu.screen()
    assert bubble(during) == persona.line("original", "first", game.seed, 1)
    for _ in range(200):
        dev.run(1)
        if not bubble(dev.emu.screen()):
            break
    after = dev.emu.screen()
    assert not bubble(after), "the words never ended"
    for x0, x1, y0, y1 in ((0, 47, 8, 34), (73, PORTRAIT_X, 8, 28), (0, 128, 34, 64)):  # stock and trump, scores, hand
        assert region(during, x0, x1, y0, y1) == region(after, x0, x1, y0, y1), (x0, y0)


def splash_skipped(dev: Device) -> None:
    """Power-on shows the FX edition's splash (a card turned over, not the title); a press goes straight
    to the menu, as a press at the title does: nothing is added to a returning player's path."""
    assert dev.screen == SCREEN["title"] and read(dev.emu.screen(), 57, 25, 20) == "German Whist for two"
    dev.tap("A")
    assert dev.screen == SCREEN["menu"]


def stage2_at_fast(game: ButtonGame) -> None:
    """At Fast, from the press of the player's last stage-1 card to the first stage-2 turn within 80
    frames (the trick's beat and hold, the computer's pause and card), stage 2 announced."""
    dev = game.dev
    game.play_hand(tricks=game.variant.deck.hand_size)
    said = persona.line("original", "stage2", game.seed, 1, game.variant.deck.hand_size)
    heard = False
    for _ in range(120):
        dev.run(1)
        heard = heard or bubble(dev.emu.screen()) == said
        if dev.waiting:
            break
    assert dev.waiting, "no stage-2 turn"
    assert (dev.turn_at - dev.pressed_at) / FRAME_CYCLES <= 80
    assert heard, "stage 2 went unannounced"


def test_the_splash_then_the_greeting(fx_hex, fx_image, projectabe):
    """The two below in one FX session (in ProjectABE, whose chip holds no save block, every boot checks
    the whole data image: seconds of CPU): any button skips the splash; the greeting of a Small Whist
    game leaves the table in sight."""
    with booted(fx_hex, fx=fx_image, adc_seed=5, backend=projectabe) as dev:
        splash_skipped(dev)
        dev.menu("settings")
        dev.change_settings(SMALL)
        dev.tap("B")
        dev.menu("play")
        game = ButtonGame(dev)
        game.start()
        greeting_in_sight(game)


@pytest.mark.slow
def test_the_greeting_leaves_the_table_in_sight(fx_hex, fx_image, projectabe):
    """A default FX game (Classic 52) from power-on."""
    with button_game(fx_hex, fx=fx_image, adc_seed=5, backend=projectabe) as game:
        greeting_in_sight(game)


@pytest.mark.slow
def test_any_button_skips_the_splash(fx_hex, fx_image, projectabe):
    with booted(fx_hex, fx=fx_image, backend=projectabe) as dev:
        splash_skipped(dev)


def test_at_fast_the_words_do_not_hold_play(fx_hex, fx_image, projectabe):
    """Small Whist at Fast, from Play."""
    with button_game(fx_hex, fx=fx_image, adc_seed=5, backend=projectabe, settings=SMALL | FAST) as game:
        stage2_at_fast(game)


def test_its_slam_and_the_game_are_said(fx_hex, fx_image, projectabe):
    """Master's slam in a single hand: said on the table as the last trick is framed (not a blank
    "Hand over"), then the game over names it ("Max wins") and it has its word under its portrait."""
    with booted(fx_hex, fx=fx_image, backend=projectabe) as dev:
        dev.menu("settings")
        dev.change_settings(SMALL | FAST | SINGLE | MASTER)
        dev.tap("B")
        enter_deal(dev, SLAM_DEAL)
        game = ButtonGame(dev)
        game.start()
        game.play_hand()
        tricks = 2 * game.variant.deck.hand_size
        said = persona.line("hard", "slam", SLAM_DEAL, 1, tricks)
        heard = False
        while dev.screen != SCREEN["hand_end"]:
            dev.run(1)
            heard = heard or bubble(dev.emu.screen()) == said
        assert heard, "the slam went unsaid"
        game.finish_hand()
        dev.run(2)
        picture = dev.emu.screen()
        assert read(picture, 0) == "Max wins"
        word = persona.line("hard", "won", SLAM_DEAL, 1, tricks)
        assert read(picture, 38, 64 - 2 * len(word), len(word), ink=False) == word


def test_continue_shows_its_page_then_the_table(firmware_hex, projectabe):
    """Continue at Master after 5 tricks: from the press, the resume's own page ("Resuming hand 1, trick
    ...", the rest of the screen dark) while the computer's cards are found again, then the table; no
    frame of the menu under the thinking line, none black or half drawn between."""
    with booted(firmware_hex, adc_seed=3, backend=projectabe) as dev:
        dev.menu("settings")
        dev.change_settings(SMALL | FAST | MASTER)
        dev.tap("B")
        enter_deal(dev, 2)
        game = ButtonGame(dev)
        game.start()
        game.play_hand(tricks=5)
        table = at_turn(dev)
        leave(dev)
        dev.tap("UP")  # from Deal number (the last choice) to Continue
        dev.emu.press("A")
        pictures = []
        for _ in range(600):
            dev.run(1)
            pictures.append(dev.emu.screen())
            if dev.screen == SCREEN["table"]:
                dev.emu.release("A")
                break
        game.resumed(5)
        after = at_turn(dev)
    assert after == table
    kinds = []
    for p in pictures + [after]:
        if read(p, 1, 1, ink=False) == "GERMAN WHIST":
            kinds.append("menu")
        elif read(p, 0).startswith("Resuming hand 1, trick "):
            assert not any(p[128:]), "the resume's page is its top line alone"
            kinds.append("page")
        else:
            kinds.append("table" if masked(p) == masked(table) else "?")
    seen = [k for i, k in enumerate(kinds) if not i or kinds[i - 1] != k]
    assert seen in (["menu", "page", "table"], ["page", "table"]), seen


def masked(picture: bytes) -> bytes:
    """The table above the hand (screen pages 1-3), the opponent's face left out (it blinks)."""
    table = bytearray(picture[128:4 * 128])
    for page in (0, 1):
        table[page * 128 + TABLE_FACE[0]:page * 128 + TABLE_FACE[0] + 10] = bytes(10)
    return bytes(table)


def test_a_trick_tells_its_result_when_framed(firmware_hex, projectabe):
    """Small Whist at Club, the normal speed: while the first trick's answer is on show alone the
    panel's counts and the face are those before the trick; they change with "Yours." or "Mine." and
    the winner's frame. (That one point is one, "You scored 1 point", test_ui's whole game in
    ProjectABE reads at the end of the same deal.)"""
    counts = (108, 128, 14, 28)  # the tricks and points of both sides (firmware/table.cpp's classic panel)
    with booted(firmware_hex, adc_seed=5, backend=projectabe) as dev:
        dev.menu("settings")
        dev.change_settings(SMALL | SINGLE)
        dev.tap("B")
        enter_deal(dev, ONE_POINT_DEAL)
        game = ButtonGame(dev)
        game.start()
        dev.wait_turn()
        dev.waiting = True
        before = dev.emu.screen()
        game.play_hand(tricks=1)
        pictures = []
        while not pictures or read(pictures[-1], 0) not in ("Yours.", "Mine."):
            assert len(pictures) < 200, "the trick was never taken"
            dev.run(1)
            pictures.append(dev.emu.screen())
        framed = pictures.pop()
        beat = [p for p in pictures if read(p, 0) == "" and p[128 + 53] and p[128 + 71]]  # both cards on show
        assert beat, "no answer on show alone"
        for p in beat:
            assert region(p, *counts) == region(before, *counts)
            assert mood(p, *TABLE_FACE) in ("neutral", "blinking", "thinking")
        assert region(framed, *counts) != region(before, *counts)
        assert mood(framed, *TABLE_FACE) in ("pleased", "sulking")


def test_one_name_for_each_opponent(firmware_hex, projectabe):
    """Settings name the level and its opponent ("Club: Reg"), and so do the stats."""
    with booted(firmware_hex, backend=projectabe) as dev:
        dev.menu("settings")
        dev.wait_screen("settings")
        assert read(dev.emu.screen(), 9 + 3 * 7, 60) == "Club: Reg"
        dev.tap("B")
        dev.menu("stats")
        dev.wait_screen("stats")
        assert read(dev.emu.screen(), 1, 48, 9, ink=False) == "Club: Reg"
