"""A tap of A while a trick is paced hurries it and plays nothing, in ProjectABE as players run it.

Newcomers tap A to hurry the computer. Before, a tap during the answer's beat or the framed
trick was kept as the next play: the card went out in the frame its turn began, "Your turn"
never drawn. The scene: a default game, three plays, then a play and one tap of A 40 frames
later, then no buttons for 400 frames: exactly one turn begins, and it waits.
"""

from __future__ import annotations

from conftest import needs_firmware
from generator.targets.buttons import button_game
from generator.targets.screentext import read

pytestmark = needs_firmware


def test_a_tap_during_the_pace_hurries_and_plays_nothing(firmware_hex, projectabe):
    with button_game(firmware_hex, adc_seed=5, backend=projectabe) as game:
        dev = game.dev
        game.play_hand(tricks=4)  # the fourth play's taps are the last presses
        dev.run(40)
        dev.tap("A")
        turns = 0
        for _ in range(400):
            dev.run(1)
            if dev.waiting:
                dev.waiting = False
                turns += 1
        assert turns == 1, f"{turns} turns began after the tap: it played a card"
        assert read(dev.emu.screen(), 0) in ("Your turn", "Your lead")
