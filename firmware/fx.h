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
// data: at the page a cart builder wrote into vector 5, else at the end of the
// chip (where ProjectABE maps a package's data, then where the community's
// development upload puts data and save). True once the checksum of its texts
// and sprites matches this build's. Then the save block: on a cart the one its
// slot's header gives (below), in the development layout the 8 KB after the
// data, else (ProjectABE, a data-only upload) none.
bool begin();

// Whether the whole data image, the endgame tables included, is this build's:
// summed once (about 4 s: `shown(k)` is called after every 64 KB, k of
// DATA_PAGES / 256, for a progress bar), then remembered by a mark in the save
// block (the data's page and checksum), so later boots only read the mark.
// Without a save block it is summed at every boot. Needs save::begin first.
bool verify(void (*shown)(uint8_t));

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

// The save block: 0 (none), 16 or 32 pages (one or two 4 KB sectors). On a
// cart the slot's own: the chain of slot headers walked from page 0 to the
// slot whose data page is ours; its save page (header bytes 19-20) must be
// the one in vector 6, on a sector boundary after the data, the block whole
// sectors to the slot's end (slot page + size, bytes 12-13), and the next
// slot (bytes 10-11) no nearer. Anything else: no save block, so nothing is
// ever written outside the one the cart gave. Of a bigger block only the
// first 8 KB are used.
constexpr uint16_t SECTOR = 4096;
uint8_t savePages();
inline bool hasSave() { return savePages(); }
// No more saves (the chip took no write: ProjectABE drops them); the screens say so.
void loseSave();
// n bytes of the save block from its byte `at`.
void readSave(uint16_t at, uint8_t* out, uint16_t n);
// Erases the save block's 4 KB sector holding byte `at` (about 45 ms).
void eraseSave(uint16_t at);
// Programs n bytes (0: 256) from save byte `at`, within its 256-byte page
// (erased before; the page's other bytes are left alone).
void programSave(uint16_t at, const uint8_t* data, uint8_t n);
// Whether the 256 bytes at save byte `at` are those of `page`.
bool saveHolds(uint16_t at, const uint8_t* page);

}  // namespace fx
