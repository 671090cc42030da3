"""Screenshots of the real firmware in the emulator (`make screenshots`).

``python -m generator.targets.screenshots HEX OUT_DIR`` walks the menus with
the buttons, plays as a person would (:mod:`.buttons`) and saves each screen
as a PNG: the title once its cards are dealt in, a hand being dealt, each step
of a stage-1 trick at the normal speed (and the whole trick as a GIF), the
computer thinking, a slam's scoreboard, and the opponent's six moods cut from
the frames that showed them. With ``--fx PACKAGE`` it takes the FX edition's
from its .arduboy (``fx_*.png``): the power-on's splash and title (and both as
a GIF), the deal, each opponent at the table greeting you, its coach.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from ..ai.persona import OPPONENTS
from ..ai.players import DEVICE_PLAYERS, FIRST_LEVEL
from ..codegen.sprites import SPECS
from ..engine.display import COACH
from .buttons import SCREEN, ButtonGame, Device, Human, PoorStage2
from .emulator import Backend, Emulator, EmulatorError, backend, frame_to_image, save_gif
from .screentext import HAND_END_FACE, MOODS, TABLE_FACE, mood, read


# The deals the pictures are taken from (found with the engine: Human against Master): in 2 the
# computer leads the first trick of a Classic hand; in 3 it takes every trick of a Small Whist hand.
LEADS_FIRST, SLAM = 2, 3
# A single Classic hand at Club in which seat 0's poor stage 2 (buttons.PoorStage2) loses 7 tricks:
# two pages of the FX coach.
COACH_DEAL = 105
# Frames: from the ready line to the title with its cards dealt in (the FX edition's splash first); from
# the deal's A to half of the hand dealt; to the trump turned up and stopped flashing, the greeting on.
INTRO, DEALT, GREETED = 100, 14, 70


def enter_deal(dev: Device, seed: int, last: int = 0, has_save: bool = False) -> None:
    """Play deal number ``seed`` from the menu; the entry starts at the ``last`` deal played (0 after
    power-on) with the cursor on the last digit."""
    dev.menu("deal", has_save)
    dev.wait_screen("deal")
    for digit, was in zip(reversed(f"{seed:010d}"), reversed(f"{last:010d}")):
        dev.tap("UP", (int(digit) - int(was)) % 10)
        dev.tap("LEFT")
    dev.tap("A", 2 if has_save else 1)  # over a saved game the first A warns



def coach_hand(dev: Device, human: Human, settings: dict[str, int] | None = None, deal: int = COACH_DEAL) -> ButtonGame:
    """A single Classic hand (target 2, fast) with ``settings`` on top, deal ``deal`` from the menu, seat 0
    played by ``human``: where the FX coach's pictures and its tests start (the game started)."""
    dev.menu("settings")
    dev.change_settings({"target": 2, "speed": 1, **(settings or {})})
    dev.tap("B")
    enter_deal(dev, deal)
    game = ButtonGame(dev, human=human)
    game.start()
    return game


def ask_hint(dev: Device, frames: int = 600) -> bool:
    """DOWN on a stage-2 turn, then frames until the hint's line shows (its search): True if it did."""
    dev.tap("DOWN")
    for _ in range(frames):
        if read(dev.emu.screen(), 0) == COACH["hint"]:
            return True
        dev.run(1)
    return False

def leave(dev: Device) -> None:
    """From the table to the menu, losing the hand in progress (the pause, B twice): a turn it was
    waiting for is no longer awaited (the next game's first wait must not return on it)."""
    dev.tap("UP")
    dev.wait_screen("pause")
    dev.tap("B", 2)
    dev.wait_screen("menu")
    dev.waiting = False


class Saver:
    """Writes screens as PNGs into a folder, ``prefix`` before each name, and lists what it wrote."""

    def __init__(self, out_dir: str | Path, scale: int, prefix: str = "") -> None:
        self.out, self.scale, self.prefix = Path(out_dir), scale, prefix
        self.out.mkdir(parents=True, exist_ok=True)
        self.saved: list[Path] = []

    def __call__(self, picture: bytes, name: str) -> None:
        path = self.out / f"{self.prefix}{name}.png"
        frame_to_image(picture, self.scale).save(path, format="PNG")
        self.saved.append(path)


