"""The live sources of ``whist review``: a device on USB serial, or the emulator.

While a person plays on the buttons the device sends nothing that names a
card; when a hand is over it sends the hand's whole trace at once
(docs/trace.md), and the review of that hand is printed as soon as its last
line is in. A :class:`Listener` turns the bytes into trace lines for a review
:class:`~generator.ai.review.Session`; :func:`port_chunks` and
:func:`emulator_chunks` are where the bytes come from.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import serial

from ..ai.review import HandReview, Saved, Session
from ..engine.bounded import Kind, Lines, read
from ..engine.trace import SENT, TRACE_LINE
from .emulator import Emulator, Press
from .uploader import Host, SystemHost

POLL = 0.1  # seconds a read waits for the device: a hand's review starts at most this late
EVERY = 6  # emulator frames between reads of its serial output (0.1 s of the game's time)
REMEMBERED = 20  # games whose place is kept between reviews
# The file that keeps them (generator/engine/bounded.py): each game its game line and a few numbers.
GAMES = Kind("the review's list of games", REMEMBERED * (TRACE_LINE + 200), "it is rewritten by the next review")


class LiveError(Exception):
    """The source failed; one line naming it, what was kept and what to do."""


class Listener:
    """Bytes from a device in, reviews (and notes for the player) out, as soon as each hand's trace is whole;
    a line longer than any trace line (a device running something else) raises InputError naming ``source``."""

    def __init__(self, session: Session, source: str = "the device") -> None:
        self.session = session
        self.splitter = Lines(SENT, source)

    def feed(self, data: bytes) -> list[HandReview | str]:
        whole = self.splitter.feed(data)
        out: list[HandReview | str] = []
        for n, raw in enumerate(whole, self.splitter.number - len(whole) + 1):
            got = self.session.feed(n, raw.decode("ascii", "replace"))
            if got is not None:
                out.append(got)
        return out


def find_port(host: Host | None = None) -> str:
    """The serial port of the one Arduboy running a game, found by its USB id as ``whist upload`` finds it."""
    ports = (host or SystemHost()).ports()
    games = [p for p in ports if p.mode == "sketch"]
    if len(games) == 1:
        return games[0].device
    if len(games) > 1:
        raise LiveError(f"several Arduboys found: {', '.join(p.device for p in games)}; choose one with --port")
    if any(p.mode == "bootloader" for p in ports):
        raise LiveError("the Arduboy is in its bootloader; wait a few seconds for the game to start, then retry")
    raise LiveError("no Arduboy found (USB ids 2341/2A03:8036); plug it in with a data cable and switch it on, "
                    "or give --port, or a trace file")


def open_port(port: str) -> serial.Serial:
    """The device's port, opened to listen (115200: never 1200 baud, which resets an Arduboy)."""
    try:
        return serial.Serial(port, 115200, timeout=POLL)
    except (serial.SerialException, OSError) as e:
        raise LiveError(_open_message(port, e)) from None


class Vanished(LiveError):
    """The port went away while listening."""


def port_chunks(link: serial.Serial) -> Iterator[bytes]:
    """What the device sends, as it comes (an empty chunk every POLL seconds of silence); closes the port at the end."""
    with link:
        while True:
            try:
                yield link.read(4096)
            except (serial.SerialException, OSError):
                raise Vanished(f"{link.port} went away") from None


def _open_message(port: str, e: Exception) -> str:
    text = str(e)
    code = getattr(e, "errno", None)
    if code == errno.EACCES or "ermission" in text:
        return f"{port}: permission denied; run: sudo usermod -aG dialout $USER, then log in again"
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO) or "No such file" in text:
        return f"{port}: no such serial port; check the cable and the name, or leave out --port to find the Arduboy"
    return f"{port}: cannot open it as a serial port; give the Arduboy's port (such as /dev/ttyACM0)"


def emulator_chunks(emu: Emulator, presses: Iterable[Press] = (), frames: int | None = None) -> Iterator[bytes]:
    """The emulated device's serial output every EVERY frames, pressing the buttons as scheduled; ``frames`` in all."""
    events: dict[int, list[tuple[str, bool]]] = {}
    for p in presses:
        events.setdefault(p.down, []).append((p.button, True))
        events.setdefault(p.up, []).append((p.button, False))
    frame = 0
    while frames is None or frame < frames:
        for _ in range(EVERY):
            for button, down in events.get(frame, []):
                (emu.press if down else emu.release)(button)
            emu.run_frames(1)
            frame += 1
        yield emu.serial_read()


def games_file() -> Path:
    """Where the live review keeps the place of the games it reviewed (the user's cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "whist-arduboy" / "review-games.json"


def load_games(path: Path | None = None) -> list[Saved]:
    """The games a live review saw, so a game continued on the device (sent without its game line) is reviewed
    on; an unreadable file is as none."""
    try:
        rows = json.loads(read(path or games_file(), GAMES))
        return [Saved(r["header"], r["next"], tuple(r["totals"]), r["stream"], r["in_step"]) for r in rows]
    except (OSError, ValueError, TypeError, KeyError):
        return []


def remember(saved: Saved, path: Path | None = None) -> None:
    """Keep where a game stands (the newest REMEMBERED games); a cache that cannot be written is passed over."""
    path = path or games_file()
    games = [g for g in load_games(path) if g.header != saved.header][-(REMEMBERED - 1):] + [saved]
    rows = [{"header": g.header, "next": g.next, "totals": list(g.totals), "stream": g.stream, "in_step": g.in_step}
            for g in games]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(rows))
        os.replace(tmp, path)
    except OSError:
        pass
