"""Drive the Arduboy emulator (emulator/ on Node) from Python.

The emulator runs as a `node emulator/server.js` subprocess speaking one JSON
object per line on stdin/stdout, so tests and the CLI share one harness and
Node starts once per session rather than once per step. docs/emulator.md
describes the protocol, the models and the GPIOR0 marker convention.

Two back-ends serve the same protocol: ``avr8js`` (our cycle-counted
harness, the default) and ``projectabe`` (ProjectABE's own published code,
the emulator players use, loaded from a folder: projectabe.py). Pick one
with :func:`backend` and pass it to :class:`Emulator`.

An FX edition runs with its flash chip: :class:`FxImage` holds the data and
save images and the device, whose select line the chip is wired to.
"""

from __future__ import annotations

import json
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from ..engine.bounded import InputError, Kind, check
from . import projectabe
from .intelhex import HEX

ROOT = Path(__file__).resolve().parents[2]
EMULATOR_DIR = ROOT / "emulator"
SERVER = EMULATOR_DIR / "server.js"
CLOCK_HZ = 16_000_000
CYCLES_PER_MS = CLOCK_HZ // 1000
WIDTH, HEIGHT = 128, 64
EEPROM_BYTES = 1024
EEPROM = Kind("an EEPROM image", EEPROM_BYTES, f"give a {EEPROM_BYTES}-byte image, such as --eeprom-out writes")
BUTTONS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
DEFAULT_MAX_CYCLES = 10 * CLOCK_HZ
EMULATORS = ("avr8js", "projectabe")
# How long an answer may take: loading a hex (ProjectABE's takes 1-2 s), else this many
# seconds plus the request's cycle budget at a quarter of the slowest speed either emulator
# was seen to run (4 M cycles/s, avr8js on a busy machine). Past it the emulator is stuck,
# not slow: ProjectABE's core spins for ever on some code, inside one call.
LOAD_SECONDS = 60.0
ANSWER_SECONDS = 30.0
SLOWEST_CYCLES_PER_SECOND = 1_000_000


class EmulatorError(RuntimeError):
    """The emulator could not be started, or refused or failed a request.

    ``field`` names the request's field the emulator refused, when it said (``"fx"``).
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


# The FX chip's select line on each device that has one (docs/emulator.md).
FX_SELECT = {"ArduboyFX": "PD1", "ArduboyMini": "PE2"}


@dataclass(frozen=True)
class FxImage:
    """What the emulated FX chip holds: a game's data and save images, on ``device``'s select line.

    avr8js places them in the community's development layout (the data in whole pages, then the save
    in whole 4 KB sectors, at the end of the chip); ProjectABE maps the data alone there, as its page
    does, and has no chip on the Mini's line.
    """

    device: str  # ArduboyFX or ArduboyMini
    data: bytes
    save: bytes = b""

    def __post_init__(self) -> None:
        if self.device not in FX_SELECT:
            raise ValueError(f"no FX chip on device {self.device!r}; expected one of {', '.join(FX_SELECT)}")

    @property
    def select(self) -> str:
        """The chip's select line: PD1 on the Arduboy FX, PE2 on the Mini."""
        return FX_SELECT[self.device]


def ensure_node_deps() -> None:
    """Install emulator/node_modules with `npm ci` when missing, so a fresh clone just works."""
    if (EMULATOR_DIR / "node_modules" / "avr8js").is_dir():
        return
    hint = f"run: npm ci --prefix {EMULATOR_DIR}"
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise EmulatorError(f"the emulator needs Node.js >= 20.19 and npm; install them, then {hint}")
    result = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=EMULATOR_DIR,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise EmulatorError(f"npm ci failed in {EMULATOR_DIR} ({result.stderr.strip()[-300:]}); {hint}")


