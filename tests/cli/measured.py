"""`whist` commands run and measured one by one, each in a child forked from one Python that has the command
line loaded: its exit status, what it printed, its peak memory (the child's and those it started, as the
kernel counts them) and its time. One interpreter start for many commands keeps the tests quick; a child
starts from what every `whist` has loaded, so its memory is a real command's.

As a program: a JSON list of cases on stdin (``{"args": [...], "stdin": path or null}``), a JSON list of
results on stdout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10.0  # seconds before a child is taken to be stuck (blocked on a FIFO, say) and killed


def run_all(cases: list[dict]) -> list[dict]:
    """Run the cases in a fresh Python (see the module's docstring) and return their results, in order."""
    proc = subprocess.run([sys.executable, __file__], input=json.dumps(cases), capture_output=True, text=True,
                          cwd=ROOT, timeout=TIMEOUT * len(cases) + 60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _child(args: list[str], stdin: str | None, out: int, err: int) -> None:
    """In the forked child: the command with its standard streams on these files, then exit, whatever happens."""
    from generator.cli import main

    code = 1
    try:
        os.dup2(os.open(stdin or os.devnull, os.O_RDONLY), 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        main.main(args, prog_name="whist")
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException as e:  # noqa: BLE001 (reported as the traceback a user would see)
        import traceback

        traceback.print_exception(e)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def measure(args: list[str], stdin: str | None = None) -> dict:
    """One command in a forked child: code, stdout, stderr, peak_mb, seconds (wall clock), cpu (seconds of
    processor time, the processes it started included), timed_out."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(args, stdin, out.fileno(), err.fileno())
        timed_out = False
        while True:
            got, status, usage = os.wait4(pid, os.WNOHANG)
            if got:
                break
            if time.monotonic() - started > TIMEOUT:
                os.kill(pid, signal.SIGKILL)
                _, status, usage = os.wait4(pid, 0)
                timed_out = True
                break
            time.sleep(0.002)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return {"code": os.waitstatus_to_exitcode(status), "stdout": out.read().decode(errors="replace"),
                "stderr": err.read().decode(errors="replace"), "peak_mb": usage.ru_maxrss / 1024,
                "seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "timed_out": timed_out}


if __name__ == "__main__":
    import importlib

    sys.path.insert(0, str(ROOT))
    importlib.import_module("generator.cli.main")  # loaded once, before the children are forked

    results = [measure(c["args"], c.get("stdin")) for c in json.loads(sys.stdin.read())]
    sys.stdout.write(json.dumps(results))
