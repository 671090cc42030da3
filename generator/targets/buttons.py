"""A person at the buttons of the emulated device: screens followed by their markers, and a player.

:class:`Device` follows the firmware's screen changes (GPIOR0 markers) and
presses buttons; :class:`ButtonGame` plays seat 0 through LEFT/RIGHT/A,
picking the cards the engine's stand-in picks; :func:`button_game` boots a
hex and opens such a game. The UI tests, the screenshots, the think-time
table and the coach's live mode all drive the device this way.
"""

from __future__ import annotations

import atexit
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..ai.basic import GreedyPlayer
from ..ai.players import HUMAN, seats
from ..codegen.protocol import MARK_TURN
from ..engine.cards import SUITS, cards_of, parse_card, rank_of, suit_of
from ..engine.display import suit_order
from ..engine.game import play_game
from ..engine.rules import Variant
from ..engine.state import Observation
from .emulator import AVR8JS, Backend, Emulator, FxImage

# Screen ids the firmware writes to GPIOR0 on each change (enum Screen in firmware/app.cpp).
SCREENS = ("title", "menu", "table", "pause", "hand_end", "game_over", "settings", "stats", "rules", "credits",
           "deal", "auto")
SCREEN = {name: i + 1 for i, name in enumerate(SCREENS)}
# Main-menu entries in order; "continue" is listed only with a saved game.
MENU = ("play", "continue", "deal", "settings", "stats", "rules", "credits")
SETTINGS = ("game", "scoring", "target", "ai", "speed", "suits", "click", "sound")


class Human(GreedyPlayer):
    """The engine's stand-in for the person at the buttons: greedy choices, traced as the human."""

    name = HUMAN


class PoorStage2(Human):
    """The stand-in with a poor stage 2: the lowest card it may play (lowest rank, then S H D C), which
    throws tricks away, so that the FX edition's coach has losses to show (its test and screenshots)."""

    def choose(self, obs: Observation, legal: int) -> int:
        if obs.stage == 1:
            return super().choose(obs, legal)
        return min(cards_of(legal), key=lambda c: (rank_of(c), suit_of(c)))


class Device:
    """An emulator with the firmware's screen changes followed through the GPIOR0 markers."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.screen = 0
        self.menu_last: str | None = None  # the main menu's last choice, where its cursor starts
        self.settings_row = 0  # where change_settings left the settings cursor (the firmware keeps it)
        self.waiting = False  # the table began waiting for the person's card (MARK_TURN) since last asked
        self.turn_at = 0  # the cycle of the last MARK_TURN
        self.pressed_at = 0  # the cycle of the last tap's press
        self.observer: Callable[[bytes], None] | None = None  # shown every frame's picture, when set
        self.log = ""  # serial output consumed so far

    def _follow(self) -> None:
        for value, cycle in self.emu.markers():
            if value == MARK_TURN:
                self.waiting = True
                self.turn_at = cycle
            else:
                self.screen = value

    def run(self, frames: int) -> None:
        if self.observer:
            for _ in range(frames):
                assert self.emu.run_frames(1) == 1, "the firmware stopped drawing"
                self._follow()
                self.observer(self.emu.screen())
            return
        assert self.emu.run_frames(frames) == frames, "the firmware stopped drawing"
        self._follow()

    def wait_turn(self, frames: int = 3000) -> None:
        """Run until the table waits for the person's card (each wait is reported once)."""
        for _ in range(frames):
            if self.waiting:
                self.waiting = False
                return
            self.run(1)
        raise AssertionError(f"the table did not wait for the person's card within {frames} frames")

    def tap(self, button: str, times: int = 1) -> None:
        for _ in range(times):
            self.pressed_at = self.emu.cycles
            self.emu.press(button)
            self.run(3)
            self.emu.release(button)
            self.run(2)

    def wait_screen(self, name: str, frames: int = 2000) -> None:
        for _ in range(frames):
            if self.screen == SCREEN[name]:
                self.run(2)  # the frame that switched still shows the old screen
                return
            self.run(1)
        raise AssertionError(f"no {name} screen after {frames} frames (at {SCREENS[self.screen - 1]})")

    def wait_serial(self, text: str, max_cycles: int = 400_000_000, regex: bool = False) -> None:
        assert self.emu.run_until_serial(text, regex=regex, max_cycles=max_cycles), f"no {text!r} on serial"
        self._follow()

    def read(self) -> str:
        out = self.emu.serial_read().decode()
        self.log += out
        return out

    def boot(self) -> None:
        assert self.emu.run_until_ready(), "no ready line on serial"
        self._follow()
        self.read()
        self.run(2)

    def menu(self, item: str, has_save: bool = False) -> None:
        """From the title or the menu, open a main-menu entry.

        The menu's cursor starts on the entry chosen last (on Continue, or Play
        without a save, the first time after power-on), so this remembers it too.
        """
        if self.screen != SCREEN["menu"]:
            self.tap("A")
            self.wait_screen("menu")
        items = [m for m in MENU if m != "continue" or has_save]
        want = self.menu_last or "continue"
        at = items.index(want) if want in items else 0
        self.tap("DOWN", (items.index(item) - at) % len(items))
        self.tap("A")
        self.menu_last = item

    def change_settings(self, changes: dict[str, int]) -> None:
        """In the settings screen, press RIGHT `n` times on each named row.

        The cursor starts where it was left (the first row after power-on).
        """
        for name, n in changes.items():
            self.tap("DOWN", (SETTINGS.index(name) - self.settings_row) % len(SETTINGS))
            self.settings_row = SETTINGS.index(name)
            self.tap("RIGHT", n)


