// screens: the menus and pages around the table (main menu, settings, stats,
// rules, credits, deal-number entry). Each step function reads the buttons,
// draws one frame and says what the player chose; app.cpp moves between them.
#pragma once
#include <stdint.h>

namespace screens {

constexpr uint8_t NONE = 0xFF;  // nothing chosen this frame
constexpr uint8_t BACK = 0xFE;  // B: leave the screen

enum MenuItem : uint8_t { PLAY, CONTINUE, DEAL, SETTINGS, STATS, RULES, CREDITS };

// Main menu; Continue is listed only with a saved game. The cursor starts
// where it was left (on Continue the first time). Returns a MenuItem, BACK or NONE.
void openMenu(bool canContinue);
uint8_t menu();

// Settings (saved at each change) and stats (with a confirmed reset); the
// text pages. `first`: the row, or the AI level the stats open at; row()
// is where the cursor was left.
void openList(uint8_t first);
uint8_t row();
uint8_t settings();
uint8_t stats();

// A question before something is lost: A answers yes (PLAY), B no (BACK).
uint8_t ask(uint8_t title, uint8_t line);  // text.h ids
// Set when the next A loses the saved game (Play or a deal over a save): the
// title bar says so until the menu moves or is left.
extern bool warn;

// Scrolling text pages.
uint8_t rules();
uint8_t credits();

// Deal-number entry, starting from `seed`; returns PLAY with *seed set.
void openDeal(uint32_t seed);
uint8_t deal(uint32_t* seed);

}  // namespace screens
