"""Everything ``whist generate`` writes: the C++ the firmware is built from."""

from __future__ import annotations

from pathlib import Path


def generate_all(out_dir: Path, assets_dir: Path) -> list[Path]:
    """Write every generated source into ``out_dir``; returns the files written."""
    from . import coregen, sprites

    return coregen.generate_core(out_dir) + sprites.generate(assets_dir, out_dir)
