// The FX edition's flash chip (fx.h). Commands of the W25Q128 datasheet:
// 0x03 read, 0x05 status 1 (bit 0 busy), 0x06 write enable, 0x02 page program,
// 0x20 4 KB sector erase, 0xAB release power-down. Only these, and the status
// read held selected: ProjectABE's chip answers 0x05 with 1 once, then 0.
#if WHIST_FX
#include "fx.h"

#include <avr/io.h>
#include <avr/pgmspace.h>
#include <util/delay.h>

#include "fxdata.h"

namespace fx {

namespace {

#if WHIST_FX_MINI
#define FX_PORT PORTE
#define FX_DDR DDRE
constexpr uint8_t FX_BIT = 2;  // the Mini's select line: PE2
#else
#define FX_PORT PORTD
#define FX_DDR DDRD
constexpr uint8_t FX_BIT = 1;  // the FX's select line: PD1
#endif
constexpr uint8_t OLED_CS = 6;  // PD6

constexpr uint8_t READ = 0x03, PROGRAM = 0x02, ERASE_SECTOR = 0x20, STATUS = 0x05, WRITE_ENABLE = 0x06,
                  WAKE = 0xAB;
// A cart builder writes RETI and the game's data page into vector 5 (byte
// 0x14), its save page into vector 6 (0x18), each page big-endian after it.
constexpr uint16_t RETI = 0x9518;
constexpr uint8_t DATA_VECTOR = 0x14, SAVE_VECTOR = 0x18;

uint16_t dataPage, savePage;

__attribute__((always_inline)) inline uint8_t transfer(uint8_t b) {
  SPDR = b;
  wait();
  return SPDR;
}

void select() {
  PORTD |= _BV(OLED_CS);
  FX_PORT &= ~_BV(FX_BIT);
}

void deselect() {
  FX_PORT |= _BV(FX_BIT);
  PORTD &= ~_BV(OLED_CS);
}

// Selects the chip and sends cmd with the address of byte `at` from page
// `page`: page * 256 + at, its top two bytes page + at / 256.
void command(uint8_t cmd, uint16_t page, uint16_t at) {
  page += at >> 8;
  select();
  transfer(cmd);
  transfer(page >> 8);
  transfer(page);
  transfer(at);
}

void single(uint8_t cmd) {
  select();
  transfer(cmd);
  deselect();
}

void waitReady() {
  select();
  transfer(STATUS);
  while (transfer(0) & 1) {
  }
  deselect();
}

// The page in a vector a cart builder patched, or 0.
uint16_t patched(uint8_t vector) {
  if (pgm_read_word(vector) != RETI) return 0;
  return pgm_read_byte(vector + 2) << 8 | pgm_read_byte(vector + 3);
}

bool dataAt(uint16_t page) {
  dataPage = page;
  uint16_t a = 0, b = 0;
  seek(0);
  for (uint16_t i = 0; i < FX_DATA_BYTES; i++) {
    a += read();
    b += a;
  }
  end();
  return a == fxdata::SUM_A && b == fxdata::SUM_B;
}

}  // namespace

void seek(uint16_t at) {
  command(READ, dataPage, at);
  SPDR = 0;  // the first byte on its way
}

void seekFar(uint32_t at) {
  command(READ, dataPage + (uint16_t)(at >> 8), (uint8_t)at);
  SPDR = 0;
}

void end() {
  wait();
  deselect();
}

void readBytes(uint16_t at, uint8_t* out, uint16_t n) {
  seek(at);
  while (n--) *out++ = read();
  end();
}

void pins() {
  FX_PORT |= _BV(FX_BIT);
  FX_DDR |= _BV(FX_BIT);
}

bool begin() {
  single(WAKE);
  _delay_us(3);  // tRES1
  uint16_t page = patched(DATA_VECTOR);
  if (page) {
    savePage = patched(SAVE_VECTOR);
    return dataAt(page);
  }
  if (dataAt(fxdata::END_DATA_PAGE)) return true;  // ProjectABE's place: no save block after it
  savePage = FX_SAVE_PAGE;
  return dataAt(FX_DATA_PAGE);
}

bool hasSave() { return savePage; }

void readSave(uint16_t at, uint8_t* out, uint16_t n) {
  command(READ, savePage, at);
  while (n--) *out++ = transfer(0);
  deselect();
}

void eraseSave(uint16_t at) {
  single(WRITE_ENABLE);
  command(ERASE_SECTOR, savePage, at & ~(SECTOR - 1));
  deselect();
  waitReady();
}

void programSave(uint16_t at, const uint8_t* page) {
  single(WRITE_ENABLE);
  command(PROGRAM, savePage, at);
  uint8_t n = 0;
  do transfer(*page++);
  while (--n);
  deselect();
  waitReady();
}

void programSaveByte(uint16_t at, uint8_t b) {
  single(WRITE_ENABLE);
  command(PROGRAM, savePage, at);
  transfer(b);
  deselect();
  waitReady();
}

bool saveHolds(uint16_t at, const uint8_t* page) {
  command(READ, savePage, at);
  uint8_t n = 0, differ = 0;
  do differ |= transfer(0) ^ *page++;
  while (--n);
  deselect();
  return !differ;
}

}  // namespace fx
#endif
