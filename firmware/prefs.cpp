#include "prefs.h"

#include "save.h"
#include "sound.h"
#if !WHIST_FX
#include <avr/eeprom.h>
#endif

namespace prefs {

using namespace whist;

namespace {

// Tags: bump one when its struct changes meaning without changing size.
constexpr uint8_t TAG_SETTINGS = 'S', TAG_GAME = 'G', TAG_STATS = 'T';
// The blocks, settings first, end where the save area does: in EEPROM its top
// (EEPROM_SAVES; docs/firmware.md says why), away from the bytes after the
// system's 16 where most Arduboy games keep theirs.
constexpr uint16_t AREA =
    save::size(sizeof(Settings)) + save::size(sizeof(Game)) + NUM_PLAYER_KINDS * save::size(sizeof(Stats));
constexpr uint16_t SETTINGS_AT = save::END - AREA;
#if !WHIST_FX
static_assert(SETTINGS_AT == EEPROM_SAVES, "the saves no longer fill EEPROM from EEPROM_SAVES: set it to "
              "1024 less their size in generator/codegen/core.py (the package declares it)");
#endif
constexpr uint16_t GAME_AT = SETTINGS_AT + save::size(sizeof(Settings));
constexpr uint16_t STATS_AT = GAME_AT + save::size(sizeof(Game));
static_assert(SETTINGS_AT >= save::FIRST, "the saves do not fit");
#if !WHIST_FX
// Where versions before 0.2 kept the same blocks: EEPROM from 16.
constexpr uint16_t OLD_AT = save::FIRST;
static_assert(OLD_AT + AREA <= SETTINGS_AT, "the old place and the new do not overlap");
// The hand's log, just below the blocks (the FX edition keeps it on the chip: save::logRead).
constexpr uint16_t LOG_AT = SETTINGS_AT - LOG;
static_assert(LOG_AT == EEPROM_LOG, "the log no longer ends where the saves begin: set EEPROM_LOG in "
              "generator/codegen/core.py (the package declares EEPROM from there)");
static_assert(OLD_AT + AREA <= LOG_AT, "the old place and the log do not overlap");
#endif

uint16_t statsAt(uint8_t level) { return STATS_AT + level * save::size(sizeof(Stats)); }

#if WHIST_FX
static_assert(LOG <= save::LOG_BYTES, "a new record carries the whole log over");
uint8_t cell(uint8_t i) { return save::logRead(i); }
void setCell(uint8_t i, uint8_t v) { save::logWrite(i, v); }
#else
uint8_t cell(uint8_t i) { return eeprom_read_byte((const uint8_t*)(LOG_AT + i)); }
void setCell(uint8_t i, uint8_t v) { eeprom_update_byte((uint8_t*)(LOG_AT + i), v); }
#endif

// The mark of g's hand in its log cells' top 2 bits: consecutive hands differ.
uint8_t mark(const Game& g) { return uint8_t(g.seed + g.handNo) << 6; }

}  // namespace

Settings settings;

__attribute__((noinline)) uint8_t choices(uint8_t item) {  // smaller so (size report)
  switch (item) {
    case OPT_GAME: return NUM_DECKS;
    case OPT_SCORING: return NUM_SCORINGS;
    case OPT_TARGET: return NUM_TARGETS;
    case OPT_AI: return NUM_PLAYER_KINDS;
    case OPT_SUITS: return NUM_SUIT_ORDER_STYLES;
    default: return 2;  // off/on, normal/fast
  }
}

void begin() {
#if !WHIST_FX
  // The saves of a version that kept them at the old place, copied over once
  // (the old place is left as it is: another game's now).
  save::move(OLD_AT, SETTINGS_AT, AREA, TAG_SETTINGS);
#endif
  bool ok = save::load(SETTINGS_AT, TAG_SETTINGS, &settings, sizeof settings);
  for (uint8_t i = 0; i < OPT_SOUND; i++) ok = ok && settings.v[i] < choices(i);
  if (!ok) {
    const Settings defaults = {{DEFAULT_DECK, DEFAULT_SCORING, FIRST_TARGET, DEFAULT_LEVEL, 0, SUITS_ALTERNATE, 1}};
    settings = defaults;
  }
}

uint8_t value(uint8_t item) { return item == OPT_SOUND ? sound::enabled() : settings.v[item]; }

void change(uint8_t item, int8_t step) {
  uint8_t n = choices(item);
  uint8_t v = (value(item) + n + step) % n;
  if (item == OPT_SOUND) {
    sound::setEnabled(v);
    return;
  }
  settings.v[item] = v;
  save::store(SETTINGS_AT, TAG_SETTINGS, &settings, sizeof settings);
}

uint8_t target() { return targetAt(settings.v[OPT_TARGET]); }

void loadStats(uint8_t level, Stats& s) {
  if (!save::load(statsAt(level), TAG_STATS, &s, sizeof s)) s = Stats();
}

void recordHand(const Game& g) {
  uint8_t level = g.who[1];
  Stats s;
  loadStats(level, s);
  s.hands++;
  if (g.points[0] > g.points[1]) s.handsWon++;
  if (g.won[1][0] == handSize(g)) s.slams++;  // every stage-2 trick
  if (g.winner != NO_WINNER) {
    s.games++;
    if (g.winner == 0) {
      s.wins++;
      if (++s.streak > s.best) s.best = s.streak;
    } else {
      s.streak = 0;
    }
  }
  save::store(statsAt(level), TAG_STATS, &s, sizeof s);
}

void resetStats() {
  for (uint8_t i = 0; i < NUM_PLAYER_KINDS; i++) save::erase(statsAt(i));
}

bool loadGame(Game& g) {
  if (!save::load(GAME_AT, TAG_GAME, &g, sizeof g)) return false;
  // a block that passes the checksum but not these would crash the table
  return g.deck < NUM_DECKS && g.scoring < NUM_SCORINGS && g.who[0] == PLAYER_HUMAN &&
         g.who[1] < NUM_PLAYER_KINDS && g.winner == NO_WINNER;
}

void storeGame(const Game& g) {
#if WHIST_FX
  save::newLog();  // the record stored next starts a blank log
#else
  // Within a game the log holds the last hand's mark, never the next's; a new
  // game's first hand may bear the mark of the hand before it. Blanked before
  // the store, so a cut between them leaves no cell of the next mark.
  uint8_t next = mark(g) + (1 << 6);
  for (uint8_t* p = (uint8_t*)LOG_AT; p != (uint8_t*)SETTINGS_AT; p++)
    if ((eeprom_read_byte(p) ^ next) < 64) eeprom_update_byte(p, 0xFF);
#endif
  save::store(GAME_AT, TAG_GAME, &g, sizeof g);
}

void logCard(const Game& g, uint8_t c) { setCell(g.trickNo, c ^ mark(g)); }
uint8_t loggedCard(const Game& g) { return cell(g.trickNo) ^ mark(g); }
void eraseGame() { save::erase(GAME_AT); }

}  // namespace prefs