def take(hex_path: str | Path, out_dir: str | Path, scale: int = 2, emulator: Backend | None = None) -> list[Path]:
    """Save the menus, each step of a stage-1 trick at the normal speed (and the whole trick as a GIF),
    the computer thinking on its first decision, the scoreboard with a slam and the game's end, as PNGs,
    and ``faces.png``: each of the opponent's moods from the first frame that showed it.

    ``emulator`` picks the back-end (default avr8js; ProjectABE's pictures are its canvas).
    """
    save = Saver(out_dir, scale)
    out, saved = save.out, save.saved

    with Emulator(hex_path, adc_seed=5, backend=emulator) as emu:
        dev = Device(emu)
        dev.boot()
        dev.run(INTRO)
        save(emu.screen(), "title")
        dev.tap("A")
        save(emu.screen(), "menu")
        dev.menu("settings")
        dev.change_settings({"ai": 2})  # Master
        dev.tap("UP", 3)  # back to the first row
        dev.settings_row = 0
        save(emu.screen(), "settings")
        dev.tap("B")
        dev.menu("rules")
        save(emu.screen(), "rules")
        dev.tap("B")

        # Classic 52 at the normal speed: the computer leads and thinks under the first trick's notice;
        # the first frame of each of the opponent's moods at the table is kept
        faces: dict[str, bytes] = {}

        def watch(picture: bytes) -> None:
            if dev.screen == SCREEN["table"]:
                faces.setdefault(mood(picture, *TABLE_FACE) or "", picture)

        dev.observer = watch
        enter_deal(dev, LEADS_FIRST)
        dev.run(DEALT)
        save(emu.screen(), "deal")
        game = ButtonGame(dev)
        game.start()
        dev.run(6 + 4 * 13 - DEALT)  # the deal over (4 frames a card), its first search begun
        save(emu.screen(), "thinking")
        game.play_hand(tricks=1)
        # each step of the next stage-1 trick whose last card is ours, from our press to our next turn
        while not (game.lines[game.next].split()[3].startswith("0:") and "take=" in game.lines[game.next]):
            game.play_hand(tricks=1)
        dev.wait_turn()
        dev.waiting = True
        dev.run(30)  # past the flashing of a trump led (24 frames)
        save(emu.screen(), "trick_1_lead")
        game.play_hand(tricks=1)
        pictures = [emu.screen()] + emu.play(230, record=True)
        for offset, name in ((8, "trick_2_answer"), (60, "trick_3_taken"), (118, "trick_4_slide"),
                             (170, "trick_5_drawn")):
            save(pictures[offset], name)
        gif = out / "trick.gif"
        save_gif(pictures, gif, frame_ms=16, scale=scale)
        saved.append(gif)
        save(emu.screen(), "table")
        while not faces.keys() >= set(MOODS[:-1]) and game.next < len(game.lines) - 1:  # all but triumphant
            game.play_hand(tricks=1)
        dev.observer = None
        leave(dev)

        # Small Whist, a single hand, fast: Master takes every trick
        dev.menu("settings", has_save=True)
        dev.change_settings({"game": 1, "target": 2, "speed": 1})
        dev.tap("B")
        dev.read()
        dev.log = ""  # the next game's header is the one to read
        enter_deal(dev, SLAM, last=LEADS_FIRST, has_save=True)
        game = ButtonGame(dev)
        game.start()
        game.play_hand()
        dev.wait_screen("hand_end")
        save(emu.screen(), "hand_end")
        faces[mood(emu.screen(), *HAND_END_FACE) or ""] = emu.screen()
        game.finish_hand()
        dev.run(10)
        save(emu.screen(), "game_over")
        dev.tap("B")  # the menu (A: a rematch)
        dev.menu("stats")
        save(emu.screen(), "stats")
        dev.tap("B")
        dev.wait_screen("menu")
    # the opponent's moods side by side, each cut from the first real frame that showed it, four times larger
    missing = [m for m in MOODS if m not in faces]
    if missing:
        raise EmulatorError(f"the opponent's face never showed {', '.join(missing)}")
    w, h = next(s for s in SPECS if s.name == "face").frame
    strip = Image.new("1", ((w + 2) * len(MOODS), h + 2))
    for i, name in enumerate(MOODS):
        x, y = HAND_END_FACE if name == "triumphant" else TABLE_FACE
        strip.paste(frame_to_image(faces[name]).crop((x - 1, y - 1, x + w + 1, y + h + 1)), ((w + 2) * i, 0))
    path = out / "faces.png"
    strip.resize((strip.width * 2 * scale, strip.height * 2 * scale), Image.NEAREST).save(path, format="PNG")
    saved.append(path)
    return saved


