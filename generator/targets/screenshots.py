"""Screenshots of the real firmware in the emulator (`make screenshots`).

``python -m generator.targets.screenshots HEX OUT_DIR`` walks the menus with
the buttons, plays a game as a person would (:mod:`.buttons`) and saves each
screen as a PNG plus an animated GIF of one stage-1 trick at the normal speed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .buttons import ButtonGame, Device, button_game
from .emulator import Backend, Emulator, EmulatorError, backend, save_gif


def take(hex_path: str | Path, out_dir: str | Path, scale: int = 2, emulator: Backend | None = None) -> list[Path]:
    """Save the screens of a short game and the menus as PNGs, and one stage-1 trick as a GIF.

    ``emulator`` picks the back-end (default avr8js; ProjectABE's pictures are its canvas).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    saved = []

    def shot(dev: Device, name: str) -> None:
        path = out / f"{name}.png"
        dev.emu.screenshot(path, scale)
        saved.append(path)

    with Emulator(hex_path, adc_seed=5, backend=emulator) as emu:
        dev = Device(emu)
        dev.boot()
        shot(dev, "title")
        dev.tap("A")
        shot(dev, "menu")
        dev.menu("settings")
        # Small Whist, a single hand, fast: a whole game in a few seconds
        dev.change_settings({"game": 1, "target": 3, "speed": 1})
        dev.tap("UP", 4)  # back to the first row
        shot(dev, "settings")
        dev.tap("B")
        dev.menu("rules")
        shot(dev, "rules")
        dev.tap("B")
        dev.menu("play")
        game = ButtonGame(dev)
        game.start()
        game.play_hand(tricks=2)
        dev.run(30)
        shot(dev, "table")
        game.play_hand()
        dev.wait_serial("score ")
        dev.wait_screen("hand_end")
        shot(dev, "hand_end")
        game.finish_hand()
        dev.run(10)
        shot(dev, "game_over")
        dev.tap("A")
        dev.menu("stats")
        shot(dev, "stats")

    # one stage-1 trick at the normal speed, from the card played to the draw (avr8js records frames)
    with button_game(hex_path, adc_seed=5) as game:
        game.play_hand(tricks=2)
        emu = game.dev.emu
        pictures = [emu.screen()] + emu.play(150, record=True)
        gif = out / "trick.gif"
        save_gif(pictures, gif, frame_ms=20, scale=scale)
        saved.append(gif)
    return saved


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    name = None
    if len(args) == 4 and args[2] == "--emulator":
        name = args[3]
    elif len(args) != 2:
        print("usage: python -m generator.targets.screenshots HEX OUT_DIR [--emulator avr8js|projectabe]",
              file=sys.stderr)
        return 2
    try:
        chosen = backend(name)
    except EmulatorError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for path in take(args[0], args[1], emulator=chosen):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
