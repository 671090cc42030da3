"""Bounded input: how every command reads a file it is given.

A file is read as a :class:`Kind` (a trace, an Intel HEX file, a .arduboy
package, a PNG...), whose limit is the most a real one holds, with a margin,
named once beside what it derives from. Only a regular file within that
limit is read: a device, a FIFO, a folder or a socket is refused before it
is opened (nothing blocks, nothing reads for ever), and so is a file larger
than its kind. Text read a line at a time (a trace file, standard input, a
serial port) goes through :class:`Lines`, which refuses a line longer than
its kind's longest as soon as it is that long. A command quotes what it was
given through :func:`quote`: a few dozen characters at most, escaped.

Every refusal is an :class:`InputError` whose message is one line: the
path, what it is, what to do.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

QUOTE = 40  # characters of a line a message quotes at most
CHUNK = 1 << 16  # bytes read at a time from a stream


class InputError(ValueError):
    """A file or stream refused; the message is one line: the path, what it is, what to do."""


@dataclass(frozen=True)
class Kind:
    """A kind of file a command reads: its name in a message, the most a real one holds, what to give instead."""

    name: str  # "a trace", "an Intel HEX file"
    limit: int  # bytes
    fix: str  # "give a trace written by 'whist trace' or saved from the device"
    line: int = 0  # read by lines: the longest line, in bytes without its ending
    magic: bytes = b""  # how such a file starts, to tell it from the other kinds a command takes


def size_words(n: int) -> str:
    """A size as a person reads it: 512 bytes, 64 KB, 50.0 MB (units of 1,024)."""
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}" if n % scale else f"{n // scale} {unit}"
    return f"{n:,} bytes"


def _what(mode: int) -> str:
    """What a path is, in a message: a file, a folder, a device..."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    return "a socket"


def what_is(path: str | Path) -> str | None:
    """What is at ``path``, in a message's words ("a folder", "a device"...), or None if nothing is."""
    try:
        return _what(os.stat(path).st_mode)
    except OSError:
        return None


def _refused(path: str | Path, st: os.stat_result, kind: Kind) -> InputError | None:
    if not stat.S_ISREG(st.st_mode):
        return InputError(f"{path}: {_what(st.st_mode)}, not a file; {kind.fix}")
    if st.st_size > kind.limit:
        return InputError(f"{path}: {size_words(st.st_size)}, more than {kind.name} holds "
                          f"({size_words(kind.limit)} at most); {kind.fix}")
    return None


def check(path: str | Path, kind: Kind) -> None:
    """Raise InputError unless ``path`` is a regular file within ``kind``'s limit (for a path another
    program reads: the emulator, avr-size)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; {kind.fix}") from None
    except OSError as e:
        raise InputError(f"{path}: cannot be read ({(e.strerror or str(e)).lower()}); check the path") from None
    if error := _refused(path, st, kind):
        raise error


def open_file(path: str | Path, kind: Kind) -> BinaryIO:
    """``path`` opened for reading, once :func:`check` passes. Opened without waiting (a FIFO put there
    since the check would block an open) and checked again on what was opened."""
    check(path, kind)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as e:
        raise InputError(f"{path}: cannot be read ({(e.strerror or str(e)).lower()}); check the path") from None
    if error := _refused(path, os.fstat(fd), kind):
        os.close(fd)
        raise error
    return os.fdopen(fd, "rb")


def read(path: str | Path, *kinds: Kind) -> bytes:
    """The whole file, of the first of ``kinds`` whose magic it starts with, else of ``kinds[0]`` (whose
    words a refusal before reading uses); at most that kind's limit, even if the file grows meanwhile."""
    with open_file(path, replace(kinds[0], limit=max(k.limit for k in kinds))) as f:
        head = f.read(max(len(k.magic) for k in kinds))
        kind = next((k for k in kinds if k.magic and head.startswith(k.magic)), kinds[0])
        size = os.fstat(f.fileno()).st_size
        if size > kind.limit:
            raise InputError(f"{path}: {size_words(size)}, more than {kind.name} holds "
                             f"({size_words(kind.limit)} at most); {kind.fix}")
        f.seek(0)
        data = f.read(kind.limit + 1)  # one piece: no copy of a large file held twice
    if len(data) > kind.limit:
        raise InputError(f"{path}: grew past {size_words(kind.limit)} while read, more than {kind.name} holds; "
                         f"{kind.fix}")
    return data


