"""whist review live: a hand played on the buttons is reviewed as soon as the device sends it, and a port
that goes away keeps what was reviewed and names the hand it cut."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import needs_firmware
from generator.ai.basic import GreedyPlayer
from generator.ai.players import FIRST_LEVEL, HUMAN, seats
from generator.ai.review import Session
from generator.engine.game import play_game
from generator.engine.rules import Variant
from generator.targets.live import EVERY, Listener, emulator_chunks
from generator.targets.buttons import ButtonGame, booted

ROOT = Path(__file__).resolve().parents[2]
FRAME_S = 1 / 60  # the game's frame rate


class Person(GreedyPlayer):
    name = HUMAN


@needs_firmware
def test_a_hand_on_the_buttons_is_reviewed_when_it_ends(firmware_hex):
    """Small Whist against Club, one hand, fast: the review comes within a poll of the hand's trace, and it is
    the review of the engine's own trace of the same game (the level's search is not the point: Club's
    answers come at once)."""
    with booted(firmware_hex, adc_seed=7) as dev:
        emu = dev.emu
        dev.menu("settings")
        dev.change_settings({"game": 1, "target": 3, "speed": 1})  # 28 cards, one hand played, Club, fast
        dev.tap("B")
        dev.menu("play")
        game = ButtonGame(dev)
        game.start()
        listener = Listener(Session(demos=True))
        assert listener.feed(dev.log.encode()) == []  # the ready comment and the game line
        assert f"p1={FIRST_LEVEL}" in dev.log
        game.play_hand()  # every card of the person's through LEFT/RIGHT/A
        polls, reviews = 0, []
        for chunk in emulator_chunks(emu, frames=20 * 60):
            polls += 1
            started = time.perf_counter()
            reviews = listener.feed(chunk)
            if reviews:
                break
        took = time.perf_counter() - started
        assert len(reviews) == 1, "no review within 20 s of the person's last card"
    live = reviews[0]
    # the device's trace and the engine's agree, so the live review is the file's review
    session = Session()
    file_review = [r for n, line in enumerate(game.want, 1) if (r := session.feed(n, line)) is not None]
    assert [(d.trick, d.card, d.lost_points) for d in live.stage1 + live.stage2] == \
        [(d.trick, d.card, d.lost_points) for d in file_review[0].stage1 + file_review[0].stage2]
    assert live.duplicate is not None and live.names == (HUMAN, FIRST_LEVEL)
    # after the person's last card the computer may still play one and the table shows the trick (fast: about
    # a second); the review is made at the first poll that brings the score line
    waited = polls * EVERY * FRAME_S
    print(f"review at the poll {waited:.2f} s of game time after the person's last card; "
          f"made in {took:.2f} s (make bench measures it)")
    assert waited <= 2.0


def listen(lines: list[str], cache: Path, cut: bool) -> tuple[int, str, list[str], list[str]]:
    """Run whist review on a pty, send it ``lines``, read the review, then pull the cable (``cut``) or
    stop it with Ctrl-C; returns the port, the review's lines and its messages."""
    master, slave = os.openpty()
    port = os.ttyname(slave)
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "review", "--port", port], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                            env={**os.environ, "PYTHONIOENCODING": "utf-8", "XDG_CACHE_HOME": str(cache)},
                            # Ctrl-C as a terminal delivers it, whatever this test process's workers ignore
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stderr.readline().startswith(f"Listening to {port}")
        os.write(master, ("\n".join(lines) + "\n").encode())
        out = []
        while not (out and out[-1].startswith("Master with")):
            out.append(proc.stdout.readline().rstrip("\n"))
            assert out[-1] or len(out) < 80, out
        if cut:
            os.close(master)  # the cable is pulled while the next hand is played
        else:
            proc.send_signal(signal.SIGINT)
        code = proc.wait(30)
    finally:
        os.close(slave)
        if not cut:
            os.close(master)
        if proc.poll() is None:
            proc.kill()
    return code, port, out, proc.stderr.read().strip().splitlines()


def test_a_port_that_goes_away_keeps_the_reviews_names_the_cut_hand_and_the_game_goes_on_after(tmp_path):
    lines = play_game(21, Variant.make(28, "last13", 10), seats(21, (Person(), "original"))).lines
    scores = [i for i, line in enumerate(lines) if line.startswith("score ")]
    code, port, out, err = listen(lines[:scores[0] + 1], tmp_path, cut=True)  # the game line and hand 1
    assert code == 1 and out[0].startswith("Hand 1, you against Reg (Club)")
    assert len(err) == 1 and err[0].startswith(f"error: {port} went away during hand 2"), err
    assert "1 hand reviewed above" in err[0] and "Traceback" not in err[0]
    # plugged in again: the device sends hand 2 when it ends, without the game line; the review knows the game
    code, port, out, err = listen(lines[scores[0] + 1:scores[1] + 1], tmp_path, cut=False)
    assert code == 0 and out[0].startswith("Hand 2, you against Reg (Club)"), (out, err)
    assert err[-1] == "Stopped: 1 hand reviewed."
