// table: how a game in progress looks on the 128x64 screen, and the
// scoreboard and game-over screens that follow a hand.
//
// The View holds only presentation state (which card is selected, the trick
// left on show, the bounce of an illegal card); everything about the game is
// read from whist::Game, the generated core's state.
#pragma once
#include <stdint.h>

#include "whist_core.h"

namespace table {

struct View {
  uint8_t selected;    // position in the displayed hand
  uint8_t bouncing;    // frames left of the illegal-card shake
  uint8_t pulse;       // frames left of the trump symbol's flashing
  bool showLast;       // the finished trick is still on the table
  bool handOver;
  bool armed;          // single-click play off: the selected card waits for a second A
  bool review;         // B held: the last trick is shown instead of the current one
  uint8_t suitStyle;   // whist::SuitOrderStyle

  void reset(uint8_t style);
  // After whist::play() returned r.
  void played(const whist::Game& g, uint8_t r);
  void clearTrick() { showLast = false; }
  void move(const whist::Game& g, int8_t step);
  void bounce() { bouncing = 12; }
  // The card at the selected position of seat 0's hand.
  uint8_t selectedCard(const whist::Game& g) const;
  void draw(const whist::Game& g);
  // The top line alone (screen page 0, cleared first), over a frame kept from draw().
  void drawMessage(const whist::Game& g) const;
};

// A card face with its rank and suit, 16x24 at (x, y).
void drawCard(int16_t x, int16_t y, uint8_t card);
void drawHandEnd(const whist::Game& g);
void drawGameOver(const whist::Game& g);
// Over the table: the deal, the variant, and how to resume or leave.
void drawPause(const whist::Game& g);

}  // namespace table
