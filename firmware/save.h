// save: checked blocks in EEPROM for settings and saved games.
//
// A block of `len` data bytes at `addr` takes size(len) bytes:
//   'W', tag, data[len], Fletcher-16 of (tag, len, data) low byte, high byte.
// The tag names the block and its format (e.g. 'S' settings v1, 'G' game v1;
// not 0xFF): changing the struct's size or tag makes old saves read as
// "no save". Blocks live at FIRST (16) or above: bytes 0..15 belong to the
// Arduboy system and are never written. Stores rewrite only changed bytes.
//
//   constexpr uint16_t SETTINGS = save::FIRST;
//   constexpr uint16_t GAME = SETTINGS + save::size(sizeof(Settings));
//   if (!save::load(SETTINGS, 'S', &settings, sizeof settings)) settings = DEFAULTS;
#pragma once
#include <stdint.h>

namespace save {

constexpr uint16_t FIRST = 16;
constexpr uint16_t END = 1024;
constexpr uint16_t size(uint8_t len) { return len + 4; }

// Fills data and returns true if a valid block with this tag and length is
// at addr; otherwise (erased, all 0xFF, other tag, bad checksum, address
// outside FIRST..END) leaves data unchanged and returns false.
bool load(uint16_t addr, uint8_t tag, void* data, uint8_t len);

// Writes the block; does nothing for an address outside FIRST..END.
void store(uint16_t addr, uint8_t tag, const void* data, uint8_t len);

// Makes our block at addr read as "no save" (its tag byte becomes 0xFF);
// writes nothing unless our signature is there.
void erase(uint16_t addr);

}  // namespace save
