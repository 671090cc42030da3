// fx: the flash chip of the Arduboy FX and Mini (a W25Q128, 16 MB on the
// OLED's SPI bus), for the FX edition (built with WHIST_FX): the game's data
// (texts, font, sprites: fxdata.h) and its save block are there.
//
// The chip's select line is PD1 on the FX and PE2 on the Mini (WHIST_FX_MINI).
// The OLED stays selected between chip transfers, as the classic edition keeps
// it: a transfer deselects it and selects it again when it ends.
//
//   if (!fx::begin()) showError();        // no data of this build on the chip
//   fx::seek(sprites::title);             // a sequential read of the data...
//   uint8_t b = fx::read();               // ...a byte at a time
//   fx::end();
#pragma once
#include <stdint.h>
#ifdef __AVR__
#include <avr/io.h>
#endif

namespace fx {

// Drives the select line high (the chip deselected): hw::begin() calls it
// before the OLED's first byte, which the chip would otherwise take too.
void pins();

// Wakes the chip (the bootloader leaves it powered down) and finds the game's
// data: at the pages a cart builder wrote into vectors 5 and 6, else at the
// end of the chip (where ProjectABE maps a package's data, then where the
// community's development upload puts data and save). True once the data's
// checksum matches this build's.
bool begin();

// A read of the data from offset `at`: read() each byte, then end(). Nothing
// else may use the SPI bus in between (drawing into hw::frame is fine). Each
// byte's transfer starts before the last one is used (read() is inline:
// drawing calls it for every byte).
void seek(uint16_t at);
// Waits for the SPI byte under way.
__attribute__((always_inline)) inline void wait() {
  while (!(SPSR & _BV(SPIF))) {
  }
}
__attribute__((always_inline)) inline uint8_t read() {
  wait();
  uint8_t b = SPDR;
  SPDR = 0;
  return b;
}
void end();
// As seek, from an offset beyond 64 KB (the endgame tables).
void seekFar(uint32_t at);
// n bytes of the data from `at` into out.
void readBytes(uint16_t at, uint8_t* out, uint16_t n);

// The save block, when there is one (not where ProjectABE maps the data alone).
constexpr uint16_t SECTOR = 4096;
bool hasSave();
// n bytes of the save block from its byte `at`.
void readSave(uint16_t at, uint8_t* out, uint16_t n);
// Erases the save block's 4 KB sector holding byte `at` (about 45 ms).
void eraseSave(uint16_t at);
// Programs the 256-byte page of the save block at byte `at` (erased before).
void programSave(uint16_t at, const uint8_t* page);
// Programs the one byte at save byte `at` (erased before; the rest of its page is left alone).
void programSaveByte(uint16_t at, uint8_t b);
// Whether the 256 bytes at save byte `at` are those of `page`.
bool saveHolds(uint16_t at, const uint8_t* page);

}  // namespace fx
