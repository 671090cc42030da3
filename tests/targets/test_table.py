"""The table as a player reads it: one whole hand played on the buttons in the emulator.

Checks, on the real hex at normal speed: a press made while the computer
plays is acted on, not lost; the cursor starts each turn on a card that may be
played; a wrong card's message stays at least a second; the card drawn in
stage 1 is marked in the hand; and nothing on USB before the hand is over
names a card (the whole hand's trace comes at its end, equal to the engine's).
"""

from __future__ import annotations

import re

from conftest import needs_firmware
from generator.engine.cards import parse_card, suit_of
from generator.targets.buttons import button_game
from generator.targets.emulator import frame_to_image

pytestmark = needs_firmware

CARD_W, HAND_Y, RAISED_Y = 16, 40, 35  # firmware/table.cpp
CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC])\b")


def card_x(i: int, n: int) -> int:
    """Left edge of the i-th of n cards in the hand (table.cpp's layout)."""
    step = min(10, (128 - CARD_W) // (n - 1)) if n > 1 else 0
    return (128 - (step * (n - 1) + CARD_W)) // 2 + i * step


def raised(picture: bytes, n: int) -> list[int]:
    """Positions of the hand's cards drawn raised (a lit body above the others' tops)."""
    px = frame_to_image(picture).load()
    row = RAISED_Y + 2
    return [i for i in range(n) if px[card_x(i, n) + 8, row]]  # right of the rank and of a marked corner


def corner_ink(picture: bytes, i: int, n: int) -> float:
    """Share of lit pixels in the rank-and-suit corner of card i (low when it is marked: inverted)."""
    px = frame_to_image(picture).load()
    x = card_x(i, n)
    box = [(x + dx, HAND_Y + dy) for dx in range(1, 8) for dy in range(1, 16)]
    return sum(bool(px[p]) for p in box) / len(box)


def test_a_hand_on_the_buttons_reads_as_a_player_expects(firmware_hex):
    with button_game(firmware_hex, adc_seed=3) as game:
        dev, emu = game.dev, game.dev.emu
        header = dev.log
        checks = {"buffered": 0, "cursor": 0, "message": 0, "marked": 0}
        while game.next < len(game.lines):
            line = game.lines[game.next]
            parts = line.split()
            card = parse_card(parts[2][2:] if parts[2].startswith("0:") else parts[3][2:])
            lead = None if parts[2].startswith("0:") else parse_card(parts[2][2:])
            dev.wait_turn()
            order = game.aim(lead)
            # the cursor starts on a card that may be played, and only it is raised
            assert raised(emu.screen(), len(order)) == [game.selected], line
            checks["cursor"] += 1
            legal = [lead is None or suit_of(c) == suit_of(lead) or
                     not any(suit_of(h) == suit_of(lead) for h in order) for c in order]
            if not checks["message"] and not all(legal):  # a wrong card: its message stays a second
                wrong = legal.index(False)
                dev.tap("RIGHT", (wrong - game.selected) % len(order))
                game.selected = wrong
                dev.tap("A")
                top = emu.screen()[:128]
                for _ in range(60):
                    dev.run(1)
                    assert emu.screen()[:128] == top, "the message went before a second"
                checks["message"] += 1
            dev.tap("RIGHT", (order.index(card) - game.selected) % len(order))
            dev.tap("A")
            left = len(order) - 1 + (1 if parts[3].startswith("0:") and "take=" in line else 0)
            game.selected = min(order.index(card), max(left - 1, 0))
            game.held.discard(card)
            got = re.search(r" (?:take|draw)=0:(\S+)", line)
            if got:
                game.held.add(parse_card(got.group(1)))
            game.next += 1
            ends = parts[3].startswith("0:")  # our card finished the trick
            if got and ends:  # the card we got is marked in the hand once it has left the stock
                new = game.order().index(parse_card(got.group(1)))
                n = len(game.order())
                ink = []
                for _ in range(100):
                    dev.run(1)
                    ink.append(corner_ink(emu.screen(), new, n))
                assert min(ink) < 0.4 < max(ink), (line, min(ink), max(ink))
                checks["marked"] += 1
            nxt = game.lines[game.next] if game.next < len(game.lines) else ""
            if ends and not got and nxt.startswith("trick ") and nxt.split()[2].startswith("1:") and not checks["buffered"]:
                # the computer leads next: a press now, while it plays, is kept for our turn
                dev.tap("RIGHT")
                dev.wait_turn()
                order = game.order()
                nlead = parse_card(nxt.split()[2][2:])
                game.aim(nlead)
                game.selected = (game.selected + 1) % len(order)
                dev.run(1)
                assert raised(emu.screen(), len(order)) == [game.selected], "the press made while it played was lost"
                dev.waiting = True  # the turn is still ours for the loop above
                game.selected = (game.selected - 1) % len(order)  # the loop aims again: undo our move there
                dev.tap("LEFT")
                checks["buffered"] += 1
            if game.next < len(game.lines):
                assert not CARD.search(dev.read()), "a card went over USB before the hand was over"
        dev.wait_serial(r"score .*\n", regex=True)
        dev.read()
        assert dev.log[:len(header)] == header
        hand = [x for x in dev.log[len(header):].splitlines() if x and not x.startswith("#")]
        score = game.want.index(next(x for x in game.want if x.startswith("score ")))
        last = score + 1 if game.want[score + 1:] and game.want[score + 1].startswith("end ") else score
        want = game.want[1:last + 1]  # with the "end" line when the hand ended the game
        assert hand == want  # the whole hand, hands and stock included, once it is over
        assert all(checks.values()), checks
