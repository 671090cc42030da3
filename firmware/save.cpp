#include "save.h"

#include <avr/eeprom.h>

namespace save {

namespace {

constexpr uint8_t SIGNATURE = 'W';

bool inside(uint16_t addr, uint8_t len) {
  return addr >= FIRST && addr + size(len) <= END;
}

// a + b mod 255 for a, b < 255 (no division routine pulled in).
uint8_t add255(uint8_t a, uint8_t b) {
  uint16_t s = a + b;
  return s >= 255 ? s - 255 : s;
}

// Fletcher-16 (mod 255) of tag, len and the data. Both sums stay below 255,
// so it never equals the 0xFFFF of erased EEPROM.
uint16_t checksum(uint8_t tag, uint8_t len, const uint8_t* data, bool fromEeprom) {
  uint8_t a = add255(tag, 0), b = a;
  a = add255(a, len);
  b = add255(b, a);
  for (uint8_t i = 0; i < len; i++) {
    a = add255(a, fromEeprom ? eeprom_read_byte(data + i) : data[i]);
    b = add255(b, a);
  }
  return (uint16_t)b << 8 | a;
}

uint8_t* at(uint16_t addr) { return (uint8_t*)addr; }

}  // namespace

bool load(uint16_t addr, uint8_t tag, void* data, uint8_t len) {
  if (!inside(addr, len)) return false;
  if (eeprom_read_byte(at(addr)) != SIGNATURE || eeprom_read_byte(at(addr + 1)) != tag) return false;
  uint16_t sum = eeprom_read_word((const uint16_t*)at(addr + 2 + len));
  if (sum != checksum(tag, len, at(addr + 2), true)) return false;
  eeprom_read_block(data, at(addr + 2), len);
  return true;
}

void store(uint16_t addr, uint8_t tag, const void* data, uint8_t len) {
  if (!inside(addr, len)) return;
  const uint8_t* d = (const uint8_t*)data;
  eeprom_update_byte(at(addr), SIGNATURE);
  eeprom_update_byte(at(addr + 1), tag);
  for (uint8_t i = 0; i < len; i++) eeprom_update_byte(at(addr + 2 + i), d[i]);
  eeprom_update_word((uint16_t*)at(addr + 2 + len), checksum(tag, len, d, false));
}

void erase(uint16_t addr) {
  // Only over our own block: these bytes may hold another game's data.
  if (inside(addr, 0) && eeprom_read_byte(at(addr)) == SIGNATURE) eeprom_update_byte(at(addr + 1), 0xFF);
}

}  // namespace save
