"""The compiled firmware kept by the hash of everything the compiler reads (as ccache would).

`make test` builds every edition again to prove distributable/ fresh; after `make hex` on the same tree
that build would compile the same sources with the same compiler a second time (about 40 CPU-seconds
of the run's budget). The key covers the sources (firmware/ and the generated folder, headers included),
the edition's defines, scripts/avr-build (its flags), $AVR_TUNE, the compiler's version and the Arduino
core and avr-libc headers it compiles against: any change among them compiles again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from ..ai.native import cache_dir

# What a compile leaves that the rest of the build reads (the objects and the core's archive stay behind).
KEPT = ("Whist.elf", "Whist.hex", "Whist.map", "order.ld", "link.txt")
NEWEST = 24  # compiles kept (about 0.5 MB each); older ones are removed
TOOLCHAIN_DIRS = (Path("/usr/share/arduino/hardware/arduino/avr"), Path("/usr/lib/avr/include"))


def _folder(h: "hashlib._Hash", folder: Path) -> None:
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes() + b"\0")


def key(gen: Path, defines: str) -> str:
    """The hash of every input of one edition's compile."""
    h = hashlib.sha256()
    for tool in ("avr-gcc", "avr-ld"):
        h.update(subprocess.run([tool, "--version"], capture_output=True).stdout)
    for folder in TOOLCHAIN_DIRS:
        if folder.is_dir():
            _folder(h, folder)
    for folder in (Path("firmware"), gen):
        _folder(h, folder)
    h.update(Path("scripts/avr-build").read_bytes())
    h.update(f"\0{defines}\0{os.environ.get('AVR_TUNE', '')}".encode())
    return h.hexdigest()[:32]


def restore(k: str, avr: Path) -> bool:
    """Copy a kept compile into ``avr``; False when there is none."""
    kept = cache_dir() / f"firmware-{k}"
    if not all((kept / name).is_file() for name in KEPT):
        return False
    avr.mkdir(parents=True, exist_ok=True)
    for name in KEPT:
        shutil.copyfile(kept / name, avr / name)
    return True


def store(k: str, avr: Path) -> None:
    """Keep this compile (written to a temporary folder first, so a reader never sees half of it)."""
    final = cache_dir() / f"firmware-{k}"
    if final.is_dir():
        return
    part = final.with_name(f"{final.name}.{os.getpid()}.part")
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)
    for name in KEPT:
        shutil.copyfile(avr / name, part / name)
    try:
        part.rename(final)
    except OSError:  # another process kept the same compile first
        shutil.rmtree(part, ignore_errors=True)
    kept = sorted((p for p in cache_dir().glob("firmware-*") if not p.name.endswith(".part")),
                  key=lambda p: p.stat().st_mtime)
    for old in kept[:-NEWEST]:
        shutil.rmtree(old, ignore_errors=True)
