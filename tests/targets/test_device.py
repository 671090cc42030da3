"""`whist trace --port`: the cross-test against a device, here a fake one on a pseudo-terminal."""

import os
import threading
import tty

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.ai.players import seats
from generator.engine.game import play_game
from generator.engine.rules import Variant


class FakeDevice:
    """Answers a `play` line with the engine's trace, optionally with one line altered."""

    def __init__(self, alter_line: int | None = None, reply: str | None = None) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self.slave = slave
        self.alter_line = alter_line
        self.reply = reply
        self.received = b""
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while b"\n" not in self.received:
            self.received += os.read(self.master, 256)
        words = dict(w.split("=") for w in self.received.decode().split()[1:])
        if self.reply is not None:
            out = [self.reply]
        else:
            v = Variant.make(int(words["deck"]), words["scoring"], int(words["target"]))
            out = ["# whist ready"] + play_game(int(words["seed"]), v, seats(int(words["seed"]), (words["p0"], words["p1"]))).lines
            if self.alter_line is not None:
                line = out[self.alter_line]  # the other seat wins this trick
                out[self.alter_line] = line.replace("win=0", "win=_").replace("win=1", "win=0").replace("win=_", "win=1")
        os.write(self.master, ("\n".join(out) + "\n").encode())

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def device(request):
    dev = FakeDevice(**getattr(request, "param", {}))
    yield dev
    dev.close()


def test_identical_traces_pass(device):
    r = CliRunner().invoke(main, ["trace", "--seed", "7", "--deck", "28", "--scoring", "every", "--port", device.port])
    assert r.exit_code == 0, r.output
    assert "identical:" in r.output
    assert device.received.startswith(b"play seed=7 deck=28 scoring=every target=10 p0=greedy p1=greedy fast=1")


@pytest.mark.parametrize("device", [{"alter_line": 20}], indirect=True)
def test_a_differing_trace_shows_the_first_difference(device):
    r = CliRunner().invoke(main, ["trace", "--seed", "7", "--port", device.port])
    assert r.exit_code == 1
    assert "first difference at trace line 20" in r.output
    assert "engine: trick" in r.output and "device: trick" in r.output


@pytest.mark.parametrize("device", [{"reply": "error deck must be 52 or 28"}], indirect=True)
def test_a_refusing_device_is_one_error_line(device):
    r = CliRunner().invoke(main, ["trace", "--seed", "7", "--port", device.port])
    assert r.exit_code == 1
    assert r.output.strip().count("\n") == 0 and "refused the command" in r.output


@pytest.mark.parametrize("device", [{"reply": "error busy"}], indirect=True)
def test_a_device_in_use_says_how_to_free_it(device):
    r = CliRunner().invoke(main, ["trace", "--seed", "7", "--port", device.port])
    assert r.exit_code == 1
    assert r.output.strip().count("\n") == 0 and "a person is playing" in r.output and "UP, then B" in r.output


def test_a_missing_port_is_one_error_line():
    r = CliRunner().invoke(main, ["trace", "--seed", "7", "--port", "/dev/nonexistent-whist"])
    assert r.exit_code == 1 and r.output.startswith("error: /dev/nonexistent-whist: cannot open the port")
