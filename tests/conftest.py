"""Shared fixtures: one firmware build per test session, built from a fresh generation."""

from __future__ import annotations

import os
import shutil
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


@pytest.fixture(scope="session")
def firmware_dist(tmp_path_factory) -> Path:
    """A complete `whist build` of this tree (Whist.hex, Whist.arduboy), once per session."""
    from generator.targets.package import build

    out = tmp_path_factory.mktemp("firmware")
    with at_root():
        build(out / "build", out / "dist", lambda line: None)
    return out / "dist"


@pytest.fixture(scope="session")
def firmware_hex(firmware_dist) -> Path:
    """Whist.hex built from this tree, once per session."""
    return firmware_dist / "Whist.hex"


@pytest.fixture(scope="session")
def firmware_elf(firmware_dist) -> Path:
    """The ELF that Whist.hex was made from (its symbols), once per session."""
    return firmware_dist.parent / "build" / "avr" / "Whist.elf"


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


def emulator_args(chosen) -> list[str]:
    """The command-line options that pick this back-end."""
    return ["--emulator", chosen.name] + (["--projectabe", str(chosen.projectabe)] if chosen.projectabe else [])
