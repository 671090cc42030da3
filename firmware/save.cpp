#include "save.h"

#include <string.h>

#if WHIST_FX
#include "fx.h"
#include "fxdata.h"
#else
#include <avr/eeprom.h>
#endif

namespace save {

namespace {

constexpr uint8_t SIGNATURE = 'W';

bool inside(uint16_t addr, uint8_t len) {
#if WHIST_FX
  return addr + size(len) <= END;  // from MARK, 0
#else
  return addr >= FIRST && addr + size(len) <= END;
#endif
}

// a + b mod 255 for a, b < 255 (no division routine pulled in).
uint8_t add255(uint8_t a, uint8_t b) {
  uint16_t s = a + b;
  return s >= 255 ? s - 255 : s;
}

// Fletcher-16 mod 255. Both sums stay below 255, so it never equals the
// 0xFFFF of erased EEPROM or flash.
struct Sum {
  uint8_t a = 0, b = 0;
  void add(uint8_t v) {
    a = add255(a, v);
    b = add255(b, a);
  }
  uint16_t value() const { return (uint16_t)b << 8 | a; }
};

// Of tag, len and the data.
uint16_t checksum(uint8_t tag, uint8_t len, const uint8_t* data) {
  Sum s;
  s.add(tag);
  s.add(len);
  for (uint8_t i = 0; i < len; i++) s.add(data[i]);
  return s.value();
}

#if WHIST_FX

constexpr uint16_t PAGE = 256;
constexpr uint8_t PER_SECTOR = fx::SECTOR / PAGE;
constexpr uint16_t NUMBER = END, CHECK = END + 2;  // a record's number (it counts records) and checksum
constexpr uint8_t NONE = 0xFF;
static_assert(CHECK + 2 == PAGE, "a record fills its page");
static_assert(MARK + size(4) <= FIRST, "the mark is below the rest");

uint8_t* record;      // SCRATCH bytes of RAM (begin's): a record made and checked, then the log carried over
uint8_t last = NONE;  // the page of the last complete record
bool fresh;           // the next record starts a blank log (newLog)

void read(uint16_t addr, uint8_t* out, uint16_t n) {
  if (last == NONE) memset(out, 0xFF, n);
  else fx::readSave(last * PAGE + addr, out, n);
}

uint16_t word(uint16_t at) { return record[at] | record[at + 1] << 8; }

uint16_t recordSum() {
  Sum s;
  for (uint16_t i = 0; i < CHECK; i++) s.add(record[i]);
  return s.value();
}

// Reads page p into the record buffer; whether it holds a complete record.
bool complete(uint8_t p) {
  fx::readSave(p * PAGE, record, PAGE);
  return word(CHECK) == recordSum();
}

// The last record into the buffer (all 0xFF without one), to be changed and committed.
void open() { read(0, record, PAGE); }

// Writes the buffer as the next record: numbered one more than the last,
// checksummed, into the even page after the last one's log page, erasing its
// 4 KB sector first when it is the sector's first page (with two sectors the
// other keeps the last record; with one, the record is programmed right after
// the erase, the log to carry read into RAM before it). Read back: a page
// that was not blank (a write cut short) sends it to the next sector's first
// page; a page just erased that does not take it (ProjectABE drops every
// write) ends the saves (fx::loseSave). Then the last record's log is copied
// to the new one's log page, unless a new log starts.
void commit() {
  uint16_t number = word(NUMBER) + 1;  // 0 after none: blank reads 0xFFFF
  record[NUMBER] = number;
  record[NUMBER + 1] = number >> 8;
  uint16_t sum = recordSum();
  record[CHECK] = sum;
  record[CHECK + 1] = sum >> 8;
  uint8_t mask = fx::savePages() - 1;  // 16 or 32 pages
  uint8_t* log = record + PAGE;
  bool carry = !fresh && !(last & 1);
  if (carry) fx::readSave((last + 1) * PAGE, log, LOG_BYTES);
  fresh = false;
  for (uint8_t p = uint8_t((last | 1) + 1) & mask;;) {  // 0 after none (NONE is odd)
    bool erased = p % PER_SECTOR == 0;
    if (erased) fx::eraseSave(p * PAGE);
    fx::programSave(p * PAGE, record, 0);
    if (fx::saveHolds(p * PAGE, record)) {
      if (carry) fx::programSave((p + 1) * PAGE, log, LOG_BYTES);
      last = p;
      return;
    }
    if (erased) {
      fx::loseSave();
      return;
    }
    p = uint8_t((p | (PER_SECTOR - 1)) + 1) & mask;
  }
}

#else

void read(uint16_t addr, uint8_t* out, uint16_t n) { eeprom_read_block(out, (const uint8_t*)addr, n); }

#endif

}  // namespace

#if WHIST_FX
void begin(uint8_t* scratch) {
  record = scratch;
  uint16_t best = 0;
  for (uint8_t p = 0; p < fx::savePages(); p++) {
    if (complete(p) && (last == NONE || (int16_t)(word(NUMBER) - best) > 0)) {
      last = p;
      best = word(NUMBER);
    }
  }
}
#endif

bool load(uint16_t addr, uint8_t tag, void* data, uint8_t len) {
  if (!inside(addr, len)) return false;
  uint8_t head[2];
  uint16_t sum;
  read(addr, head, 2);
  read(addr + 2, (uint8_t*)data, len);
  read(addr + 2 + len, (uint8_t*)&sum, 2);
  return head[0] == SIGNATURE && head[1] == tag && sum == checksum(tag, len, (const uint8_t*)data);
}

void store(uint16_t addr, uint8_t tag, const void* data, uint8_t len) {
  if (!inside(addr, len)) return;
  const uint8_t* d = (const uint8_t*)data;
#if WHIST_FX
  if (!fx::hasSave()) return;
  open();
  record[addr] = SIGNATURE;
  record[addr + 1] = tag;
  memcpy(record + addr + 2, d, len);
  uint16_t sum = checksum(tag, len, d);
  record[addr + 2 + len] = sum;
  record[addr + 3 + len] = sum >> 8;
  commit();
#else
  uint8_t* at = (uint8_t*)addr;
  eeprom_update_byte(at, SIGNATURE);
  eeprom_update_byte(at + 1, tag);
  for (uint8_t i = 0; i < len; i++) eeprom_update_byte(at + 2 + i, d[i]);
  eeprom_update_word((uint16_t*)(at + 2 + len), checksum(tag, len, d));
#endif
}

void erase(uint16_t addr) {
  // Only over our own block: in EEPROM these bytes may hold another game's data.
  if (!inside(addr, 0)) return;
#if WHIST_FX
  if (!fx::hasSave()) return;
  open();
  if (record[addr] != SIGNATURE) return;
  record[addr + 1] = 0xFF;
  commit();
#else
  if (eeprom_read_byte((const uint8_t*)addr) == SIGNATURE) eeprom_update_byte((uint8_t*)addr + 1, 0xFF);
#endif
}

#if WHIST_FX
uint8_t logRead(uint8_t i) {
  uint8_t b = 0xFF;
  if (!(last & 1)) fx::readSave((last + 1) * PAGE + i, &b, 1);
  return b;
}

void logWrite(uint8_t i, uint8_t v) {
  if (!(last & 1) && logRead(i) != v) fx::programSave((last + 1) * PAGE + i, &v, 1);
}

void newLog() { fresh = true; }
#endif

#if !WHIST_FX
void move(uint16_t from, uint16_t to, uint8_t n, uint8_t tag) {
  uint16_t head = tag << 8 | SIGNATURE;
  if (eeprom_read_word((const uint16_t*)to) == head || eeprom_read_word((const uint16_t*)from) != head) return;
  for (uint8_t i = 0; i < n; i++) eeprom_update_byte((uint8_t*)to + i, eeprom_read_byte((const uint8_t*)from + i));
}
#endif

}  // namespace save
