"""Code generation: the C++ game core, the device players and the solver
rendered from the engine and the AI (``core``, ``templates/``), the serial
``protocol`` the firmware speaks, the sprites made from assets/*.png and the
packed texts (``text``, ``pack``).

It imports from ``generator.engine`` and ``generator.ai``, never from targets
or the command line.
"""

from __future__ import annotations

from pathlib import Path


def generate_all(out_dir: Path, assets_dir: Path, fx: bool = False) -> list[Path]:
    """Write every generated source into ``out_dir`` (what ``whist generate`` writes); returns the files written.

    With ``fx``, the FX edition's: the texts and sprites are read from the FX chip, whose data
    image (``fxdata*.bin``, the endgame tables in it) and header are written too (:mod:`.fxdata`),
    and the tables alone (``endgame.bin``, where ``hard-fx`` reads them).
    """
    from ..ai import endgame
    from . import core, fxdata, sprites, text

    files = core.generate_core(out_dir)
    if not fx:
        return files + sprites.generate(assets_dir, out_dir) + text.generate(assets_dir, out_dir)
    image = fxdata.build(Path(assets_dir), endgame.generate())
    tables = Path(out_dir) / endgame.FILE
    if not tables.exists() or tables.read_bytes() != image.tables:
        tables.write_bytes(image.tables)
    return (files + fxdata.generate(image, assets_dir, out_dir) + sprites.generate(assets_dir, out_dir, image.sprites)
            + text.generate(assets_dir, out_dir, fx=True) + [tables])
