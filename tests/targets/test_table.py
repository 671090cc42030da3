"""The table as a player reads it: one whole hand against Master played on the buttons in the emulator
(Small Whist; a Classic hand in `make longtest`).

Checks, on the real hex at normal speed, every frame: the panel's header never changes while the
computer searches (nor anywhere else: it always reads "S1 Pt" or "S2 Pt"); the cursor is never on a
card that may not be played while the top line says "Your turn"; a finished trick stays framed for
90 frames unless a press skips it; a press made while the computer searches during that pace is kept
for the player's turn. And, as before: a wrong card's message stays at least a second; the card drawn
in stage 1 is marked in the hand; nothing on USB before the hand is over names a card (the whole
hand's trace comes at its end, equal to the engine's).
"""

from __future__ import annotations

import re

import pytest

from conftest import needs_firmware
from generator.engine.cards import parse_card, suit_of
from generator.targets.buttons import SCREEN, ButtonGame, Device, booted
from generator.targets.screenshots import enter_deal
from generator.targets.screentext import TABLE_FACE, lit, mood, read
from generator.targets.thinktime import hook_address

pytestmark = needs_firmware

CARD_W, HAND_Y, RAISED_Y = 16, 40, 35  # firmware/table.cpp
HOLD = 90  # frames a finished trick stays framed at the normal speed
# Fixed deals (Play's comes from the clock, which every build moves) with the scenes below: Small Whist's
# in `make test`, Classic 52's (26 tricks) in `make longtest`; and how many tricks are framed unpressed
SMALL_DEAL, CLASSIC_DEAL = 2, 3
CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC])\b")
# The top edge of the frame around each seat's trick card (trickX - 1 .. + 17, trickY - 1).
FRAME_TOP = {0: (range(47, 65), 11), 1: (range(65, 83), 8)}
HEADER = (range(109, 128), range(8, 14))