@dataclass(frozen=True)
class Backend:
    """Which emulator serves the protocol: avr8js, or ProjectABE from the folder ``projectabe``."""

    name: str = "avr8js"
    projectabe: Path | None = None
    any_build: bool = False

    def server_args(self) -> list[str]:
        if self.name == "avr8js":
            return []
        return ["--emulator", self.name, "--projectabe", str(self.projectabe)] + (["--any-build"] if self.any_build else [])


AVR8JS = Backend()


def backend(name: str | None = None, projectabe_dir: str | Path | None = None, any_build: bool = False) -> Backend:
    """The back-end called ``name`` (default avr8js); for ProjectABE, its folder is found by projectabe.find().

    Raises EmulatorError with a one-line message for an unknown name or when
    no ProjectABE build is found. The build's sha256 is checked by the
    emulator when it loads (any_build accepts another build).
    """
    name = name or "avr8js"
    if name not in EMULATORS:
        raise EmulatorError(f"unknown emulator {name!r}; expected one of {', '.join(EMULATORS)}")
    if name == "avr8js":
        return AVR8JS
    try:
        folder = projectabe.find(projectabe_dir)
    except projectabe.NotFound as e:
        raise EmulatorError(str(e)) from None
    return Backend(name, folder, any_build)


@dataclass(frozen=True)
class Press:
    """One scheduled button press: held from display frame `down` until frame `up`."""

    button: str
    down: int
    up: int


def parse_schedule(text: str, hold: int = 4) -> list[Press]:
    """Parse "A@60,RIGHT@90-120": press A at frame 60 for `hold` frames, RIGHT from 90 to 120."""
    presses = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        m = re.fullmatch(r"([A-Za-z]+)@(\d+)(?:-(\d+))?", item)
        if not m or m.group(1).upper() not in BUTTONS:
            raise ValueError(f"bad press {item!r}: expected BUTTON@FRAME or BUTTON@FRAME-FRAME, "
                             f"BUTTON one of {', '.join(BUTTONS)}")
        down = int(m.group(2))
        up = int(m.group(3)) if m.group(3) else down + hold
        if up <= down:
            raise ValueError(f"bad press {item!r}: release frame must come after the press frame")
        presses.append(Press(m.group(1).upper(), down, up))
    return presses


