"""Running the `play` command on a real Arduboy over USB serial (``whist trace --port``)."""

from __future__ import annotations

import os
import time

import serial

from ..engine.bounded import InputError, Lines, cut
from ..engine.trace import SENT


class DeviceError(Exception):
    """One line saying what went wrong with the port and what to do."""


def run_trace(port: str, command: str, timeout: float = 120.0, baud: int = 115200) -> list[str]:
    """Send ``command`` and collect the trace lines the device prints until ``end`` or ``error``.

    115200 is only the line-coding the host announces (USB CDC ignores it);
    never 1200, which would reset the device into its bootloader.
    """
    try:
        link = serial.Serial(port, baud, timeout=0.2)
    except serial.SerialException as e:
        if "ermission" in str(e):
            raise DeviceError(f"{port}: permission denied; run: sudo usermod -aG dialout $USER, then log in again") from None
        why = os.strerror(e.errno) if e.errno else str(e)  # pyserial's own text repeats the port's name
        raise DeviceError(f"{port}: cannot open the port ({why}); check the cable and the port name") from None
    lines: list[str] = []
    splitter = Lines(SENT, port)
    deadline = time.monotonic() + timeout
    with link:
        time.sleep(0.1)
        link.reset_input_buffer()
        link.write(command.encode() + b"\n")
        while time.monotonic() < deadline:
            try:
                chunk = link.read(4096)
            except serial.SerialException:
                raise DeviceError(f"{port}: the device went away mid-game; reconnect it and retry") from None
            try:
                whole = splitter.feed(chunk)
            except InputError as e:
                raise DeviceError(str(e)) from None
            for raw in whole:
                line = raw.decode("ascii", "replace")
                if line.startswith("#") and not lines:
                    continue  # boot comments before the game
                lines.append(line)
                if line == "error busy":
                    raise DeviceError(f"{port}: a person is playing on the device; leave the game for its menu "
                                      "(UP, then B) and retry")
                if line.startswith("error "):
                    raise DeviceError(f"{port}: the device refused the command: {cut(line[6:])}")
                if line.startswith("end "):
                    return lines
    raise DeviceError(f"{port}: no complete trace within {timeout:.0f} s; is Whist running on the device?")
