"""The game's editions: one source, built three ways.

- **classic** (``Whist.hex``): runs on every Arduboy, FX or not; its data in
  program flash, its saves in EEPROM.
- **fx** and **mini**: for the Arduboy FX and the Arduboy Mini, whose 16 MB
  flash chip holds the texts, font and sprites and the saves
  (generator/codegen/fxdata.py, firmware/fx.h). The two differ only in the
  chip's select line (PD1 on the FX, PE2 on the Mini), so each needs its own
  hex; their data and save images are the same.

The FX and the Mini ship the 3 KB Cathy3K bootloader (at 0x7400), so a
program may take 29 KB there (the cart builder reads programs into 29 x 1024
bytes); the classic edition stays within the 28 KB the 4 KB Caterina leaves.
Each build keeps 512 B spare.
"""

from __future__ import annotations

from dataclasses import dataclass

FLASH = 32 * 1024  # the ATmega32U4's program flash, the bootloader's included
CATERINA_PROGRAM = FLASH - 4 * 1024  # less the 4 KB Caterina bootloader at 0x7000
CATHY3K_PROGRAM = FLASH - 3 * 1024  # less the 3 KB Cathy3K bootloader at 0x7400
FLASH_SPARE = 512  # always kept free: a build fails above its limit


@dataclass(frozen=True)
class Edition:
    name: str  # classic, fx, mini
    device: str  # the .arduboy package's device: Arduboy, ArduboyFX, ArduboyMini
    stem: str  # file names: Whist.hex, WhistFX.hex...
    folder: str  # under distributable/: "" for the classic edition
    defines: str  # compiler flags that make this edition of the firmware
    flash_max: int  # the program bytes its bootloader leaves

    @property
    def fx(self) -> bool:
        """Whether its data and saves are on the FX chip."""
        return self.name != "classic"

    @property
    def flash_limit(self) -> int:
        return self.flash_max - FLASH_SPARE


CLASSIC = Edition("classic", "Arduboy", "Whist", "", "", CATERINA_PROGRAM)
FX = Edition("fx", "ArduboyFX", "WhistFX", "ArduboyFX", "-DWHIST_FX=1", CATHY3K_PROGRAM)
MINI = Edition("mini", "ArduboyMini", "WhistMini", "ArduboyMini", "-DWHIST_FX=1 -DWHIST_FX_MINI=1", CATHY3K_PROGRAM)
EDITIONS = (CLASSIC, FX, MINI)
