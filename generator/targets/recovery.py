"""The copy an upload into a cart keeps, on the computer, of the chip's bytes a cut cable could cost.

Before the uploader erases a block of the chip that was not blank (the one
with the slot's header, which may hold the end of the slot before it; one
the slot shares with the next slot), it saves the block's bytes as they were
and as they will be, with the saved games it carries over, in a file under
``$XDG_STATE_HOME/whist-arduboy`` (``~/.local/state/whist-arduboy``). The
file goes when the upload has finished. The next run finds it first: if the
chip's blocks are that upload's, part done (each page as it was, blank, or
on its way to what was to be written), it writes the old bytes back, so the
cart is exactly as before the cut, and uses the saves it kept; a file whose
blocks match neither (another Arduboy's) stays, and the run says so.
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .fxchip import PAGE

PREFIX = "cart-recovery-"


def folder() -> Path:
    """Where the records are kept."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "whist-arduboy"


@dataclass(frozen=True)
class Record:
    """One upload's copy: each block (chip address, bytes before, bytes to be written) and the saves kept."""

    blocks: list[tuple[int, bytes, bytes]]
    saves: bytes | None
    path: Path | None = None


def save(where: Path, record: Record) -> Path:
    """Write the record, synced to disk before the chip is touched; its path."""
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{PREFIX}{time.time_ns()}.zip"
    temporary = path.with_suffix(".part")
    meta = {"blocks": [address for address, _, _ in record.blocks], "saves": record.saves is not None}
    with open(temporary, "wb") as f:
        with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("record.json", json.dumps(meta))
            for address, before, after in record.blocks:
                z.writestr(f"{address:06X}.before", before)
                z.writestr(f"{address:06X}.after", after)
            if record.saves is not None:
                z.writestr("saves", record.saves)
        f.flush()
        os.fsync(f.fileno())
    temporary.replace(path)
    return path


def load_all(where: Path) -> list[Record]:
    """Every record kept, oldest first; an unreadable file is skipped (it names no chip it could restore)."""
    records = []
    for path in sorted(where.glob(f"{PREFIX}*.zip")) if where.is_dir() else []:
        try:
            with zipfile.ZipFile(path) as z:
                meta = json.loads(z.read("record.json"))
                blocks = [(a, z.read(f"{a:06X}.before"), z.read(f"{a:06X}.after")) for a in meta["blocks"]]
                saves = z.read("saves") if meta["saves"] else None
        except (OSError, KeyError, ValueError, zipfile.BadZipFile):
            continue
        records.append(Record(blocks, saves, path))
    return records


def _page_state(page: bytes, before: bytes, after: bytes) -> str:
    """'before', 'after', or 'between' (erased, or on its way: an erase only sets bits, programming only
    clears them); 'other' if neither explains it."""
    if page == before:
        return "before"
    if page == after:
        return "after"
    now, old, new = (int.from_bytes(p, "big") for p in (page, before, after))
    if old & ~now == 0 or ~now & new == 0:
        return "between"
    return "other"


def state(chip: list[bytes], record: Record) -> str:
    """What the chip's copies of the record's blocks say: 'before' (untouched), 'after' (all written),
    'cut' (an upload of this record stopped part way), or 'other' (another chip, or changed since)."""
    seen = set()
    for data, (_, before, after) in zip(chip, record.blocks):
        for at in range(0, len(data), PAGE):
            seen.add(_page_state(data[at:at + PAGE], before[at:at + PAGE], after[at:at + PAGE]))
    if not seen or "other" in seen:
        return "other"
    return seen.pop() if len(seen) == 1 else "cut"
