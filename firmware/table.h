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
  uint8_t note;        // frames left of "You must follow suit" (a press ends it sooner)
  uint8_t pulse;       // frames left of the trump symbol's flashing
  uint8_t trickT;      // frames left of the finished trick: its answer's beat, the winner framed, the slide
  uint8_t framed;      // trickT from which on the winner is framed (the beat's end)
  uint8_t slide;       // trickT's last frames, in which the face-up card goes to the trick's winner
  uint8_t fresh;       // the card seat 0 got in the last stage-1 trick, or NO_CARD
  uint8_t freshT;      // frames left of its mark (raised, rank inverted)
  uint8_t pending;     // a press kept for the player's turn (a buttons mask, 0: none)
  bool handOver;
  bool armed;          // single-click play off: the selected card waits for a second A
  bool review;         // B held: the last trick is shown instead of the current one
  bool aimed;          // the cursor was put on a playable card for this turn
  bool demo;           // the title's demo: captioned DEMO
  bool drawn;          // the OLED shows this table as draw() left it (a search may start)
  uint8_t suitStyle;   // whist::SuitOrderStyle
#if WHIST_FX
  // The opponent's words (a text id) in a bubble beside its portrait, once no trick is on show, for
  // voiceT frames: play waits meanwhile and a press only ends them (app.cpp).
  uint8_t voice;
  uint8_t voiceT;
  void speak(uint8_t id) {
    voice = id;
    voiceT = 150;
  }
  bool speaking() const { return voiceT && !trickT; }
  // The coach's hint (DOWN on a stage-2 turn at the easier levels): bit i set when the i-th card shown
  // keeps the most tricks; cleared when a card is played.
  uint16_t hint;
  // Marks the cards that keep the most tricks, after whist::coachBest on this position (nothing if the
  // search runs out of its budget).
  void markHint(const whist::Game& g);
#endif

  void reset(uint8_t style);
  // After whist::play() returned r; `fast`: the quick pace of the speed setting.
  void played(const whist::Game& g, uint8_t r, bool fast);
  // One frame of the finished trick's display; true while it lasts (the table waits).
  bool step();
  bool showing() const { return trickT > slide; }
  bool beat() const { return trickT > framed; }  // the answer on show, the winner not yet framed
  // The OLED shows this table, at most with a finished trick's winner framed: a search may start.
  bool ready() const { return drawn && !beat() && !handOver; }
  void skip() {  // a press ends the beat and the hold
    if (showing()) trickT = slide;
  }
  // A frame of the pace passed during a search, which cannot draw: the hold
  // already on the OLED counts down (never the beat or the slide), and `wait`.
  void paced(uint8_t& wait) {
    if (showing() && !beat()) trickT--;
    if (wait) wait--;
  }
  void move(const whist::Game& g, int8_t step);
  // The cursor onto a card seat 0 may play: the selected one if it may, else the leftmost that may.
  void aim(const whist::Game& g);
  void bounce() {
    bouncing = 12;
    note = 90;
  }
  // The card at the selected position of seat 0's hand.
  uint8_t selectedCard(const whist::Game& g) const;
  void draw(const whist::Game& g);
  // The top line alone (screen page 0, cleared first: nothing else is drawn there), over a frame kept from draw().
  void drawMessage(const whist::Game& g) const;
};

#if WHIST_FX
// The coach's judgement of the person's card in each stage-2 trick of the hand (app.cpp): a card that
// kept the trick better | COACH_LED when the person led; the card played is the hand's record's.
constexpr uint8_t COACH_KEPT = 0xFE, COACH_UNJUDGED = 0xFF, COACH_LED = 0x40;
// Page `page` (from 0) of the coach after a hand: a line per stage-2 card that lost a trick (or was not
// judged: the hand was resumed there, or the search ran out of its budget); true if more pages follow.
bool drawCoach(const whist::Game& g, const uint8_t* coach, uint8_t page);
#endif
// A card face with its rank and suit, 16x24 at (x, y).
void drawCard(int8_t x, int8_t y, uint8_t card);
// The scoreboard after a hand, with the reason for its points (a slam: the title inverted).
void drawHandEnd(const whist::Game& g);
// The game's result; A plays a new deal of the same kind (app.cpp).
void drawGameOver(const whist::Game& g);
// Over the table: the deal, the variant, and how to resume or leave.
// `leaving`: B was pressed once; a second B leaves and loses the hand in progress.
void drawPause(const whist::Game& g, bool leaving);

}  // namespace table
