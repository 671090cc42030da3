"""Every command that takes a path, given what no real file of its kind is: a device (/dev/zero), a FIFO, a
folder, a 50 MB line. Each answers with one line (`error: ...`), a non-zero exit, within 2 s and under 200 MB,
without blocking on the FIFO or reading the device for ever (generator/engine/bounded.py).

The commands run in children of one measuring process (measured.py), from the command's start to its exit,
after the Python start every command pays (about 0.3 s). The 2 s are processor time, the processes a command
starts included: on a machine shared with other work the wall clock measures the others too (a command stuck
on a FIFO uses none, and is caught by the wall clock's 10 s). The memory is the peak, those processes included.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
import tty
from pathlib import Path

import pytest

from measured import run_all

ROOT = Path(__file__).resolve().parents[2]
HEX = str(ROOT / "distributable" / "Whist.hex")
LINE_BYTES = 50 << 20
SECONDS, MEGABYTES = 2.0, 200
QUOTED = 60  # the most of the 50 MB line an error may show (40 characters and the words around them)

pytestmark = pytest.mark.xdist_group("bounded_input")  # one worker runs them all, in one measuring process

# The commands, "{}" where the path goes; a path given as a folder (--assets, --projectabe) is one too.
COMMANDS = [
    ["review", "{}"], ["replay", "{}"], ["upload", "{}"], ["size", "{}"],
    ["emulate", "{}"], ["emulate", "--arduboy", "{}"], ["emulate", HEX, "--eeprom-in", "{}"],
    ["crosstest", "--hex", "{}", "--games", "1"], ["crosstest", "--arduboy", "{}", "--games", "1"],
    ["bench", "--hex", "{}"], ["bench", "--hex", HEX, "--elf", "{}"],
    ["review", "--emulator", "--hex", "{}"],
    # serial ports: a device on purpose, anything else refused
    ["review", "--port", "{}"], ["trace", "--seed", "1", "--port", "{}"], ["upload", HEX, "--port", "{}"],
    # folders
    ["generate", "--assets", "{}", "--out", "{out}"], ["projectabe", "where", "--projectabe", "{}"],
]
INPUTS = ["device", "fifo", "folder", "line"]
# Standard input, for the commands that read '-'.
PIPED = [(["review", "-"], "device"), (["review", "-"], "line"), (["replay", "-"], "device"), (["replay", "-"], "line")]


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, str]:
    """Where each kind of bad input is, by name (and "out": a folder to generate into)."""
    tmp = tmp_path_factory.mktemp("bounded")
    os.mkfifo(tmp / "fifo")
    (tmp / "folder").mkdir()
    with open(tmp / "line", "wb") as f:  # a trace's first line, then one line of 50 MB
        f.write(b"game v1 seed=1 deck=28 scoring=last13 target=0 p0=human p1=greedy\nhand 1 dealer=1 ")
        f.write(b"x" * (LINE_BYTES - f.tell()))
    return {"device": "/dev/zero", "fifo": str(tmp / "fifo"), "folder": str(tmp / "folder"),
            "line": str(tmp / "line"), "out": str(tmp / "out")}


def plant(folder: Path, name: str, what: str, places: dict[str, str]) -> None:
    """Put ``what`` (device, fifo, folder, line) at folder/name."""
    target = folder / name
    target.unlink(missing_ok=True)
    if what == "fifo":
        os.mkfifo(target)
    elif what == "folder":
        target.mkdir()
    else:
        target.symlink_to(places[what])


@pytest.fixture(scope="module")
def results(places, tmp_path_factory) -> dict[tuple[str, str], dict]:
    """Every case run once, measured: (the command as its id, the input) -> result."""
    cases, keys = [], []
    for command in COMMANDS:
        for what in INPUTS:
            keys.append((" ".join(command), what))
            cases.append({"args": [a.format(places[what], out=places["out"]) for a in command]})
    for command, what in PIPED:
        keys.append((" ".join(command), f"stdin {what}"))
        cases.append({"args": command, "stdin": places[what]})
    for what in INPUTS:  # inside a folder a command is given: a sprite, a file of ProjectABE's build
        assets = tmp_path_factory.mktemp("assets")
        shutil.copytree(ROOT / "assets", assets, dirs_exist_ok=True)
        plant(assets, "title.png", what, places)
        keys.append(("generate --assets ASSETS", f"title.png {what}"))
        cases.append({"args": ["generate", "--assets", str(assets), "--out", places["out"]]})
        build = tmp_path_factory.mktemp("projectabe")
        (build / "app.js").write_text("// a build\n")
        (build / "layouts").mkdir()
        plant(build / "layouts", "Sim.html", what, places)
        keys.append(("projectabe where --projectabe BUILD", f"Sim.html {what}"))
        cases.append({"args": ["projectabe", "where", "--projectabe", str(build)]})
    return dict(zip(keys, run_all(cases)))


CASES = ([(" ".join(c), w) for c in COMMANDS for w in INPUTS] + [(" ".join(c), f"stdin {w}") for c, w in PIPED]
         + [("generate --assets ASSETS", f"title.png {w}") for w in INPUTS]
         + [("projectabe where --projectabe BUILD", f"Sim.html {w}") for w in INPUTS])


@pytest.mark.parametrize("case", CASES, ids=[f"{c} <- {w}" for c, w in CASES])
def test_one_line_soon_and_small(results, case):
    r = results[case]
    assert not r["timed_out"], f"still running after 10 s: {r}"
    lines = r["stderr"].splitlines()
    assert r["code"] != 0 and len(lines) == 1 and lines[0].startswith("error: "), r
    assert "Traceback" not in r["stderr"] and "\x00" not in lines[0] and len(lines[0]) < 300
    assert r["cpu"] < SECONDS and r["peak_mb"] < MEGABYTES, r
    if "line" in case[1]:
        assert "x" * QUOTED not in lines[0], "a long stretch of the 50 MB line is quoted"


def test_what_each_refusal_says(results, places):
    """The path, what it is, what to do: the device, the FIFO and the folder by name; the long line by its number
    and the start of it."""
    said = {what: results[("review {}", what)]["stderr"].strip() for what in INPUTS}
    assert said["device"] == ("error: /dev/zero: a device, not a file; give a trace written by 'whist trace' or "
                              "saved from the device, or no file to listen to the Arduboy")
    assert said["fifo"].startswith(f"error: {places['fifo']}: a FIFO (named pipe), not a file; give a trace")
    assert said["folder"].startswith(f"error: {places['folder']}: a folder, not a file; give a trace")
    assert said["line"].startswith(f"error: {places['line']}: line 2 is longer than any line of a trace "
                                   "(256 characters at most): 'hand 1 dealer=1 xxxxxxxxxxxxxxxxxxxxxxxx...'; give")
    assert results[("upload {}", "line")]["stderr"].startswith(
        f"error: {places['line']}: 50 MB, more than an Intel HEX file holds (512 KB at most); ")


def test_a_serial_port_that_sends_no_line_end_is_refused_line_by_line():
    """A port is a device on purpose (whist review --port, whist trace --port): read as it comes, one line at
    a time, a line longer than a trace's refused as soon as it is (here a terminal sending x's for ever)."""
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo filling the terminal's buffer before the command sets it so itself
    port, stop = os.ttyname(slave), threading.Event()

    def send() -> None:
        os.set_blocking(master, False)
        while not stop.is_set():
            for act in (lambda: os.write(master, b"x" * 256), lambda: os.read(master, 4096)):  # what `trace` sends
                try:
                    act()
                except BlockingIOError:
                    pass
            time.sleep(0.005)

    sender = threading.Thread(target=send)
    sender.start()
    try:
        results = run_all([{"args": ["review", "--port", port]}, {"args": ["trace", "--seed", "1", "--port", port]}])
    finally:
        stop.set()
        sender.join()
        os.close(master)
        os.close(slave)
    for r in results:
        assert not r["timed_out"] and r["code"] == 1, r
        last = r["stderr"].splitlines()[-1]
        assert r["stderr"].count("error: ") == 1 and last.startswith(f"error: {port}: line 1 is longer than any "
                                                                     "line of a trace (256 characters at most): 'xxx")
        assert last.endswith("...'; is Whist running on the device?")
        assert r["cpu"] < SECONDS and r["peak_mb"] < MEGABYTES, r
