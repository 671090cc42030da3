"""Reading a ``.arduboy`` package: its first binary's hex, device and FX images.

A package is a zip with ``info.json`` (schemaVersion 4 as the community's
writers emit it): ``binaries[0]`` names the hex in the zip (``filename``),
the device it is built for (``device``: Arduboy, ArduboyFX or ArduboyMini;
older packages leave it out and mean Arduboy) and, for an FX game, its
flash data and save images (``flashdata``, ``flashsave``: files in the
zip); and what a cart lists for it (:class:`Listing`: the package's title,
version, author and description, the binary's ``cartimage``). Players' tools (ProjectABE among them) take only the first binary, so
FX games ship one package per device; so does this reader.

Every problem is an :class:`ArduboyFileError` whose message is one line
naming the file and what to do, so a command can print it as it is.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.bounded import InputError, Kind, cut, quote, read as read_file, size_words
from . import intelhex
from .emulator import FX_SELECT, FxImage

DEVICES = ("Arduboy", *FX_SELECT)
FX_CHIP_BYTES = 16 * 1024 * 1024
REPACKAGE = "repackage the game"
# A package as a command reads it (generator/engine/bounded.py): a binary for each device, each with at most a
# chip's worth of data and save (this reader refuses more), their hexes and pictures: 64 MB. The game's FX
# package is 0.4 MB, its data 3 MB.
PACKAGE_BYTES = 4 * FX_CHIP_BYTES
PACKAGE = Kind("a .arduboy package", PACKAGE_BYTES, "build the packages with 'make hex' or name another",
               magic=b"PK")
INFO_BYTES = 1 << 20  # info.json: a list of binaries, a description and a changelog are a few KB
CARTIMAGE_BYTES = 1 << 20  # a binary's cart image: a 128x64 PNG is a few hundred bytes


class ArduboyFileError(ValueError):
    """The file is not a usable .arduboy package; the message says why, in one line."""


@dataclass(frozen=True)
class Listing:
    """What a cart's slot shows for the game, as the cart tools take it from a package: info.json's title
    (else the binary's), version, author and description, and the binary's cart image (PNG bytes, if the
    zip has it)."""

    title: str = ""
    version: str = ""
    author: str = ""
    description: str = ""
    cartimage: bytes | None = None


@dataclass(frozen=True)
class Program:
    """A package's first binary: the hex (its file name in the zip and its text), the device, its FX images,
    and its listing (not part of what the program is: equal programs may be listed differently)."""

    name: str
    hex: str
    device: str
    fx: FxImage | None  # None on a plain Arduboy; on an FX device, its chip (empty without flashdata)
    listing: Listing = field(default_factory=Listing, compare=False)


def read(path: str | Path) -> Program:
    """The first binary of the package at ``path``; raises ArduboyFileError for anything unusable."""
    path = Path(path)
    try:
        raw = read_file(path, PACKAGE)
    except InputError as e:
        raise ArduboyFileError(str(e)) from None
    if not (raw.startswith(b"PK") or zipfile.is_zipfile(io.BytesIO(raw))):  # a zip cut short still starts "PK"
        raise ArduboyFileError(f"{path}: not a zip, so not a .arduboy package; give the package 'make hex' "
                               "writes (a .hex runs without --arduboy)")
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as package:
            return _program(path, package)
    except (zipfile.BadZipFile, zlib.error, EOFError):
        raise ArduboyFileError(f"{path}: a damaged or truncated zip; download or build the package again") from None


def _program(path: Path, package: zipfile.ZipFile) -> Program:
    names = set(package.namelist())
    if "info.json" not in names:
        raise ArduboyFileError(f"{path}: a zip without info.json, so not a .arduboy package; {REPACKAGE}")
    try:
        info = json.loads(_member(path, package, "info.json", INFO_BYTES).decode("utf-8-sig"))
    except ValueError:
        raise ArduboyFileError(f"{path}: info.json is not valid JSON; {REPACKAGE}") from None
    binaries = info.get("binaries") if isinstance(info, dict) else None
    first = binaries[0] if isinstance(binaries, list) and binaries else None
    if not isinstance(first, dict) or not isinstance(first.get("filename"), str):
        raise ArduboyFileError(f'{path}: info.json lists no binary with a "filename" in "binaries"; {REPACKAGE}')
    device = first.get("device", "Arduboy")
    if device not in DEVICES:
        raise ArduboyFileError(f"{path}: {cut(first['filename'])} is for device {quote(str(device))}, not one of "
                               f"{', '.join(DEVICES)}; {REPACKAGE}")

    def member(key: str) -> bytes:
        name = first.get(key)
        if not isinstance(name, str) or name not in names:
            shown = quote(name) if isinstance(name, str) else cut(repr(name))
            raise ArduboyFileError(f"{path}: info.json's {key} {shown} is not a file in the zip; {REPACKAGE}")
        return _member(path, package, name, intelhex.HEX_BYTES if key == "filename" else FX_CHIP_BYTES)

    name = first["filename"]
    hex_text = _hex_text(path, name, member("filename"))
    listing = _listing(path, info, first, package, names)
    flash = {key: member(key) for key in ("flashdata", "flashsave") if first.get(key)}
    if device == "Arduboy":
        if flash:
            raise ArduboyFileError(f"{path}: {name} has {' and '.join(flash)} but is for device Arduboy, which has "
                                   f"no flash chip; {REPACKAGE} for ArduboyFX or ArduboyMini")
        return Program(name, hex_text, device, None, listing)
    data, save = flash.get("flashdata", b""), flash.get("flashsave", b"")
    if len(data) + len(save) > FX_CHIP_BYTES:
        raise ArduboyFileError(f"{path}: flashdata and flashsave take {len(data) + len(save):,} bytes, more than "
                               f"the chip's {FX_CHIP_BYTES:,}; {REPACKAGE}")
    return Program(name, hex_text, device, FxImage(device, data, save), listing)


def _listing(path: Path, info: dict, first: dict, package: zipfile.ZipFile, names: set[str]) -> Listing:
    def text(source: dict, key: str) -> str:
        value = source.get(key)
        return value if isinstance(value, str) else ""

    image = first.get("cartimage")
    return Listing(text(info, "title") or text(first, "title"), text(info, "version"), text(info, "author"),
                   text(info, "description"),
                   _member(path, package, image, CARTIMAGE_BYTES) if isinstance(image, str) and image in names
                   else None)


def _member(path: Path, package: zipfile.ZipFile, name: str, limit: int) -> bytes:
    """A file of the zip, refused by the size its header gives when more than ``limit`` (the zip module reads
    no more than that size, so a member cannot unpack into more than it says)."""
    size = package.getinfo(name).file_size
    if size > limit:
        raise ArduboyFileError(f"{path}: {quote(name)} unpacks to {size_words(size)}, more than it can hold "
                               f"({size_words(limit)} at most); {REPACKAGE}")
    return package.read(name)


def _hex_text(path: Path, name: str, raw: bytes) -> str:
    """The binary's Intel HEX, checked: a package whose hex is damaged is refused here."""
    try:
        text = raw.decode("ascii")
        intelhex.parse(text)
    except UnicodeDecodeError:
        raise ArduboyFileError(f"{path}: {name} is not a hex file (binary data); {REPACKAGE}") from None
    except intelhex.HexError as e:
        raise ArduboyFileError(f"{path}: {name} is not a valid Intel HEX file ({e}); {REPACKAGE}") from None
    return text