def frame_to_image(picture: bytes, scale: int = 1) -> Image.Image:
    """Turn 1024 bytes of SSD1306 pages (8 vertical pixels per byte, LSB on top) into a 1-bit image."""
    if len(picture) != WIDTH * HEIGHT // 8:
        raise ValueError(f"a frame is {WIDTH * HEIGHT // 8} bytes, got {len(picture)}")
    rows = bytearray(WIDTH * HEIGHT)
    for page in range(HEIGHT // 8):
        for col in range(WIDTH):
            byte = picture[page * WIDTH + col]
            for bit in range(8):
                if byte >> bit & 1:
                    rows[(page * 8 + bit) * WIDTH + col] = 255
    image = Image.frombytes("L", (WIDTH, HEIGHT), bytes(rows)).convert("1")
    return image.resize((WIDTH * scale, HEIGHT * scale), Image.NEAREST) if scale != 1 else image


def save_gif(pictures: Sequence[bytes], path: str | Path, frame_ms: int = 20, scale: int = 1) -> None:
    """Save frames as a looping animated GIF, `frame_ms` per frame.

    GIF delays count in 10 ms and browsers slow anything under 20 ms, so the
    default is 20 ms rather than the game's 16 ms; identical frames merge.
    """
    if not pictures:
        raise ValueError("no frames to save")
    images = [frame_to_image(p, scale).convert("P") for p in pictures]
    images[0].save(path, save_all=True, append_images=images[1:], duration=frame_ms, loop=0, optimize=False)


class Emulator:
    """One emulated Arduboy running a .hex file; use as a context manager.

    Runs stop after a cycle budget (`max_cycles`, default 10 s of emulated time)
    so a firmware that never does what a test waits for fails instead of hanging.
    """

    def __init__(self, hex_path: str | Path, *, eeprom: bytes | None = None, adc_seed: int = 1,
                 usb: str = "minimal", node: str = "node", backend: Backend | None = None,
                 fx: FxImage | None = None) -> None:
        try:
            check(hex_path, HEX)  # the emulator reads it: a regular file of a hex's size, or nothing starts
        except InputError as e:
            raise EmulatorError(str(e)) from None
        ensure_node_deps()
        self.hex_path = hex_path
        self.backend = backend or AVR8JS
        # Where the emulator put the FX images (None without fx, and for a save ProjectABE ignores).
        self.fx_data_address: int | None = None
        self.fx_save_address: int | None = None
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen([node, str(SERVER), *self.backend.server_args()],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._stderr, text=True, encoding="utf-8", bufsize=1)
        except OSError as e:
            raise EmulatorError(f"cannot start {node}: {e}") from e
        self._answers: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read_answers, daemon=True).start()
        try:
            self.load(hex_path, eeprom=eeprom, adc_seed=adc_seed, usb=usb, fx=fx)
        except BaseException:
            self.close()
            raise

    def load(self, hex_path: str | Path, *, eeprom: bytes | None = None, adc_seed: int = 1,
             usb: str = "minimal", fx: FxImage | None = None) -> None:
        """Power on a new device running ``hex_path`` in this emulator process: nothing of the one before
        is kept (RAM, EEPROM, chip, buttons, serial, markers, watches), only the process, whose warm JIT
        makes the new boot several times cheaper than a new Emulator's."""
        try:
            check(hex_path, HEX)
        except InputError as e:
            raise EmulatorError(str(e)) from None
        self.hex_path = hex_path
        self.fx_data_address = self.fx_save_address = None
        request: dict[str, Any] = {"hex": str(Path(hex_path).resolve()), "adc_seed": adc_seed, "usb": usb}
        if eeprom is not None:
            request["eeprom"] = _eeprom_hex(eeprom)
        if fx is not None:
            request["fx"] = {"select": fx.select, "data": fx.data.hex(), "save": fx.save.hex()}
        try:
            placed = self._call("load", **request).get("fx") or {}
        except EmulatorError as e:
            reason = str(e).removeprefix("load: ")
            if e.field == "fx":
                raise EmulatorError(f"{hex_path}: {reason}", e.field) from None
            raise EmulatorError(f"{hex_path}: the emulator cannot run it ({reason}); "
                                "give a .hex built by 'make hex'") from None
        self.fx_data_address = placed.get("data_address")
        self.fx_save_address = placed.get("save_address")

    @property
    def alive(self) -> bool:
        """The Node process still runs (a stuck run is killed): it can load another program."""
        return self._proc.poll() is None and not (self._proc.stdin is None or self._proc.stdin.closed)

    def __enter__(self) -> Emulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the Node process: end of input makes it exit; one still busy in a run is killed."""
        if self._proc.stdin and not self._proc.stdin.closed:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout:
            self._proc.stdout.close()
        self._stderr.close()

    def _read_answers(self) -> None:
        """The server's answer lines, as they come (a thread: a wait for one can then time out)."""
        try:
            for line in self._proc.stdout:
                self._answers.put(line)
        except (OSError, ValueError):
            pass
        self._answers.put("")

    def _call(self, cmd: str, **args: Any) -> dict[str, Any]:
        """Send one request and return its answer; raise EmulatorError on failure or when none comes in time."""
        assert self._proc.stdin and self._proc.stdout
        cycles = args.get("max_cycles", args.get("cycles", 0))
        limit = LOAD_SECONDS if cmd == "load" else ANSWER_SECONDS + cycles / SLOWEST_CYCLES_PER_SECOND
        try:
            self._proc.stdin.write(json.dumps({"cmd": cmd, **args}) + "\n")
            self._proc.stdin.flush()
            line = self._answers.get(timeout=limit)
        except (BrokenPipeError, ValueError):
            line = ""
        except queue.Empty:
            self._proc.kill()
            raise EmulatorError(f"{self.hex_path}: the {self.backend.name} emulator gave no answer to {cmd!r} in "
                                f"{limit:.0f} s, stuck in the program (ProjectABE's core can spin for ever on code "
                                "it cannot run); try it with --emulator avr8js") from None
        if not line:
            self._stderr.seek(0)
            detail = self._stderr.read().decode(errors="replace").strip()
            raise EmulatorError(f"the emulator process ended during {cmd!r}: {detail[-1000:] or 'no message'}")
        answer = json.loads(line)
        if not answer.pop("ok"):
            raise EmulatorError(f"{cmd}: {answer['error']}", answer.get("field"))
        return answer

    # --- running -----------------------------------------------------------

    def run(self, cycles: int) -> int:
        """Run `cycles` CPU cycles; return the cycle count since power-on."""
        return self._call("run", cycles=cycles)["cycles"]

    def run_ms(self, ms: float) -> int:
        """Run `ms` milliseconds of emulated time; return the cycle count."""
        return self.run(round(ms * CYCLES_PER_MS))

    def run_frames(self, frames: int, max_cycles: int = DEFAULT_MAX_CYCLES) -> int:
        """Run until `frames` more display frames are complete; return how many were (fewer on timeout)."""
        return self._call("run_frames", frames=frames, max_cycles=max_cycles)["frames"]

    def run_until_serial(self, pattern: str, *, regex: bool = False, max_cycles: int = DEFAULT_MAX_CYCLES) -> bool:
        """Run until the unread serial output contains `pattern` (a JS regex if `regex`); return whether it did."""
        return self._call("run_until_serial", pattern=pattern, regex=regex, max_cycles=max_cycles)["matched"]

    def run_until_ready(self, max_cycles: int = DEFAULT_MAX_CYCLES) -> bool:
        """Run until the firmware's whole "# whist <version> ready" line is out; return whether it was.

        Waiting for its start only is not enough: ProjectABE hands the bytes
        over a slice at a time, and a read in the middle of the line leaves
        its tail to be taken for the next answer. An FX edition that finds no
        data of its own on the chip says so instead ("# whist error: ..."):
        that raises EmulatorError.
        """
        ready = self.run_until_serial(r"# whist [^\n]*\n", regex=True, max_cycles=max_cycles)
        if ready and self.run_until_serial("# whist error: ", max_cycles=0):
            said = self.serial_read().decode(errors="replace").split("# whist error: ", 1)[1].split("\n")[0]
            raise EmulatorError(f"{self.hex_path}: {said}: the chip's data image is not this build's (an FX "
                                "edition runs with the data in its own .arduboy package, from 'make hex')")
        return ready

    def run_until_marker(self, value: int | None = None, max_cycles: int = DEFAULT_MAX_CYCLES) -> tuple[int, int] | None:
        """Run until the firmware writes GPIOR0 (= `value`, or anything if None); return (value, cycle) or None."""
        marker = self._call("run_until_marker", value=value, max_cycles=max_cycles)["marker"]
        return (marker[0], marker[1]) if marker else None

    def play(self, frames: int, presses: Iterable[Press] = (), *, record: bool = False,
             max_cycles_per_frame: int = CLOCK_HZ) -> list[bytes]:
        """Run `frames` display frames, pressing and releasing buttons at their frames.

        Frame numbers count from the start of this call; a press whose release
        frame is not reached stays held. Returns the picture after each frame when `record` is set (for a GIF).
        Raises EmulatorError if the firmware stops drawing for `max_cycles_per_frame`.
        """
        events: dict[int, list[tuple[str, bool]]] = {}
        for p in presses:
            events.setdefault(p.down, []).append((p.button, True))
            events.setdefault(p.up, []).append((p.button, False))
        pictures = []
        for frame in range(frames):
            for button, down in events.get(frame, []):
                (self.press if down else self.release)(button)
            if self.run_frames(1, max_cycles_per_frame) != 1:
                raise EmulatorError(f"no display frame within {max_cycles_per_frame} cycles after frame {frame}")
            if record:
                pictures.append(self.screen())
        return pictures

    # --- inputs and outputs ------------------------------------------------

    def press(self, button: str) -> None:
        """Hold a button down (UP, DOWN, LEFT, RIGHT, A, B)."""
        self._call("press", button=button)

    def release(self, button: str) -> None:
        """Let a button go."""
        self._call("release", button=button)

    def set_buttons(self, buttons: Iterable[str]) -> None:
        """Hold exactly these buttons."""
        self._call("set_buttons", buttons=list(buttons))

    def serial_write(self, data: bytes | str) -> None:
        """Send bytes from the host; they reach the firmware (EP2) once the port is open."""
        text = data.decode("latin-1") if isinstance(data, bytes) else data.encode().decode("latin-1")
        self._call("serial_write", data=text)

    def set_host_reading(self, reading: bool) -> None:
        """Whether the USB host takes what the firmware prints; when not, its two IN banks fill
        and stay full, as with a PC program that opened the port and stopped reading."""
        self._call("serial_reading", reading=reading)

    def usb_control(self, setup: bytes, data: bytes | None = None,
                    max_cycles: int = 100 * CYCLES_PER_MS) -> dict[str, Any]:
        """One control transfer from the USB host (avr8js only), once it has finished its script:
        `setup` the 8 bytes of the SETUP packet, `data` a host-to-device data stage. Returns
        {"status": "ok" | "stall" | "timeout" | "overflow" | "no answer" | "pending", "data": [...]}."""
        args: dict[str, Any] = {"setup": list(setup), "max_cycles": max_cycles}
        if data is not None:
            args["data"] = bytes(data).hex()
        return self._call("usb_control", **args)["transfer"]

    def usb_host(self, action: str) -> None:
        """The cable and the bus (avr8js only): "unplug", "plug", "suspend", "resume", or "zlp"
        (a zero-length packet to the device's OUT endpoint)."""
        self._call("usb_host", action=action)

    def serial_read(self) -> bytes:
        """Take the bytes the firmware has printed since the last read."""
        return self._call("serial_read")["data"].encode("latin-1")

    def screen(self) -> bytes:
        """The picture on the display now: 1024 bytes, 8 pages of 128 columns, LSB on top."""
        return bytes.fromhex(self._call("screen")["picture"])

    def screenshot(self, path: str | Path, scale: int = 1) -> None:
        """Save the current picture as a PNG."""
        frame_to_image(self.screen(), scale).save(path, format="PNG")

    @property
    def frames(self) -> int:
        """Display frames completed since power-on."""
        return self._call("status")["frames"]

    @property
    def cycles(self) -> int:
        """CPU cycles since power-on."""
        return self._call("status")["cycles"]

    def status(self) -> dict[str, Any]:
        """Cycles, frames, held buttons and the USB state (attached, configured, lineState, openedAt...)."""
        return self._call("status")

    @property
    def eeprom(self) -> bytes:
        """The 1024-byte EEPROM image."""
        return bytes.fromhex(self._call("eeprom_get")["data"])

    @eeprom.setter
    def eeprom(self, data: bytes) -> None:
        self._call("eeprom_set", data=_eeprom_hex(data))

    def markers(self) -> list[tuple[int, int]]:
        """Take the (value, cycle) pairs the firmware recorded via GPIOR0 since the last call."""
        return [(v, c) for v, c in self._call("markers")["markers"]]

    def watch(self, addresses: Iterable[int]) -> None:
        """Record each later write to these data addresses (avr8js only): times the firmware's own variables."""
        self._call("watch", addresses=list(addresses))

    def writes(self) -> list[tuple[int, int, int]]:
        """Take the (address, value, cycle) writes to watched addresses since the last call."""
        return [(a, v, c) for a, v, c in self._call("writes")["writes"]]

    def set_adc(self, channel: int, volts: float | None) -> None:
        """Fix an ADC channel (MUX5:0) to a voltage, or None for the default noise."""
        self._call("adc_set", channel=channel, volts=volts)

    def fx_read(self, address: int, length: int) -> bytes:
        """Bytes of the FX chip's memory as they are, past the firmware (a test's view of a save)."""
        return bytes.fromhex(self._call("fx_read", address=address, length=length)["data"])

    def fx_write(self, address: int, data: bytes) -> None:
        """Put bytes into the FX chip's memory as they are: to damage a save, or carry one over a power-off."""
        self._call("fx_write", address=address, data=bytes(data).hex())


