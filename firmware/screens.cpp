#include "screens.h"

#include <avr/pgmspace.h>

#include "buttons.h"
#include "fx.h"
#include "gfx.h"
#include "prefs.h"
#include "sound.h"
#include "text.h"
#include "whist_core.h"

namespace screens {

using namespace whist;

namespace {

const uint16_t SND_MOVE[] PROGMEM = {sound::note(1200), 16, 0, 0};
const uint16_t SND_NO[] PROGMEM = {sound::note(196), 48, 0, 0};

constexpr uint8_t ROW_H = 7, TOP = 9;
constexpr uint8_t TEXT_ROWS = (64 - TOP) / ROW_H;
constexpr uint8_t LINE_CHARS = 32;

uint8_t cursor, scroll, count;
uint8_t pages;  // page(): how many the open text screen has (0: not counted yet)
uint8_t lastItem = 0xFF;  // the main menu's last choice (none yet)
bool confirm;  // stats: waiting for the reset to be confirmed
uint8_t items[7];
uint8_t digits[10];

// An inverted bar across the top with the page's title (or the warning).
void header(uint8_t title) {
  if (warn) title = text::WARN_SAVE;
  gfx::fillRect(0, 0, 128, 7);
  gfx::textId(1, 1, title, gfx::BLACK);
}

// Row i of a list: the selected one inverted.
int8_t rowY(uint8_t i) { return TOP + i * ROW_H; }
void highlight(uint8_t i) { gfx::fillRect(0, rowY(i) - 1, 128, ROW_H, gfx::INVERT); }

// UP/DOWN as -1/+1 (0 for neither); same for LEFT/RIGHT.
int8_t vertical() {
  return buttons::justPressed(buttons::DOWN) ? 1 : buttons::justPressed(buttons::UP) ? -1 : 0;
}
int8_t horizontal() {
  return buttons::justPressed(buttons::RIGHT) ? 1 : buttons::justPressed(buttons::LEFT) ? -1 : 0;
}

// Moves the cursor over n rows, wrapping.
void moveCursor(uint8_t n) {
  int8_t d = vertical();
  if (!d) return;
  warn = false;
  cursor = (cursor + n + d) % n;
  sound::play(SND_MOVE);
}

// The lines of texts ids[0, n) (generated, packed: text.h), each text from
// the top of a page; draws those from `first` on as the page's rows (none
// when first is past the end) and returns how many lines there are.
int8_t shift;                  // lines(): rows moved up or down by this many pixels,
gfx::Color ink = gfx::WHITE;   // in this colour
uint8_t lines(const uint8_t* ids, uint8_t n, uint8_t first) {
  char buf[LINE_CHARS + 1];
  uint8_t line = 0;
  for (uint8_t t = 0; t < n; t++) {
    line = (line + TEXT_ROWS - 1) / TEXT_ROWS * TEXT_ROWS;  // a text starts a page
    if (line >= uint16_t(first) + TEXT_ROWS) break;  // the texts after the rows drawn: not read
    text::Reader r;
    text::open(r, ids[t]);
    uint8_t i = 0;
    for (;;) {
      char c = text::next(r);
      if (c && c != '\n') {
        if (i < LINE_CHARS) buf[i++] = c;
        continue;
      }
      buf[i] = 0;
      i = 0;
      uint8_t row = line - first;
      if (line >= first && row < TEXT_ROWS) gfx::text(0, rowY(row) + shift, buf, ink);
      line++;
      if (!c) break;
    }
  }
  return line;
}

// Text in pages, one press a page (`scroll` is the page): A, DOWN or RIGHT
// the next (A leaves from the last), UP or LEFT the one before, B leaves.
uint8_t page(uint8_t title, const uint8_t* ids, uint8_t n) {
  // Counted once a screen: reading every text takes longer than a frame on the FX edition's chip.
  if (!pages) pages = (lines(ids, n, 0xFF) + TEXT_ROWS - 1) / TEXT_ROWS;
  int8_t d = vertical() + horizontal();
  if (buttons::justPressed(buttons::A)) {
    if (scroll + 1 == pages) return BACK;
    d = 1;
  }
  if (d < 0 && scroll) scroll--;
  if (d > 0 && scroll + 1 < pages) scroll++;
  header(title);
  lines(ids, n, scroll * TEXT_ROWS);
  char at[] = {char('1' + scroll), '/', char('0' + pages), 0};  // "2/4" (fewer than 10 pages)
  gfx::text(116, 1, at, gfx::BLACK);
  return buttons::justPressed(buttons::B) ? BACK : NONE;
}

}  // namespace

bool warn;

void openMenu(bool canContinue) {
  warn = false;
  uint8_t want = lastItem == 0xFF ? uint8_t(CONTINUE) : lastItem;
  count = cursor = 0;
  for (uint8_t i = PLAY; i <= CREDITS; i++)
    if (i != CONTINUE || canContinue) {
      if (i == want) cursor = count;
      items[count++] = i;
    }
}

uint8_t menu() {
  moveCursor(count);
  header(text::GERMAN_WHIST);
  static_assert(text::MENU_CREDITS - text::MENU_PLAY == CREDITS, "the menu's texts in MenuItem order");
  for (uint8_t i = 0; i < count; i++) gfx::textId(4, rowY(i), text::MENU_PLAY + items[i]);
  highlight(cursor);
#if WHIST_FX
  if (!fx::hasSave()) gfx::textId(4, 58, text::NOT_KEPT);  // below the rows: no Continue without saves
#endif
  if (buttons::justPressed(buttons::B)) return BACK;
  if (!buttons::justPressed(buttons::A)) return NONE;
  return lastItem = items[cursor];
}

void openList(uint8_t first) {
  cursor = first;
  scroll = pages = 0;
  confirm = false;
}

uint8_t row() { return cursor; }

uint8_t ask(uint8_t title, uint8_t line) {
  header(title);
  gfx::textId(4, 24, line);
  gfx::textId(4, 44, text::YES_NO);
  return buttons::justPressed(buttons::A) ? uint8_t(PLAY) : buttons::justPressed(buttons::B) ? BACK : NONE;
}

uint8_t settings() {
  using namespace prefs;
  moveCursor(NUM_ITEMS);
  int8_t d = horizontal();
  if (!d && buttons::justPressed(buttons::A)) d = 1;
  if (d) {
    change(cursor, d);
    sound::play(SND_MOVE);
  }
  // the title bar: what the selected row does (the AI level: what that level does)
  gfx::fillRect(0, 0, 128, 7);
  uint8_t hint = cursor == OPT_AI ? text::level(value(OPT_AI)) : text::setting(cursor);
  shift = 1 - TOP;
  ink = gfx::BLACK;
  lines(&hint, 1, 0);
  shift = 0;
  ink = gfx::WHITE;
  static_assert(text::ROW_SOUND - text::ROW_GAME == NUM_ITEMS - 1, "the rows' texts in prefs::Item order");
  for (uint8_t i = 0; i < NUM_ITEMS; i++) {
    int8_t y = rowY(i);
    uint8_t v = value(i);
    gfx::textId(2, y, text::ROW_GAME + i);
    uint8_t s;
    switch (i) {
      case OPT_GAME: s = text::deckTitle(v); break;
      case OPT_SCORING: s = text::scoringTitle(v, value(OPT_GAME)); break;
      case OPT_TARGET: s = targetAt(v) ? NONE : uint8_t(text::SINGLE_HAND); break;
      case OPT_AI: s = text::levelName(v); break;
      case OPT_SPEED: s = v ? text::FAST : text::NORMAL; break;
      case OPT_SUITS: s = text::suitOrderTitle(v); break;
      default: s = v ? text::ON : text::OFF;
    }
    if (s != NONE) gfx::textId(60, y, s);  // NONE: the target, a number
    else gfx::number(60, y, targetAt(v));
  }
  highlight(cursor);
  return buttons::justPressed(buttons::B) ? BACK : NONE;
}

uint8_t stats() {
  if (confirm) {
    uint8_t r = ask(text::RESET_STATS, text::STATS_GO);
    if (r == PLAY) prefs::resetStats();
    if (r != NONE) confirm = false;
    return NONE;
  }
  int8_t d = horizontal();
  if (d) cursor = (cursor + NUM_PLAYER_KINDS + d) % NUM_PLAYER_KINDS;
  prefs::Stats s;
  prefs::loadStats(cursor, s);
  header(text::STATS);
  gfx::textId(40, 1, text::LT, gfx::BLACK);
  gfx::textId(48, 1, text::levelName(cursor), gfx::BLACK);
  gfx::textId(120, 1, text::GT, gfx::BLACK);
  // which Stats fields each row shows (the second is 0 for none)
  static const uint8_t FIELD[4][2] PROGMEM = {{0, 1}, {2, 3}, {4, 0}, {5, 6}};
  const uint16_t* v = &s.games;
  for (uint8_t row = 0; row < 4; row++) {
    int8_t y = 12 + row * 9;
    gfx::textId(2, y, text::STATS_GAMES + row);
    gfx::number(40, y, v[pgm_read_byte(&FIELD[row][0])]);
    uint8_t second = pgm_read_byte(&FIELD[row][1]);
    if (second) {
      gfx::textId(68, y, row == 3 ? text::BEST : text::WON);
      gfx::number(88, y, v[second]);
    }
  }
  gfx::textId(2, 58, text::RESET_BACK);
  if (buttons::justPressed(buttons::A)) confirm = true;
  return buttons::justPressed(buttons::B) ? BACK : NONE;
}

uint8_t rules() {
  const uint8_t ids[] = {text::RULES, text::help(prefs::value(prefs::OPT_SCORING), prefs::value(prefs::OPT_GAME)),
                         text::CONTROLS,
#if WHIST_FX
                         text::HINTS,  // the coach's page: its DOWN
#endif
  };
  return page(text::HOW_TO_PLAY, ids, sizeof ids);
}

uint8_t credits() {
  const uint8_t ids[] = {text::CREDITS};
  return page(text::CREDITS_TITLE, ids, 1);
}

void openDeal(uint32_t seed) {
  warn = false;
  for (int8_t i = 9; i >= 0; i--) {
    digits[i] = seed % 10;
    seed /= 10;
  }
  cursor = 9;
}

uint8_t deal(uint32_t* seed) {
  int8_t d = horizontal();
  if (d) cursor = (cursor + 10 + d) % 10;
  d = vertical();
  if (d) digits[cursor] = (digits[cursor] + 10 - d) % 10;  // UP counts up
  header(text::DEAL_NUMBER);
  for (uint8_t i = 0; i < 10; i++) {
    int8_t x = 24 + i * 8;
    char c[2] = {char('0' + digits[i]), 0};
    gfx::text(x, 20, c);
    if (i == cursor) gfx::hline(x - 1, 27, 5);
  }
  gfx::textId(2, 36, text::DIGIT_MOVE);
  gfx::textId(2, 46, text::PLAY_DEAL);
  gfx::textId(2, 54, text::B_BACK);
  if (buttons::justPressed(buttons::B)) return BACK;
  if (!buttons::justPressed(buttons::A)) return NONE;
  uint32_t v = 0;
  for (uint8_t i = 0; i < 10; i++) {
    if (v > 429496729UL || (v == 429496729UL && digits[i] > 5)) {  // above 2^32 - 1
      sound::play(SND_NO);
      return NONE;
    }
    v = v * 10 + digits[i];
  }
  *seed = v;
  return PLAY;
}

}  // namespace screens
