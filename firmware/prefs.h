// prefs: what the game keeps in EEPROM (settings, stats per AI level, the
// game in progress), in save.h blocks from save::FIRST up. Every option list
// comes from the generated core; sound is the system audio flag (byte 2).
#pragma once
#include <stdint.h>

#include "whist_core.h"

namespace prefs {

// The settings rows, in the order the settings screen lists them.
enum Item : uint8_t { OPT_GAME, OPT_SCORING, OPT_TARGET, OPT_AI, OPT_SPEED, OPT_SUITS, OPT_CLICK, OPT_SOUND, NUM_ITEMS };

struct Settings {
  uint8_t v[OPT_SOUND];  // the chosen index of each item but OPT_SOUND
};
extern Settings settings;

// Reads the settings; a missing, corrupt or out-of-range block gives the defaults.
void begin();
uint8_t value(uint8_t item);
uint8_t choices(uint8_t item);
// Moves an item's choice by step (wrapping) and saves at once.
void change(uint8_t item, int8_t step);
uint8_t target();  // the win target in points, 0 = a single hand

struct Stats {
  uint16_t games, wins, hands, handsWon, slams, streak, best;
};
void loadStats(uint8_t level, Stats& s);
// Counts a finished hand (and the game, if it ended) of a human game.
void recordHand(const whist::Game& g);
void resetStats();

// Reads the saved game into g (which may be overwritten even when it fails).
bool loadGame(whist::Game& g);
// Saves g before its next hand, which starts a new log (below).
void storeGame(const whist::Game& g);
void eraseGame();

// The hand's log: the person's card of each trick, written as it is played,
// so that Continue resumes a hand where it was left (app.cpp's resume). A
// cell a trick, each written once a hand: the card in its low 6 bits, the
// hand's mark (seed + hand number, 2 bits) above, so a cell of an earlier
// hand never counts; storeGame blanks the cells that bear the next hand's
// mark (only when a new game follows a hand of the same mark).
constexpr uint8_t LOG = whist::MAX_CARDS / 2;
// Logs c as seat 0's card of trick g.trickNo (before it is played).
void logCard(const whist::Game& g, uint8_t c);
// Seat 0's logged card of trick g.trickNo; >= MAX_CARDS unless its cell bears this hand's mark.
uint8_t loggedCard(const whist::Game& g);

}  // namespace prefs