def _eeprom_hex(data: bytes) -> str:
    if len(data) != EEPROM_BYTES:
        raise ValueError(f"an EEPROM image is {EEPROM_BYTES} bytes, got {len(data)}")
    return bytes(data).hex()


def measure_speed(hex_path: str | Path, seconds: float = 2.0, backend: Backend | None = None,
                  fx: FxImage | None = None) -> float:
    """Emulated cycles per wall-clock second for a firmware (for `make bench`)."""
    with Emulator(hex_path, backend=backend, fx=fx) as emu:
        emu.run(CLOCK_HZ // 10)  # warm up the JIT
        start_cycles, start = emu.cycles, time.perf_counter()
        cycles = start_cycles
        while time.perf_counter() - start < seconds:
            cycles = emu.run(CLOCK_HZ // 4)
        return (cycles - start_cycles) / (time.perf_counter() - start)


def run_emulate(hex_path: str | Path, *, frames: int, ms: float, press: str, serial_in: str | None,
                screenshot: str | None, gif: str | None, scale: int, eeprom_in: bytes | None,
                eeprom_out: str | None, usb: str, echo: Callable[[str], None],
                backend: Backend | None = None, fx: FxImage | None = None) -> None:
    """The `whist emulate` command: run, then write what was asked for; messages go to `echo`.

    Serial output is written raw to stdout so it can be piped; everything else
    (summary, markers) goes through `echo`, meant for stderr.
    """
    presses = parse_schedule(press)
    with Emulator(hex_path, eeprom=eeprom_in, usb=usb, backend=backend, fx=fx) as emu:
        started = time.perf_counter()
        if serial_in:
            emu.serial_write(serial_in.encode().decode("unicode_escape").encode("latin-1"))
        try:
            pictures = emu.play(frames, presses, record=gif is not None)
        except EmulatorError as e:
            raise EmulatorError(f"{e}; for firmware that does not draw, run by time: --frames 0 --ms N") from e
        if ms:
            emu.run_ms(ms)
        sys.stdout.buffer.write(emu.serial_read())
        sys.stdout.flush()
        status = emu.status()
        wall = time.perf_counter() - started
        cycles = status["cycles"]
        echo(f"{status.get('emulator', 'avr8js')}: {status['frames']} frames, {cycles} cycles ({cycles / CYCLES_PER_MS:.1f} ms emulated) "
             f"in {wall:.2f} s, {cycles / wall / 1e6:.1f} M cycles/s; serial port "
             + (f"open at {status['usb']['openedAt'] / CYCLES_PER_MS:.2f} ms" if status["usb"]["openedAt"]
                else "not open"))
        last = None
        for value, cycle in emu.markers():
            echo(f"marker {value} at cycle {cycle}" + (f" (+{cycle - last})" if last is not None else ""))
            last = cycle
        if screenshot:
            emu.screenshot(screenshot, scale)
        if gif:
            save_gif(pictures or [emu.screen()], gif, scale=scale)
        if eeprom_out:
            Path(eeprom_out).write_bytes(emu.eeprom)
