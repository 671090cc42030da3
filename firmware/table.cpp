// table: drawing the game. Layout (128x64):
//   y 0..5    message line
//   y 8..33   stock and face-up card (left), trump, the trick (middle),
//             tricks and points (right)
//   y 35..63  seat 0's hand, the selected card raised
#include "table.h"

#include <avr/pgmspace.h>

#include "gfx.h"
#include "sprites.h"

namespace table {

using namespace whist;

namespace {

constexpr int16_t HAND_Y = 40, RAISED_Y = 35;
constexpr uint8_t CARD_W = sprites::CARD_FACE_W;

// Seat 0's cards in display order: suits by style, high ranks first.
uint8_t sortedHand(const Game& g, uint8_t style, uint8_t* out) {
  uint8_t n = 0;
  for (uint8_t i = 0; i < 4; i++) {
    uint8_t s = suitAt(style, g.trump, i);
    for (int8_t r = RANKS_PER_SUIT - 1; r >= 0; r--)
      if (g.hand[0][s] >> r & 1) out[n++] = s * RANKS_PER_SUIT + r;
  }
  return n;
}

void drawBack(int16_t x, int16_t y) {
  gfx::sprite(x, y, sprites::card_back, sprites::card_back_mask, sprites::CARD_BACK_W, sprites::CARD_BACK_H);
}

void suitLarge(int16_t x, int16_t y, uint8_t suit, gfx::Color c) {
  gfx::bitmap(x, y, sprites::suits_large + suit * sprites::SUITS_LARGE_FRAME_BYTES, sprites::SUITS_LARGE_W,
              sprites::SUITS_LARGE_H, c);
}

const char* seatName(const Game& g, uint8_t seat) {
  return g.who[seat] == PLAYER_HUMAN ? PSTR("You") : (seat ? PSTR("Cpu") : PSTR("P0"));
}

void message(const Game& g, const View& v) {
  const char* msg;
  if (v.handOver) msg = PSTR("Hand over");
  else if (v.showLast) msg = g.last.winner == 0 && g.who[0] == PLAYER_HUMAN ? PSTR("You win the trick")
                                                                           : PSTR("Trick lost");
  else if (!stockLeft(g) && g.trickNo == handSize(g)) msg = PSTR("Stage 2: no more drawing");
  else if (g.who[turn(g)] != PLAYER_HUMAN) msg = PSTR("Thinking...");
  else if (g.lead == NO_CARD) msg = PSTR("Your lead");
  else msg = PSTR("Your turn: follow suit");
  gfx::textP(0, 0, msg);
}

void scores(const Game& g) {
  for (uint8_t seat = 0; seat < 2; seat++) {
    int16_t y = 8 + seat * 8;
    gfx::textP(90, y, seatName(g, 1 - seat));
    gfx::number(106, y, g.won[0][1 - seat] + g.won[1][1 - seat]);
    gfx::number(118, y, g.total[1 - seat]);
  }
  gfx::textP(90, 24, PSTR("Hand"));
  gfx::number(110, 24, g.handNo);
}

}  // namespace

void drawCard(int16_t x, int16_t y, uint8_t card) {
  uint8_t suit = suitOf(card), rank = rankOf(card);
  gfx::sprite(x, y, sprites::card_face, sprites::card_face_mask, sprites::CARD_FACE_W, sprites::CARD_FACE_H);
  gfx::bitmap(x + 2, y + 2, sprites::ranks + rank * sprites::RANKS_FRAME_BYTES, sprites::RANKS_W, sprites::RANKS_H,
              gfx::BLACK);
  gfx::bitmap(x + 2, y + 10, sprites::suits_small + suit * sprites::SUITS_SMALL_FRAME_BYTES, sprites::SUITS_SMALL_W,
              sprites::SUITS_SMALL_H, gfx::BLACK);
  suitLarge(x + 7, y + 14, suit, gfx::BLACK);
}

void View::reset(const Game& g) {
  selected = 0;
  bouncing = 0;
  showLast = false;
  handOver = false;
  suitStyle = SUITS_ALTERNATE;
  (void)g;
}

void View::played(const Game& g, uint8_t r) {
  if (r & TRICK_DONE) showLast = true;
  if (r & HAND_DONE) handOver = true;
  uint8_t n = cardCount(g, 0);
  if (n && selected >= n) selected = n - 1;
}

void View::move(const Game& g, int8_t step) {
  uint8_t n = cardCount(g, 0);
  if (!n) return;
  selected = (selected + n + step) % n;
}

uint8_t View::selectedCard(const Game& g) const {
  uint8_t cards[MAX_HAND + 1];
  uint8_t n = sortedHand(g, suitStyle, cards);
  return selected < n ? cards[selected] : NO_CARD;
}

void View::draw(const Game& g) {
  message(g, *this);
  // stock and trump
  uint8_t up = upcard(g);
  if (up != NO_CARD) {
    if (stockLeft(g) > 1) drawBack(0, 8);
    drawCard(3, 10, up);
    gfx::number(21, 28, stockLeft(g));
  }
  gfx::rect(20, 9, 11, 12);
  suitLarge(22, 11, g.trump, gfx::WHITE);
  // the trick: seat 1's card up and right, seat 0's down and left
  uint8_t cards[2] = {NO_CARD, NO_CARD};
  if (showLast) {
    cards[g.last.leader] = g.last.lead;
    cards[1 - g.last.leader] = g.last.follow;
  } else if (g.lead != NO_CARD) {
    cards[g.leader] = g.lead;
  }
  if (cards[1] != NO_CARD) drawCard(62, 8, cards[1]);
  if (cards[0] != NO_CARD) drawCard(44, 12, cards[0]);
  scores(g);
  // seat 0's hand
  uint8_t hand[MAX_HAND + 1];
  uint8_t n = sortedHand(g, suitStyle, hand);
  if (!n) return;
  uint8_t step = n > 1 ? (128 - CARD_W) / (n - 1) : 0;
  if (step > 10) step = 10;
  int16_t x = (128 - (step * (n - 1) + CARD_W)) / 2;
  bool myTurn = g.who[0] == PLAYER_HUMAN && turn(g) == 0 && !showLast && !handOver;
  int8_t shake = 0;
  if (bouncing) {
    bouncing--;
    shake = (bouncing & 2) ? 2 : -2;
  }
  for (uint8_t i = 0; i < n; i++, x += step) {
    bool sel = myTurn && i == selected;
    drawCard(sel ? x + shake : x, sel ? RAISED_Y : HAND_Y, hand[i]);
  }
}

void drawHandEnd(const Game& g) {
  gfx::textP(0, 0, PSTR("Hand"));
  gfx::number(20, 0, g.handNo);
  gfx::textP(0, 12, PSTR("        Tricks Points Total"));
  for (uint8_t seat = 0; seat < 2; seat++) {
    int16_t y = 22 + seat * 8;
    gfx::textP(0, y, seatName(g, seat));
    gfx::number(40, y, g.won[1][seat] + g.won[0][seat]);
    gfx::number(68, y, g.points[seat]);
    gfx::number(96, y, g.total[seat]);
  }
  gfx::textP(0, 56, PSTR("A: continue"));
}

void drawGameOver(const Game& g) {
  if (g.winner < 0) gfx::textP(0, 0, PSTR("A draw"));
  else if (g.who[g.winner] == PLAYER_HUMAN) gfx::textP(0, 0, PSTR("You win the game!"));
  else gfx::textP(0, 0, PSTR("The computer wins"));
  gfx::textP(0, 16, PSTR("Total"));
  gfx::number(40, 16, g.total[0]);
  gfx::textP(52, 16, PSTR("-"));
  gfx::number(60, 16, g.total[1]);
  gfx::textP(0, 28, PSTR("Deal number"));
  char digits[11];
  uint32_t s = g.seed;
  uint8_t i = sizeof digits - 1;
  digits[i] = 0;
  do {
    digits[--i] = '0' + s % 10;
    s /= 10;
  } while (s);
  gfx::text(0, 36, digits + i);
  gfx::textP(0, 56, PSTR("A: title"));
}

}  // namespace table
