"""Shared fixtures: one firmware build per test session, built from a fresh generation."""

from __future__ import annotations

import fcntl
import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parent.parent

needs_firmware = pytest.mark.skipif(
    shutil.which("avr-gcc") is None or shutil.which("node") is None,
    reason="needs avr-gcc and node: make test installs them",
)


@contextmanager
def at_root():
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(old)


def build_hex(out: Path, patch: Callable[[Path], None] | None = None) -> Path:
    """Generate and compile the firmware under ``out``; ``patch`` may edit the generated sources first."""
    from generator.codegen import generate_all
    from generator.targets.package import compile_firmware

    with at_root():
        gen = out / "gen"
        generate_all(gen, Path("assets"))
        if patch:
            patch(gen)
        return compile_firmware(gen, out / "avr").with_suffix(".hex")


def shared_build(shared: Path) -> Path:
    """The complete `whist build` of this tree in ``shared``/firmware: whoever comes first builds it
    while the others wait on a lock. The build's printed report is kept beside it (``report.txt``)."""
    from generator.targets.package import build

    out = shared / "firmware"
    with open(shared / "firmware.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "report.txt").exists():
            lines: list[str] = []
            with at_root():
                build(out / "build", out / "dist", lines.append)
            (out / "report.txt").write_text("\n".join(lines) + "\n")
    return out / "dist"


@pytest.fixture(scope="session")
def firmware_dist(tmp_path_factory) -> Path:
    """A complete `whist build` of this tree (Whist.hex, Whist.arduboy), once per test run.

    Under pytest-xdist the controller starts it (pytest_sessionstart) and every worker waits for it
    in the run's shared temporary folder, then all use it.
    """
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the folder all the workers' temporary folders are in
    return shared_build(shared)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist the controller, idle otherwise, builds the firmware while the workers run the
    tests that need none (pytest_collection_modifyitems puts those first). If this build fails, the
    first test that needs it builds again and reports why."""
    config = session.config
    if os.environ.get("PYTEST_XDIST_WORKER") or not getattr(config.option, "numprocesses", None):
        return
    if shutil.which("avr-gcc") is None or shutil.which("node") is None:
        return
    shared = config._tmp_path_factory.getbasetemp()

    def build_quietly() -> None:
        try:
            shared_build(shared)
        except Exception:  # noqa: BLE001 - the workers' fixture builds again and fails with the reason
            pass

    threading.Thread(target=build_quietly, daemon=True).start()


@pytest.fixture(scope="session")
def firmware_hex(firmware_dist) -> Path:
    """Whist.hex built from this tree, once per session."""
    return firmware_dist / "Whist.hex"


@pytest.fixture(scope="session")
def firmware_elf(firmware_dist) -> Path:
    """The ELF that Whist.hex was made from (its symbols), once per session."""
    return firmware_dist.parent / "build" / "avr" / "Whist.elf"


@pytest.fixture(scope="session")
def fx_hex(firmware_dist) -> Path:
    """The FX edition's hex (for the Arduboy FX: the chip on PD1), once per session."""
    return firmware_dist / "ArduboyFX" / "WhistFX.hex"


@pytest.fixture(scope="session")
def fx_image(firmware_dist):
    """The FX edition's data and save images as the emulated Arduboy FX's chip holds them after its
    first boot: the data in the development layout, the save block holding only the mark that the
    whole image was checked there (fxdata.checked_save; test_fx_saves checks that a first boot leaves
    exactly that), so each boot here takes as long as a player's later ones, not the first's 4 s."""
    from generator.codegen import fxdata
    from generator.targets.emulator import FxImage

    data = (firmware_dist / "ArduboyFX" / "WhistFX-data.bin").read_bytes()
    page = fxdata.CHIP_PAGES - (len(data) + fxdata.SAVE_BYTES) // fxdata.PAGE
    return FxImage("ArduboyFX", data, fxdata.checked_save(data, page))


@pytest.fixture(scope="session")
def projectabe():
    """The ProjectABE back-end (generator/targets/projectabe.py finds its build); skipped, with why, without one."""
    from generator.targets.emulator import EmulatorError, backend

    try:
        return backend("projectabe")
    except EmulatorError as e:
        pytest.skip(f"ProjectABE tests skipped: {e}")


@pytest.fixture(params=("avr8js", "projectabe"))
def each_emulator(request):
    """Each emulator back-end in turn, for what must hold in both; ProjectABE's skipped, with why, without its build."""
    from generator.targets.emulator import AVR8JS

    return AVR8JS if request.param == "avr8js" else request.getfixturevalue("projectabe")


@pytest.fixture(scope="session")
def endgame_tables(tmp_path_factory):
    """The endgame tables as `make hex` writes them, in a temporary file where ``hard-fx`` looks for
    them, so the tests need no build; yields their path."""
    from generator.ai import endgame

    path = tmp_path_factory.mktemp("endgame") / endgame.FILE
    path.write_bytes(endgame.generate())
    old, endgame.DEFAULT_PATH = endgame.DEFAULT_PATH, path
    yield path
    endgame.DEFAULT_PATH = old


def emulator_args(chosen) -> list[str]:
    """The command-line options that pick this back-end."""
    return ["--emulator", chosen.name] + (["--projectabe", str(chosen.projectabe)] if chosen.projectabe else [])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run only in `make longtest` (WHIST_LONGTEST=1). The order is the one
    pytest-xdist hands out: first the tests that need no firmware (the workers run them while the
    controller builds it), then the groups that must stay on one worker (the largest units: started
    early, they do not leave one worker finishing alone), then the rest."""
    if not os.environ.get("WHIST_LONGTEST"):
        for item in items:
            if item.get_closest_marker("slow"):
                item.add_marker(pytest.mark.skip(reason="a long run: make longtest"))

    def rank(item: pytest.Item) -> tuple[bool, bool]:
        return "firmware_dist" in getattr(item, "fixturenames", ()), item.get_closest_marker("xdist_group") is None

    items.sort(key=rank)