class ButtonGame:
    """Plays seat 0 of the device's game with LEFT/RIGHT/A, picking the cards :class:`Human` picks.

    The engine plays the same game first (same seed and variant, :class:`Human`
    against the device's opponent); its trace says which card seat 0 plays in
    each trick. The device keeps a hand's trace back until the hand is over,
    so each press waits for the table's turn marker (MARK_TURN), and the
    whole hand's trace is compared when it arrives. The cursor is followed as
    the device moves it: it starts each turn on the card last played from if
    that may be played, else on the leftmost card that may.
    """

    def __init__(self, device: Device, style: str = "alternate", clicks: int = 1, human: Human | None = None) -> None:
        self.dev = device
        self.style = style
        self.clicks = clicks  # A presses to play a card: 2 with single-click play off
        self.human = human or Human()  # who picks seat 0's cards (traced as the human)

    def start(self, hand: int = 1) -> None:
        """After Play (or Continue at `hand`): read the game header, play the game in the engine."""
        if "game " not in self.dev.log:  # a continued game's header came before
            self.dev.wait_serial("game ")
            self.dev.read()
        header = next(line for line in self.dev.log.splitlines() if line.startswith("game "))
        fields = dict(kv.split("=") for kv in header.split()[2:])
        self.seed = int(fields["seed"])
        self.variant = Variant.make(int(fields["deck"]), fields["scoring"], int(fields["target"]))
        self.want = play_game(self.seed, self.variant, seats(self.seed, (self.human, fields["p1"]))).lines
        self.hand = hand
        self._new_hand()

    def _new_hand(self) -> None:
        first = self.want.index(next(x for x in self.want if x.startswith(f"hand {self.hand} ")))
        end = next(i for i in range(first, len(self.want)) if self.want[i].startswith("score "))
        self.lines = self.want[first:end]
        self.held = {parse_card(c) for c in self.lines[1].split()[1:]}
        self.trump = SUITS.index(self.lines[4].split()[1])
        self.selected = 0
        self.next = 5  # the next trick line

    def order(self) -> list[int]:
        """Seat 0's hand as the device shows it."""
        return [c for s in suit_order(self.trump, self.style) for c in sorted(self.held, reverse=True)
                if suit_of(c) == s]

    def aim(self, lead: int | None) -> list[int]:
        """The hand in order, with the cursor put where the device puts it when the turn begins."""
        order = self.order()
        follow = lead is not None and any(suit_of(c) == suit_of(lead) for c in order)
        legal = [not follow or suit_of(c) == suit_of(lead) for c in order]
        if not (self.selected < len(order) and legal[self.selected]):
            self.selected = legal.index(True)
        return order

    def play_hand(self, tricks: int | None = None) -> None:
        """Play on to the end of the hand (or `tricks` more tricks) through the buttons."""
        stop = len(self.lines) if tricks is None else min(len(self.lines), self.next + tricks)
        while self.next < stop:
            line = self.lines[self.next]
            parts = line.split()
            card = parse_card(parts[2][2:] if parts[2].startswith("0:") else parts[3][2:])
            lead = None if parts[2].startswith("0:") else parse_card(parts[2][2:])
            self.dev.wait_turn()
            order = self.aim(lead)
            self.dev.tap("RIGHT", (order.index(card) - self.selected) % len(order))
            self.dev.tap("A", self.clicks)
            # the device clamps its selection to the hand left right after the card is played
            left = len(order) - 1 + (1 if parts[3].startswith("0:") and "take=" in line else 0)
            self.selected = min(order.index(card), max(left - 1, 0))
            self._played(line, card)

    def _played(self, line: str, card: int) -> None:
        self.held.discard(card)
        for key in ("take", "draw"):
            m = re.search(rf" {key}=0:(\S+)", line)
            if m:
                self.held.add(parse_card(m.group(1)))
        self.next += 1

    def resumed(self, tricks: int) -> None:
        """Continue resumed the hand after its first `tricks` tricks (a new table: the cursor
        starts on the leftmost card that may be played)."""
        for line in self.lines[self.next:self.next + tricks]:
            parts = line.split()
            self._played(line, parse_card(parts[2][2:] if parts[2].startswith("0:") else parts[3][2:]))
        self.selected = 0

    def tricks_played(self) -> int:
        """The tricks of this hand played so far."""
        return self.next - 5

    def finish_hand(self) -> bool:
        """After the last trick: the hand's trace, then through the scoreboard; True when the game is over."""
        self.dev.wait_serial("score ")
        self.dev.wait_screen("hand_end")
        self.dev.read()
        over = "end winner=" in self.dev.log
        self.dev.tap("A")
        if over:
            self.dev.wait_screen("game_over")
        else:
            self.hand += 1
            self._new_hand()
        return over

    def play_game(self) -> None:
        while True:
            self.play_hand()
            if self.finish_hand():
                return

    def device_lines(self) -> list[str]:
        return [line for line in self.dev.log.splitlines() if line and not line.startswith("#")]


