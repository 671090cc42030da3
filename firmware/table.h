// table: how a game in progress looks on the 128x64 screen.
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
  bool showLast;       // the finished trick is still on the table
  bool handOver;
  uint8_t suitStyle;   // whist::SuitOrderStyle

  void reset(const whist::Game& g);
  // After whist::play() returned r.
  void played(const whist::Game& g, uint8_t r);
  void clearTrick() { showLast = false; }
  void move(const whist::Game& g, int8_t step);
  void bounce() { bouncing = 12; }
  // The card at the selected position of seat 0's hand.
  uint8_t selectedCard(const whist::Game& g) const;
  void draw(const whist::Game& g);
};

// A card face with its rank and suit, 16x24 at (x, y).
void drawCard(int16_t x, int16_t y, uint8_t card);
void drawHandEnd(const whist::Game& g);
void drawGameOver(const whist::Game& g);

}  // namespace table