def card_x(i: int, n: int) -> int:
    """Left edge of the i-th of n cards in the hand (table.cpp's layout)."""
    step = min(10, (128 - CARD_W) // (n - 1)) if n > 1 else 0
    return (128 - (step * (n - 1) + CARD_W)) // 2 + i * step


def raised(picture: bytes, n: int) -> list[int]:
    """Positions of the hand's cards drawn raised (a lit body above the others' tops)."""
    return [i for i in range(n) if lit(picture, card_x(i, n) + 8, RAISED_Y + 2)]  # right of the rank and of a marked corner


def corner_ink(picture: bytes, i: int, n: int) -> float:
    """Share of lit pixels in the rank-and-suit corner of card i, raised or not (low when it is marked: inverted)."""
    x = card_x(i, n)
    y = RAISED_Y if i in raised(picture, n) else HAND_Y
    box = [(x + dx, y + dy) for dx in range(1, 8) for dy in range(1, 16)]
    return sum(lit(picture, *p) for p in box) / len(box)


def framed(picture: bytes) -> bool:
    """A finished trick is on show with its winner's card framed."""
    return any(all(lit(picture, x, y) for x in xs) for xs, y in FRAME_TOP.values())


class Watch:
    """Every frame's picture checked as it is shown: the header, the cursor, the framed tricks."""

    def __init__(self, dev: Device, hook: int) -> None:
        self.dev, self.hook = dev, hook
        self.pointer = [0, 0]  # the core's think hook pointer: non-zero while a search runs
        self.searching = False
        self.on_table = 0  # frames since the table came on the screen
        self.searched_frames = 0
        self.header = b""  # the header's pixels before the search under way
        self.legal: list[bool] | None = None  # the cards that may answer the computer's lead, in hand order
        self.cursor_checks = 0
        self.turns_marked = 0  # frames of our turn with the panel's names checked
        self.run = 0  # consecutive framed frames
        self.pressed = False  # a press was made during this framed run
        self.holds: list[tuple[int, bool]] = []  # (frames framed, a press skipped it)
        self.moods: set[str] = set()  # the opponent's faces seen at the table
        dev.emu.watch([hook, hook + 1])
        dev.emu.writes()

    def __call__(self, picture: bytes) -> None:
        for address, value, _ in self.dev.emu.writes():
            self.pointer[address - self.hook] = value
        searching = any(self.pointer)
        header = bytes(lit(picture, x, y) for x in HEADER[0] for y in HEADER[1])
        self.on_table = self.on_table + 1 if self.dev.screen == SCREEN["table"] else 0
        if self.on_table > 1:  # the frame that switched to the table still shows the screen before
            assert read(picture, 8, 109, 5) in ("S1 Pt", "S2 Pt"), "the panel's header is garbled"
            face = mood(picture, *TABLE_FACE)
            assert face, "no face in the opponent's row"
            self.moods.add(face)
            if searching:  # it searches on its turn, or in the pace of a trick it took, so it will lead
                assert face in ("thinking", "pleased"), face
            if framed(picture):  # a trick on show: glad to have taken it, or not
                assert face in ("pleased", "sulking"), face
            if searching and self.searching:
                assert header == self.header, "the header changed while the computer searched"
                self.searched_frames += 1
            top = read(picture, 0)
            if top in ("Your turn", "Your lead"):  # whose turn: our name inverted, not its
                assert read(picture, 21, 96, 3, ink=False) == "You" and read(picture, 14, 96, 3) == "Max", \
                    "the panel does not mark our turn"
                self.turns_marked += 1
            if top == "Your turn" and self.legal is not None:
                up = raised(picture, len(self.legal))
                assert up and all(self.legal[i] for i in up), "the cursor is on a card that may not be played"
                self.cursor_checks += 1
        if not searching:
            self.header = header
        self.searching = searching
        if framed(picture):
            self.run += 1
        elif self.run:
            self.holds.append((self.run, self.pressed))
            self.run, self.pressed = 0, False


def searched(dev: Device, watch: Watch) -> bool:
    """Run until the computer's search shows during the pace, or its turn is over; True if it did."""
    for _ in range(200):
        if watch.searching or dev.waiting:
            break
        dev.run(1)
    return watch.searching


@pytest.mark.parametrize("game_row,deal,unframed", [(1, SMALL_DEAL, 10), pytest.param(0, CLASSIC_DEAL, 20, marks=pytest.mark.slow)],
                         ids=["small", "classic"])
def test_a_hand_against_master_on_the_buttons_reads_as_a_player_expects(firmware_hex, firmware_elf, game_row, deal,
                                                                        unframed):
    # the first level is Club: two presses on to Master
    with booted(firmware_hex, adc_seed=3) as dev:
        dev.menu("settings")
        dev.change_settings({"game": game_row, "ai": 2})
        dev.tap("B")
        enter_deal(dev, deal)
        game = ButtonGame(dev)
        game.start()
        emu = dev.emu
        header = dev.log
        watch = Watch(dev, hook_address(firmware_elf))
        dev.observer = watch
        checks = {"kept": 0, "message": 0, "marked": 0}
        while game.next < len(game.lines):
            line = game.lines[game.next]
            parts = line.split()
            card = parse_card(parts[2][2:] if parts[2].startswith("0:") else parts[3][2:])
            lead = None if parts[2].startswith("0:") else parse_card(parts[2][2:])
            dev.wait_turn()
            order = game.aim(lead)
            # the cursor starts on a card that may be played, and only it is raised
            assert raised(emu.screen(), len(order)) == [game.selected], line
            legal = [lead is None or suit_of(c) == suit_of(lead) or
                     not any(suit_of(h) == suit_of(lead) for h in order) for c in order]
            if not checks["message"] and not all(legal):  # a wrong card: its message stays a second
                wrong = legal.index(False)
                watch.legal = None  # we move the cursor over wrong cards ourselves, for the rest of this turn
                dev.tap("RIGHT", (wrong - game.selected) % len(order))
                game.selected = wrong
                dev.tap("A")
                top = emu.screen()[:128]
                for _ in range(60):
                    dev.run(1)
                    assert emu.screen()[:128] == top, "the message went before a second"
                checks["message"] += 1
            steps = order.index(card) - game.selected  # along the row, never wrapping: a suit's cards lie together
            dev.tap("RIGHT" if steps > 0 else "LEFT", abs(steps))
            dev.tap("A")
            left = len(order) - 1 + (1 if parts[3].startswith("0:") and "take=" in line else 0)
            game.selected = min(order.index(card), max(left - 1, 0))
            game.held.discard(card)
            got = re.search(r" (?:take|draw)=0:(\S+)", line)
            if got:
                game.held.add(parse_card(got.group(1)))
            game.next += 1
            nxt = game.lines[game.next] if game.next < len(game.lines) else ""
            watch.legal = None
            if nxt.startswith("trick ") and nxt.split()[2].startswith("1:"):  # the computer leads next
                nlead = parse_card(nxt.split()[2][2:])
                watch.legal = [suit_of(c) == suit_of(nlead) or not any(suit_of(h) == suit_of(nlead) for h in game.held)
                               for c in game.order()]
            ends = parts[3].startswith("0:")  # our card finished the trick
            if ends and watch.legal is not None and not checks["kept"] and searched(dev, watch):
                # it won and searches its lead during the trick's pace (a search of frames, not one
                # over within a frame, as a small stage 2 can be): a press then is kept for our turn
                watch.pressed = True
                legal, watch.legal = watch.legal, None  # the kept press may move the cursor onto any card
                dev.tap("RIGHT")
                dev.wait_turn()
                dev.run(1)
                order = game.order()
                game.aim(nlead)
                game.selected = (game.selected + 1) % len(order)
                assert raised(emu.screen(), len(order)) == [game.selected], "the press made while it searched was lost"
                dev.waiting = True  # the turn is still ours for the loop above
                game.selected = (game.selected - 1) % len(order)  # the loop aims again: undo our move there
                dev.tap("LEFT")
                watch.legal = legal
                checks["kept"] += 1
            elif got and ends:  # the card we got is marked in the hand once it has slid there
                new = game.order().index(parse_card(got.group(1)))
                n = len(game.order())
                ink = []
                for _ in range(220):
                    dev.run(1)
                    ink.append(corner_ink(emu.screen(), new, n))
                assert min(ink) < 0.4 < max(ink), (line, min(ink), max(ink))
                checks["marked"] += 1
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
        unpressed = [n for n, pressed in watch.holds if not pressed]
        assert len(unpressed) >= unframed and min(unpressed) >= HOLD, unpressed  # the last trick's is cut by the scoreboard
        assert watch.searched_frames >= 20 and watch.cursor_checks >= 50, (watch.searched_frames, watch.cursor_checks)
        assert watch.turns_marked >= watch.cursor_checks
        assert watch.moods == {"neutral", "blinking", "thinking", "pleased", "sulking"}, watch.moods
        print(f"{len(watch.holds)} tricks framed {min(unpressed)}-{max(unpressed)} frames without a press; "
              f"{watch.searched_frames} frames of searches with the header unchanged; "
              f"{watch.cursor_checks} frames of 'Your turn' with the cursor on a card that may be played; "
              f"the opponent's faces: {', '.join(sorted(watch.moods))}")
