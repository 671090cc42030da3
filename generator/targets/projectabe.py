"""Where the ProjectABE build comes from (the emulator players use; emulator/projectabe/).

Its published ``app.js`` and ``layouts/Sim.html`` are never copied into the
project: they are loaded from a folder, looked for in this order:

1. ``--projectabe DIR`` (the ``explicit`` argument), else ``WHIST_PROJECTABE=DIR``;
2. ``../shared/projectabe`` beside the repository (CI), when present;
3. the user's cache, which ``whist projectabe fetch`` fills.

The files must match the sha256 in ``emulator/projectabe/pinned.json``; the
Node side checks them on every load and refuses another build unless
``--any-build`` is given. ``fetch`` downloads the pinned commit's files and
checks them before anything is written; nothing else here uses the network.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.request
from pathlib import Path
from typing import Callable

from ..engine.bounded import InputError, Kind, check, what_is

ROOT = Path(__file__).resolve().parents[2]
PINNED_FILE = ROOT / "emulator" / "projectabe" / "pinned.json"
PINNED = json.loads(PINNED_FILE.read_text())
SHARED = ROOT.parent / "shared" / "projectabe"
ENV = "WHIST_PROJECTABE"
# A file of the build as the emulator reads it (generator/engine/bounded.py): the pinned app.js is 0.4 MB; another
# build (--any-build) gets twenty times that.
BUILD_FILE_BYTES = 8 << 20
BUILD_FILE = Kind("a file of ProjectABE's build", BUILD_FILE_BYTES, "run: whist projectabe fetch")


class NotFound(Exception):
    """No usable ProjectABE folder; the message is one line saying what to do."""


def cache_dir() -> Path:
    """Where `whist projectabe fetch` keeps the pinned files: $XDG_CACHE_HOME (or ~/.cache)/whist/projectabe/COMMIT."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "whist" / "projectabe" / PINNED["commit"]


def has_build(folder: Path) -> bool:
    return (folder / "app.js").is_file()


def find(explicit: str | Path | None = None) -> Path:
    """The ProjectABE folder to use (see the module's docstring); NotFound if there is none."""
    for given, how in ((explicit, "--projectabe"), (os.environ.get(ENV), ENV)):
        if given:
            folder = Path(given).expanduser().resolve()
            if (what := what_is(folder)) not in ("a folder", None):
                raise NotFound(f"{how} {folder}: {what}, not a folder; give the folder of a ProjectABE build, or "
                               f"run: whist projectabe fetch (downloads the pinned build into {cache_dir()})")
            if not has_build(folder):
                raise NotFound(f"{how} {folder}: no app.js there; run: whist projectabe fetch "
                               f"(downloads the pinned build into {cache_dir()})")
            for name in PINNED["files"]:  # the emulator reads them: regular files of a build's size
                try:
                    check(folder / name, BUILD_FILE)
                except InputError as e:
                    raise NotFound(str(e)) from None
            return folder
    for folder in (SHARED, cache_dir()):
        if has_build(folder):
            return folder.resolve()
    raise NotFound(f"no ProjectABE build: pass --projectabe DIR or set {ENV}=DIR (CI uses {SHARED}, not present); "
                   f"run: whist projectabe fetch (downloads the pinned files into {cache_dir()})")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pinned_files() -> dict[str, tuple[str, str]]:
    """path -> (commit, sha256) of every file fetch downloads (LICENSE from the pinned master commit)."""
    files = {path: (PINNED["commit"], digest) for path, digest in PINNED["files"].items()}
    license_ = PINNED["license"]
    files[license_["path"]] = (license_["commit"], license_["sha256"])
    return files


def _download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (a fixed https URL)
        return response.read()


def fetch(dest: Path | None = None, download: Callable[[str], bytes] = _download,
          echo: Callable[[str], None] = lambda line: None) -> Path:
    """Download the pinned files into ``dest`` (default: cache_dir()), each checked against its sha256.

    Every file is downloaded and checked before any is written, so a failed
    fetch leaves no half build behind. Returns the folder.
    """
    dest = Path(dest) if dest else cache_dir()
    got: dict[str, bytes] = {}
    for path, (commit, digest) in pinned_files().items():
        url = PINNED["url"].format(commit=commit, path=path)
        try:
            data = download(url)
        except OSError as e:
            raise NotFound(f"cannot download {url}: {e}") from None
        if sha256(data) != digest:
            raise NotFound(f"{url}: sha256 {sha256(data)}, expected {digest}; nothing written")
        got[path] = data
        echo(f"{path}: {len(data):,} bytes, sha256 ok")
    for path, data in got.items():
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(target)
    return dest
