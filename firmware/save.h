// save: checked blocks for settings and saved games, in EEPROM (the classic
// edition) or in the FX chip's save block (the FX edition, WHIST_FX).
//
// A block of `len` data bytes at `addr` takes size(len) bytes:
//   'W', tag, data[len], Fletcher-16 of (tag, len, data) low byte, high byte.
// The tag names the block and its format (e.g. 'S' settings v1, 'G' game v1;
// not 0xFF): changing the struct's size or tag makes old saves read as
// "no save". Blocks live in FIRST..END.
//
// Classic: EEPROM bytes; 0..15 belong to the Arduboy system and are never
// written, and a store rewrites only the bytes that changed.
// FX: the addresses are those of a record, a 256-byte page of the chip's save
// block (fx.h: 8 KB, or 4 KB on a cart that gives only that) that holds every
// block; a store writes a new record (the last one with the block changed)
// into the next page, erasing a 4 KB sector before its first page is used.
// With two sectors the one not being erased always keeps the last complete
// record; with one, the record is programmed again right after the erase (a
// power cut in those 45 ms loses the saves: docs/firmware.md). A blank or
// corrupt save block reads as "no save". Records are on even pages; the odd
// page after each holds the hand's log. Without a save block nothing is kept.
//
//   constexpr uint16_t SETTINGS = save::FIRST;
//   constexpr uint16_t GAME = SETTINGS + save::size(sizeof(Settings));
//   if (!save::load(SETTINGS, 'S', &settings, sizeof settings)) settings = DEFAULTS;
#pragma once
#include <stdint.h>

namespace save {

#if WHIST_FX
constexpr uint16_t MARK = 0;   // fx::verify's mark: 4 bytes of data
constexpr uint16_t FIRST = 8;  // the rest (prefs) from here
constexpr uint16_t END = 252;   // a record's last 4 bytes: its number and its checksum
constexpr uint8_t LOG_BYTES = 32;  // of a log page, carried over to a new record's
// begin's scratch: a record, and the log carried over while a sector is erased.
constexpr uint16_t SCRATCH = 256 + LOG_BYTES;
#else
constexpr uint16_t FIRST = 16;
constexpr uint16_t END = 1024;
#endif
constexpr uint16_t size(uint8_t len) { return len + 4; }

#if WHIST_FX
// Finds the last complete record. `scratch`: SCRATCH bytes of RAM where
// records are made, free whenever store() or erase() runs (app.cpp lends the
// search's table above the screen).
void begin(uint8_t* scratch);

// The hand's log (prefs.h) on the chip: the page after the last record, whose
// blank bytes are programmed one at a time. Records take every other page so
// that each has its log page; a record carries its predecessor's log (its
// first LOG_BYTES) over, unless newLog() came first. Without a log page (no record yet, or one of an
// earlier version on an odd page) the log reads blank and takes no writes.
uint8_t logRead(uint8_t i);
// Programs byte i of the log (blank before; an equal value is left alone).
void logWrite(uint8_t i, uint8_t v);
// The record stored next starts a blank log.
void newLog();
#endif

// Fills data and returns true if a valid block with this tag and length is
// at addr; otherwise (erased, all 0xFF, other tag, bad checksum, address
// outside FIRST..END) returns false, and data may have been overwritten.
bool load(uint16_t addr, uint8_t tag, void* data, uint8_t len);

// Writes the block; does nothing for an address outside FIRST..END (nor, in
// the FX edition, without a save block: ProjectABE's layout).
void store(uint16_t addr, uint8_t tag, const void* data, uint8_t len);

// Makes our block at addr read as "no save" (its tag byte becomes 0xFF);
// writes nothing unless our signature is there.
void erase(uint16_t addr);

#if !WHIST_FX
// Saves that moved: unless a block tagged `tag` starts at `to`, copies the n
// bytes at `from` there when one starts at `from` (each block is checked where
// it lands, as ever). Only bytes that differ are written.
void move(uint16_t from, uint16_t to, uint8_t n, uint8_t tag);
#endif

}  // namespace save
