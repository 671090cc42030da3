"""Every subcommand fed bad input: one error line, a non-zero exit, never a traceback.

Usage mistakes are click's (exit 2, "Error: ..."); everything else is ours
(exit 1, one "error: ..." line on stderr naming the thing and the fix).
Output into a full disk (/dev/full) runs the real command in a subprocess.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import emulator_args
from generator.cli import main
from generator.targets.emulator import AVR8JS

ROOT = Path(__file__).resolve().parents[2]
HEX = ROOT / "distributable" / "Whist.hex"
ARDUBOY = ROOT / "distributable" / "Whist.arduboy"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs node: make test installs it")


def arduboy(info: object, files: dict[str, bytes] | None = None) -> bytes:
    """A .arduboy zip with this info.json (a str is written as is) and these files (default: Whist.hex)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("info.json", info if isinstance(info, str) else json.dumps(info))
        for name, data in (files if files is not None else {"Whist.hex": HEX.read_bytes()}).items():
            z.writestr(name, data)
    return buf.getvalue()


def hex_record(address: int, data: bytes) -> str:
    body = bytes([len(data), address >> 8, address & 0xFF, 0]) + data
    return f":{body.hex().upper()}{(-sum(body)) & 0xFF:02X}\n"


# name -> content of the files each case may use (in a fresh temporary folder)
FILES: dict[str, bytes] = {
    "empty": b"",
    "text.hex": b"hello, not a hex file\n",
    "binary.hex": bytes(range(256)),
    "badsum.hex": b":020000000000FF\n:00000001FF\n",
    "junk.bin": random.Random(34).randbytes(100),
    "boot.hex": (hex_record(0x7400, b"\x00\x01") + ":00000001FF\n").encode(),
    "fake.elf": b"\x7fELF" + bytes(60),
    "trace.txt": b"game v1 seed=1 deck=52 scoring=last13 target=10 p0=greedy p1=greedy\nhand 1 dealer=9\n",
    "garbage.trace": b"\xff\xfe\x00garbage",
    "eeprom.bin": bytes(100),
    "short.arduboy": ARDUBOY.read_bytes()[:200],
    "half.arduboy": ARDUBOY.read_bytes()[: len(ARDUBOY.read_bytes()) // 2],
    "tail.arduboy": ARDUBOY.read_bytes()[:-40],
    "nullbin.arduboy": arduboy({"binaries": None}),
    "numbin.arduboy": arduboy({"binaries": 7}),
    "intsbin.arduboy": arduboy({"binaries": [1, 2]}),
    "listinfo.arduboy": arduboy([1, 2]),
    "badjson.arduboy": arduboy("{not json"),
    "noinfo.arduboy": arduboy({}, {}),  # info.json only, no hex
    "twohex.arduboy": arduboy({"binaries": []}, {"a.hex": HEX.read_bytes(), "b.hex": HEX.read_bytes()}),
    "texthex.arduboy": arduboy({"binaries": [{"filename": "Whist.hex"}]}, {"Whist.hex": b"nope"}),
    "nopng/readme.txt": b"no pictures here",
    "plain": b"a plain file, not a folder",
    "nohuman.trace": b"game v1 seed=1 deck=52 scoring=last13 target=10 p0=greedy p1=greedy\n",
    "cut.trace": b"game v1 seed=1 deck=28 scoring=last13 target=0 p0=human p1=greedy\nhand 1 dealer=1\n",
}

H = str(HEX)
# (arguments; "{tmp}" is the temporary folder holding FILES)
CASES: list[list[str]] = [
    # trace
    ["trace"], ["trace", "--seed", "-1"], ["trace", "--seed", "4294967296"], ["trace", "--seed", "x"],
    ["trace", "--seed", "1", "--deck", "32"], ["trace", "--seed", "1", "--scoring", "bridge"],
    ["trace", "--seed", "1", "--target", "300"], ["trace", "--seed", "1", "--p0", "wizard"],
    ["trace", "--seed", "1", "--p1", ""], ["trace", "--seed", "1", "--port", "{tmp}/nonexistent"],
    ["trace", "--seed", "1", "--port", "{tmp}/plain"], ["trace", "--seed", "1", "--port", "{tmp}"],
    # replay
    ["replay"], ["replay", "{tmp}/nonexistent"], ["replay", "{tmp}"], ["replay", "{tmp}/empty"],
    ["replay", "{tmp}/garbage.trace"], ["replay", "{tmp}/trace.txt"], ["replay", "{tmp}/binary.hex"],
    # review: a trace that does not replay, is cut, has no person in it; sources that are not there
    ["review", "{tmp}/nonexistent"], ["review", "{tmp}"], ["review", "{tmp}/empty"], ["review", "{tmp}/garbage.trace"],
    ["review", "{tmp}/trace.txt"], ["review", "{tmp}/binary.hex"], ["review", "{tmp}/nohuman.trace"],
    ["review", "{tmp}/cut.trace"], ["review", "{tmp}/nohuman.trace", "--seat", "2"],
    ["review", "{tmp}/cut.trace", "--port", "/dev/null"], ["review", "--port", "{tmp}/nonexistent"],
    ["review", "--port", "{tmp}/plain"], ["review", "--port", "{tmp}"], ["review", "--emulator", "bochs"],
    ["review", "--emulator", "--hex", "{tmp}/text.hex"], ["review", "--emulator", "--hex", H, "--press", "Q@1"],
    # play (the terminal game)
    ["play", "--deck", "13"], ["play", "--seed", "-5"], ["play", "--target", "999"], ["play", "--p1", "wizard"],
    # solve
    ["solve"], ["solve", "--trump", "X", "--lead", "0", "--hand0", "AS", "--hand1", "KS"],
    ["solve", "--trump", "S", "--lead", "2", "--hand0", "AS", "--hand1", "KS"],
    ["solve", "--trump", "S", "--lead", "0", "--hand0", "ZZ", "--hand1", "KS"],
    ["solve", "--trump", "S", "--lead", "0", "--hand0", "AS,KD", "--hand1", "KS"],
    ["solve", "--trump", "S", "--lead", "0", "--hand0", "AS", "--hand1", "AS"],
    ["solve", "--trump", "S", "--lead", "0", "--hand0", "", "--hand1", ""],
    ["solve", "--trump", "S", "--lead", "0", "--hand0", "AS", "--hand1", "KS", "--mode", "middle"],
    ["solve", "--trump", "S", "--lead", "0", "--hand0", "1S", "--hand1", "KS"],
    # arena and tune
    ["arena", "--p0", "wizard", "--p1", "easy"], ["arena", "--p0", "easy", "--p1", "easy", "--deals", "0"],
    # fit-judge: its only option out of range
    ["fit-judge", "--jobs", "0"], ["fit-judge", "--jobs", "x"],
    ["arena", "--p0", "easy", "--p1", "easy", "--jobs", "0"], ["arena", "--p0", "easy", "--p1", "easy", "--deck", "3"],
    ["tune", "--deals", "5"], ["tune", "--rounds", "0"], ["tune", "--jobs", "100"],
    # generate and build
    ["generate", "--out", "{tmp}/plain/gen"], ["generate", "--out", "{tmp}/plain"],
    ["generate", "--out", "{tmp}/gen", "--assets", "{tmp}/nonexistent"],
    ["generate", "--out", "{tmp}/gen", "--assets", "{tmp}/plain"],
    ["generate", "--out", "{tmp}/gen", "--assets", "{tmp}/nopng"],
    ["build", "--out", "{tmp}/plain/b"], ["build", "--out", "{tmp}/plain"], ["build", "--dist", "{tmp}/plain/d"],
    # size
    ["size"], ["size", "{tmp}/nonexistent"], ["size", "{tmp}"], ["size", "{tmp}/empty"], ["size", H],
    ["size", "{tmp}/text.hex"], ["size", "{tmp}/binary.hex"], ["size", "{tmp}/fake.elf"],
    # emulate
    ["emulate"], ["emulate", "{tmp}/nonexistent"], ["emulate", "{tmp}"], ["emulate", "{tmp}/empty"],
    ["emulate", "{tmp}/text.hex"], ["emulate", "{tmp}/binary.hex"], ["emulate", "{tmp}/badsum.hex"],
    ["emulate", "{tmp}/junk.bin"],
    ["emulate", H, "--press", "Q@1"], ["emulate", H, "--press", "A@5-2"], ["emulate", H, "--press", "A"],
    ["emulate", H, "--frames", "-1"], ["emulate", H, "--scale", "0"], ["emulate", H, "--usb", "wireless"],
    ["emulate", H, "--eeprom-in", "{tmp}/eeprom.bin"], ["emulate", H, "--eeprom-in", "{tmp}/nonexistent"],
    ["emulate", H, "--frames", "1", "--serial-in", "\\x"],
    ["emulate", H, "--frames", "1", "--eeprom-out", "{tmp}/nonexistent/e.bin"],
    ["emulate", H, "--frames", "1", "--eeprom-out", "{tmp}/plain/e.bin"],
    ["emulate", H, "--frames", "1", "--eeprom-out", "{tmp}"],
    ["emulate", H, "--frames", "1", "--screenshot", "{tmp}/nonexistent/s.png"],
    ["emulate", H, "--frames", "1", "--screenshot", "{tmp}/plain/s.png"],
    ["emulate", H, "--frames", "1", "--gif", "{tmp}/nonexistent/a.gif"],
    ["emulate", H, "--frames", "1", "--gif", "{tmp}/plain/a.gif"],
    # crosstest
    ["crosstest", "--hex", "{tmp}/nonexistent"], ["crosstest", "--hex", "{tmp}/text.hex", "--games", "1"],
    ["crosstest", "--hex", "{tmp}/empty", "--games", "1"], ["crosstest", "--hex", "{tmp}/badsum.hex", "--games", "1"],
    ["crosstest", "--hex", "{tmp}/junk.bin", "--games", "1"],
    ["crosstest", "--hex", H, "--players", "wizard"], ["crosstest", "--hex", H, "--games", "0"],
    # bench
    ["bench", "--seconds", "0"], ["bench", "--hex", "{tmp}/nonexistent"],
    ["bench", "--seconds", "0.1", "--hex", "{tmp}/text.hex"], ["bench", "--seconds", "0.1", "--hex", "{tmp}/empty"],
    ["bench", "--seconds", "0.1", "--hex", H, "--elf", "{tmp}/fake.elf"], ["bench", "--review-hands", "-1"],
    # upload: the file is checked before any port is looked for
    ["upload", "{tmp}/nonexistent"], ["upload", "{tmp}"], ["upload", "{tmp}/empty"], ["upload", "{tmp}/text.hex"],
    ["upload", "{tmp}/binary.hex"], ["upload", "{tmp}/badsum.hex"], ["upload", "{tmp}/boot.hex"],
    ["upload", "{tmp}/short.arduboy"], ["upload", "{tmp}/half.arduboy"], ["upload", "{tmp}/tail.arduboy"],
    ["upload", "{tmp}/nullbin.arduboy"], ["upload", "{tmp}/numbin.arduboy"], ["upload", "{tmp}/intsbin.arduboy"],
    ["upload", "{tmp}/listinfo.arduboy"], ["upload", "{tmp}/badjson.arduboy"], ["upload", "{tmp}/noinfo.arduboy"],
    ["upload", "{tmp}/twohex.arduboy"], ["upload", "{tmp}/texthex.arduboy"],
    ["upload", H, "--port", "/dev/null"], ["upload", H, "--port", "{tmp}"], ["upload", H, "--port", "{tmp}/plain"],
    # ProjectABE's build
    ["projectabe", "fly"], ["projectabe", "where", "--projectabe", "{tmp}/nonexistent"],
    ["projectabe", "where", "--projectabe", "{tmp}/plain"], ["projectabe", "where", "--projectabe", "{tmp}/nopng"],
    ["emulate", H, "--emulator", "bochs"], ["emulate", H, "--emulator", "projectabe", "--projectabe", "{tmp}/nopng"],
    ["crosstest", "--hex", H, "--emulator", "projectabe", "--projectabe", "{tmp}/plain"],
    # no such command or option
    ["fly"], ["trace", "--seed", "1", "--colour", "red"],
]
USES_NODE = {"emulate", "crosstest", "bench", "review"}
# Commands whose output goes to stdout, run for real with stdout on a full disk.
FULL_DISK = [["trace", "--seed", "1"], ["emulate", H, "--frames", "2"], ["solve", "--trump", "S", "--lead", "0",
             "--hand0", "AS,KD", "--hand1", "KS,QD"], ["replay", str(ROOT / "tests/engine/golden")], ["--help"]]


@pytest.fixture(scope="module")
def tmp(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bad-input")
    for name, data in FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def check_one_error(code: int, stderr: str, exception: BaseException | None = None) -> None:
    assert "Traceback" not in stderr
    assert exception is None or isinstance(exception, SystemExit), repr(exception)
    assert code != 0
    last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    if code == 2:  # click's usage error: "Usage: ...", then the reason as "Error: ..."
        assert stderr.startswith("Usage: ") and stderr.count("\nError: ") == 1, stderr
    else:
        assert last.startswith("error: ") and last.count("error:") == 1, stderr
        assert len(last) < 300


def test_the_cases_are_many_and_cover_every_command():
    assert len(CASES) + len(FULL_DISK) >= 90
    commands = {c[0] for c in CASES}
    assert set(main.commands) <= commands


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_bad_input_gives_one_error_line(tmp, args):
    if args[0] in USES_NODE and shutil.which("node") is None:
        pytest.skip("needs node")
    argv = [a.replace("{tmp}", str(tmp)) for a in args]
    r = CliRunner().invoke(main, argv, input="")
    check_one_error(r.exit_code, r.stderr, r.exception)


# The files no emulator can run, and the reason both give (the avr8js harness's Intel HEX check).
BAD_HEX = {
    "empty": "no data records in the Intel HEX file",
    "text.hex": "bad Intel HEX record at line 1",
    "binary.hex": "bad Intel HEX record at line 1",
    "badsum.hex": "bad checksum at line 1",
    "junk.bin": "bad Intel HEX record at line 1",
}
RUNS_A_HEX = [["emulate", "{file}"], ["crosstest", "--hex", "{file}", "--games", "1"]]


@needs_node
@pytest.mark.parametrize("name", BAD_HEX)
@pytest.mark.parametrize("command", RUNS_A_HEX, ids=lambda c: c[0])
def test_a_bad_hex_is_the_same_one_line_in_each_emulator(tmp, command, name, each_emulator):
    path = tmp / name
    argv = [a.replace("{file}", str(path)) for a in command] + emulator_args(each_emulator)
    r = CliRunner().invoke(main, argv, input="")
    check_one_error(r.exit_code, r.stderr, r.exception)
    last = r.stderr.strip().splitlines()[-1]
    assert last == f"error: {path}: the emulator cannot run it ({BAD_HEX[name]}); give a .hex built by 'make hex'"


# The other emulate and crosstest cases, which name no emulator: ProjectABE's answer is avr8js's.
OTHER_EMULATOR_CASES = [c for c in CASES if c[0] in ("emulate", "crosstest") and "--emulator" not in c
                        and not any(a.endswith(tuple(BAD_HEX)) for a in c)]


@needs_node
@pytest.mark.parametrize("args", OTHER_EMULATOR_CASES, ids=[" ".join(c)[:60] for c in OTHER_EMULATOR_CASES])
def test_projectabe_gives_the_one_line_avr8js_gives(tmp, args, projectabe):
    lines = []
    for chosen in (AVR8JS, projectabe):
        argv = [a.replace("{tmp}", str(tmp)) for a in args] + emulator_args(chosen)
        r = CliRunner().invoke(main, argv, input="")
        check_one_error(r.exit_code, r.stderr, r.exception)
        lines.append(r.stderr.strip().splitlines()[-1])
    assert lines[0] == lines[1]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", FULL_DISK, ids=[c[0] for c in FULL_DISK])
def test_a_full_disk_under_stdout_is_one_error_line(args):
    if args[0] in USES_NODE and shutil.which("node") is None:
        pytest.skip("needs node")
    if args[0] == "replay":
        args = ["replay", str(next(Path(args[1]).glob("*")))]
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "generator.cli", *args], stdout=full, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT, timeout=120)
    check_one_error(r.returncode, r.stderr)
    assert "No space left" in r.stderr


def test_a_closed_pipe_is_quiet():
    """`whist trace ... | head -1`: the rest is not wanted, which is no error to report."""
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "trace", "--seed", "1", "--target", "50"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(60) != 0
    assert proc.stderr.read() == b""
