"""A person at `whist play`: types the first card it may play, and given answers between hands."""

from __future__ import annotations

import os
import subprocess
import sys


def play_by_typing(args: list[str], between: list[str] | None = None) -> str:
    """Run ``whist play ARGS`` to its end and return what it printed. At each card prompt the first card
    that may be played is typed; at each prompt between hands the next of ``between``, then Enter."""
    answers = iter(between or ())
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "play", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, encoding="utf-8",
                            env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    out = prompt = ""
    while ch := proc.stdout.read(1):
        out += ch
        prompt += ch
        if prompt.endswith(("Your lead: ", "Your card: ")):
            lines = out.splitlines()
            hand = next(x for x in reversed(lines) if x.startswith("Your hand:")).split(":")[1].split()
            follow = [x for x in lines[-3:] if x.startswith("You must follow suit:")]
            answer = (follow[0].split(":")[1].split() if follow else hand)[0]
        elif prompt.endswith("(q quits) "):
            answer = next(answers, "")
        else:
            continue
        proc.stdin.write(answer + "\n")
        proc.stdin.flush()
        prompt = ""
    assert proc.wait(60) == 0
    return out