def quote(text: str, like: str | None = None) -> str:
    """``text`` in single quotes, cut as :func:`cut` cuts it."""
    return f"'{cut(text, like)}'"


def cut(text: str, like: str | None = None) -> str:
    """QUOTE characters of ``text`` at most ("..." where cut), those that do not print escaped. Given the line
    it should have been (``like``), the part shown starts a little before where the two first differ."""
    start = 0
    if like is not None:
        differ = next((i for i, (a, b) in enumerate(zip(text, like)) if a != b), min(len(text), len(like)))
        if differ >= QUOTE - 8:
            start = differ - 8
    shown, end = "", start
    while end < len(text) and len(shown) < QUOTE:
        ch = text[end]
        shown += ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
        end += 1
    return ("..." if start else "") + shown + ("..." if end < len(text) else "")


class Lines:
    """Bytes in as they come, whole lines out (without their ending); a line longer than ``kind.line``
    raises InputError as soon as it is, quoting its start. ``source`` names the input in messages."""

    def __init__(self, kind: Kind, source: str) -> None:
        self.kind, self.source = kind, source
        self.partial = b""
        self.number = 0  # lines given out

    def feed(self, data: bytes) -> list[bytes]:
        *whole, self.partial = (self.partial + data).split(b"\n")
        out = []
        for raw in whole:
            self._within(raw.removesuffix(b"\r"), self.number + 1)
            self.number += 1
            out.append(raw.removesuffix(b"\r"))
        self._within(self.partial.removesuffix(b"\r"), self.number + 1)
        return out

    def end(self) -> list[bytes]:
        """The last line when the input does not end with a line ending."""
        last, self.partial = self.partial.removesuffix(b"\r"), b""
        if not last:
            return []
        self.number += 1
        return [last]

    def _within(self, raw: bytes, number: int) -> None:
        if len(raw) > self.kind.line:
            start = raw[:QUOTE * 4 + 1].decode("utf-8", "replace")  # more than QUOTE characters: cut, with "..."
            raise InputError(f"{self.source}: line {number} is longer than any line of {self.kind.name} "
                             f"({self.kind.line} characters at most): {quote(start)}; {self.kind.fix}")


def lines(source: str | Path, kind: Kind, stdin: BinaryIO | None = None) -> Iterator[str]:
    """The lines of a text file of ``kind`` ('-': standard input, bounded the same way), each as UTF-8 text
    without its ending; UnicodeDecodeError for a line that is not UTF-8. The file is opened (or refused) at
    once, the lines read as they are taken."""
    if str(source) == "-":
        return _lines(stdin or sys.stdin.buffer, kind, "standard input", close=False)
    return _lines(open_file(source, kind), kind, str(source), close=True)


def _lines(f: BinaryIO, kind: Kind, name: str, close: bool) -> Iterator[str]:
    splitter, total = Lines(kind, name), 0
    try:
        while chunk := f.read1(CHUNK):  # what has come, not a wait for a whole chunk (a pipe, a terminal)
            total += len(chunk)
            if total > kind.limit:
                raise InputError(f"{name}: more than {kind.name} holds ({size_words(kind.limit)} at most); "
                                 f"{kind.fix}")
            for raw in splitter.feed(chunk):
                yield raw.decode("utf-8")
        for raw in splitter.end():
            yield raw.decode("utf-8")
    finally:
        if close:
            f.close()