# One idle emulator process per back-end, kept between boots: a new Node process spends about a second
# of CPU warming its JIT (the first boot and frames run several times slower), a reload in a warm one
# costs a few hundredths. Each boot is still a power-on: Emulator.load keeps nothing of the last device.
_idle: dict[Backend, Emulator] = {}


def _close_idle() -> None:
    while _idle:
        _idle.popitem()[1].close()


atexit.register(_close_idle)


@contextmanager
def booted(hex_path: str | Path, *, adc_seed: int = 1, backend: Backend | None = None,
           eeprom: bytes | None = None, fx: FxImage | None = None) -> Iterator[Device]:
    """Boot ``hex_path`` in the emulator (to its title, the ready line read); it is powered off on exit
    (its process kept for the next boot unless the run failed). An FX edition's hex needs ``fx``, its
    chip's images."""
    emu = _idle.pop(backend or AVR8JS, None)
    if emu is not None and emu.alive:
        try:
            emu.load(hex_path, eeprom=eeprom, adc_seed=adc_seed, fx=fx)
        except BaseException:
            emu.close()
            raise
    else:
        emu = Emulator(hex_path, eeprom=eeprom, adc_seed=adc_seed, backend=backend, fx=fx)
    clean = False
    try:
        dev = Device(emu)
        dev.boot()
        yield dev
        clean = True
    finally:
        if clean and emu.alive and (backend or AVR8JS) not in _idle:
            _idle[backend or AVR8JS] = emu
        else:
            emu.close()


@contextmanager
def button_game(hex_path: str | Path, *, adc_seed: int = 1, backend: Backend | None = None,
                eeprom: bytes | None = None, settings: dict[str, int] | None = None,
                style: str = "alternate", clicks: int = 1, fx: FxImage | None = None,
                human: Human | None = None) -> Iterator[ButtonGame]:
    """Boot ``hex_path``, change ``settings`` (RIGHT presses per row, see :meth:`Device.change_settings`),
    choose Play and start a :class:`ButtonGame` on its first hand; the emulator closes on exit."""
    with booted(hex_path, adc_seed=adc_seed, backend=backend, eeprom=eeprom, fx=fx) as dev:
        if settings:
            dev.menu("settings")
            dev.change_settings(settings)
            dev.tap("B")
        dev.menu("play")
        game = ButtonGame(dev, style, clicks, human)
        game.start()
        yield game