def take_coach(hex_file: Path, fx, save: Saver, emulator: Backend | None = None) -> None:
    """The FX coach in a single hand of Classic 52 at Club (deal COACH_DEAL), seat 0 played with a poor stage 2
    (:class:`.buttons.PoorStage2`): the hint on its first stage-2 turn (``fx_hint``), the scoreboard
    (``fx_hand_end``) and the coach's first page (``fx_coach``)."""
    with Emulator(hex_file, adc_seed=5, backend=emulator, fx=fx) as emu:
        dev = Device(emu)
        dev.boot()
        game = coach_hand(dev, PoorStage2())
        game.play_hand(tricks=game.variant.deck.hand_size)
        dev.wait_turn()
        ask_hint(dev)
        save(emu.screen(), "hint")
        dev.waiting = True  # the turn goes on
        game.play_hand()
        dev.wait_serial("score ")
        dev.wait_screen("hand_end")
        save(emu.screen(), "hand_end")
        dev.tap("DOWN")
        save(emu.screen(), "coach")


def take_fx(package: str | Path, out_dir: str | Path, scale: int = 2, emulator: Backend | None = None) -> list[Path]:
    """The FX edition from its .arduboy package, as a player loads it (ProjectABE reads the package's
    data image the same way): the whole data's check at boot (ProjectABE gives the game no save block
    to remember it in, so every boot there checks), the splash, the title (``fx_intro.gif`` from power-on),
    the menu, the rules, the deal (``fx_deal.gif``) and a table, as ``fx_*.png``; each opponent greeting a
    game's first hand at the table, ``fx_opponent_NAME.png``; the coach (:func:`take_coach`); and
    ``fx_no_data.png``, its hex run
    without the data."""
    from .arduboyfile import read

    program = read(package)
    save = Saver(out_dir, scale, "fx_")
    hex_file = save.out / ".fx.hex"
    hex_file.write_text(program.hex)
    try:
        with Emulator(hex_file, adc_seed=5, backend=emulator, fx=program.fx) as emu:
            emu.run_ms(1500)
            save(emu.screen(), "checking")
            dev = Device(emu)
            dev.boot()
            intro = [emu.screen()] + emu.play(INTRO, record=True)
            save(intro[45], "splash")  # the card turned over
            save(intro[-1], "title")
            gif = save.out / "fx_intro.gif"
            save_gif(intro, gif, frame_ms=16, scale=scale)
            save.saved.append(gif)
            dev.tap("A")
            save(emu.screen(), "menu")
            dev.menu("rules")
            save(emu.screen(), "rules")
            dev.tap("B")
            enter_deal(dev, LEADS_FIRST)
            dealing = [emu.screen()] + emu.play(GREETED, record=True)
            save(dealing[DEALT], "deal")
            gif = save.out / "fx_deal.gif"
            save_gif(dealing, gif, frame_ms=16, scale=scale)
            save.saved.append(gif)
            game = ButtonGame(dev)
            game.start()
            game.play_hand(tricks=2)
            dev.wait_turn()
            dev.run(30)
            save(emu.screen(), "table")
        ones = Saver(out_dir, scale, "fx_opponent_")
        for level, player in enumerate(DEVICE_PLAYERS):
            with Emulator(hex_file, adc_seed=5, backend=emulator, fx=program.fx) as emu:
                dev = Device(emu)
                dev.boot()
                dev.menu("settings")
                dev.change_settings({"ai": (level - DEVICE_PLAYERS.index(FIRST_LEVEL)) % len(DEVICE_PLAYERS)})
                dev.tap("B")
                enter_deal(dev, LEADS_FIRST)
                dev.run(GREETED)
                ones(emu.screen(), OPPONENTS[player].lower())
        save.saved += ones.saved
        take_coach(hex_file, program.fx, save, emulator)
        with Emulator(hex_file, backend=emulator) as emu:  # no chip data
            emu.run_ms(500)
            save(emu.screen(), "no_data")
    finally:
        hex_file.unlink()
    return save.saved


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    fx = args[:1] == ["--fx"]
    args = args[1:] if fx else args
    name = None
    if len(args) == 4 and args[2] == "--emulator":
        name = args[3]
    elif len(args) != 2:
        print("usage: python -m generator.targets.screenshots [--fx] HEX_OR_PACKAGE OUT_DIR "
              "[--emulator avr8js|projectabe]  (--fx: the FX edition's .arduboy)", file=sys.stderr)
        return 2
    try:
        chosen = backend(name)
        for path in (take_fx if fx else take)(args[0], args[1], emulator=chosen):
            print(f"wrote {path}")
    except EmulatorError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
