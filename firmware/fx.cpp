// The FX edition's flash chip (fx.h). Commands of the W25Q128 datasheet:
// 0x03 read, 0x05 status 1 (bit 0 busy), 0x06 write enable, 0x02 page program,
// 0x20 4 KB sector erase, 0xAB release power-down. Only these, and the status
// read held selected: ProjectABE's chip answers 0x05 with 1 once, then 0.
#if WHIST_FX
#include "fx.h"

#include <avr/io.h>
#include <avr/pgmspace.h>
#include <string.h>  // memcpy
#include <util/delay.h>

#include "fxdata.h"
#include "save.h"

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
uint8_t pages;  // of the save block: 0 (none), 16 or 32

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

// n bytes from byte `at` of page `page`.
void readAt(uint16_t page, uint16_t at, uint8_t* out, uint16_t n) {
  command(READ, page, at);
  while (n--) *out++ = transfer(0);
  deselect();
}

// The page in a vector a cart builder patched, or 0.
uint16_t patched(uint8_t vector) {
  if (pgm_read_word(vector) != RETI) return 0;
  return pgm_read_byte(vector + 2) << 8 | pgm_read_byte(vector + 3);
}

// Whether the first `n` pages of the data give these sums (fxdata.h). `shown`
// is called before every 256 pages with how many 256s are done.
bool sums(uint16_t n, uint16_t wantA, uint16_t wantB, void (*shown)(uint8_t)) {
  uint16_t a = 0, b = 0;
  for (uint16_t p = 0; p < n; p++) {
    if (!(uint8_t)p) {  // first, and every 64 KB: the bus free for the progress bar
      if (p) end();
      shown(p >> 8);
      command(READ, dataPage + p, 0);
      SPDR = 0;
    }
    // A page, a byte about every 21 cycles: the transfer's 16 (SPI at 8 MHz), the
    // sums meanwhile, then the poll (SPIF is SPSR's top bit: `and` sets N from it).
    // The cycles of what gcc makes of read() and the sums, in 18 B less and in
    // instructions avr8js decodes sooner (the tests' first boots 11% faster).
    uint8_t i = 0;
    asm volatile(
        "1: in __tmp_reg__, %[spsr]\n"
        "   and __tmp_reg__, __tmp_reg__\n"
        "   brpl 1b\n"
        "   in __tmp_reg__, %[spdr]\n"
        "   out %[spdr], __zero_reg__\n"
        "   add %A[a], __tmp_reg__\n"
        "   adc %B[a], __zero_reg__\n"
        "   add %A[b], %A[a]\n"
        "   adc %B[b], %B[a]\n"
        "   dec %[i]\n"
        "   brne 1b\n"
        : [a] "+r"(a), [b] "+r"(b), [i] "+r"(i)
        : [spsr] "I"(_SFR_IO_ADDR(SPSR)), [spdr] "I"(_SFR_IO_ADDR(SPDR)));
  }
  end();
  return a == wantA && b == wantB;
}

bool dataAt(uint16_t page) {
  dataPage = page;
  return sums(fxdata::TABLES_PAGE, fxdata::SUM_A, fxdata::SUM_B, [](uint8_t) {});
}

// A cart slot's header, bytes 0 to 20 read last to first, so that its
// big-endian page numbers are little-endian words here.
struct Header {
  uint16_t save, data, program;
  uint8_t programSize;
  uint16_t size, next, previous;
  uint8_t list;
  uint8_t magic[7];  // "ARDUBOY", reversed
};
constexpr uint32_t ARDU = uint32_t('A') << 24 | uint32_t('R') << 16 | 'D' << 8 | 'U';  // its first 4 bytes, reversed

// On a cart (fx.h): the save block of the slot whose data page is ours.
__attribute__((noinline)) void cartSave() {  // its header on the stack only while it runs
  Header h;
  for (uint16_t p = 0;;) {
    command(READ, p, 0);
    for (uint8_t i = sizeof h; i--;) ((uint8_t*)&h)[i] = transfer(0);
    deselect();
    uint32_t first;
    memcpy(&first, h.magic + 3, 4);
    if (first != ARDU) return;  // the chain's end
    if (h.data == dataPage) {
      uint16_t block = p + h.size - h.save;  // pages from the save page to the slot's end
      if ((h.save | block) % 16 == 0 && h.save >= dataPage + fxdata::DATA_PAGES &&
          uint16_t(block - 1) < h.size && uint16_t(h.next - p) >= h.size) {
        savePage = h.save;
        pages = block > 16 ? 32 : 16;
      }
      return;
    }
    if (h.next <= p) return;  // a chain goes forward
    p = h.next;
  }
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
    if (!dataAt(page)) return false;
    cartSave();
    return true;
  }
  if (dataAt(fxdata::END_DATA_PAGE)) return true;  // ProjectABE's place: no save block after it
  savePage = FX_SAVE_PAGE;
  pages = FX_SAVE_BYTES / 256;
  return dataAt(FX_DATA_PAGE);
}

bool verify(void (*shown)(uint8_t)) {
  uint32_t mark = uint32_t(fxdata::ALL_B) << 16 | dataPage, got;
  if (save::load(save::MARK, fxdata::MARK_TAG, &got, sizeof got) && got == mark) return true;
  if (!sums(fxdata::DATA_PAGES, fxdata::ALL_A, fxdata::ALL_B, shown)) return false;
  save::store(save::MARK, fxdata::MARK_TAG, &mark, sizeof mark);
  return true;
}

uint8_t savePages() { return pages; }

void loseSave() { pages = 0; }

void readSave(uint16_t at, uint8_t* out, uint16_t n) { readAt(savePage, at, out, n); }

void eraseSave(uint16_t at) {
  single(WRITE_ENABLE);
  command(ERASE_SECTOR, savePage, at & ~(SECTOR - 1));
  deselect();
  waitReady();
}

void programSave(uint16_t at, const uint8_t* data, uint8_t n) {
  single(WRITE_ENABLE);
  command(PROGRAM, savePage, at);
  do transfer(*data++);
  while (--n);
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
