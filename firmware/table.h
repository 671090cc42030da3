// table: how a game in progress looks on the 128x64 screen, and the
// scoreboard and game-over screens that follow a hand.
//
// The View holds only presentation state (which card is selected, the trick
// left on show, the bounce of an illegal card); everything about the game is
// read from whist::Game, the generated core's state.
#pragma once
#include <stdint.h>

#include "text.h"
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
  uint8_t dealT;       // frames left of the deal: seat 0's cards arrive one by one, then the trump turns up
  bool handOver;
  bool armed;          // single-click play off: the selected card waits for a second A
  bool review;         // B held: the last trick is shown instead of the current one
  bool aimed;          // the cursor was put on a playable card for this turn
  bool demo;           // the title's demo: captioned DEMO
  bool drawn;          // the OLED shows this table as draw() left it (a search may start)
  bool resuming;       // Continue is playing the hand's log again: the top line says so (drawMessage)
  uint8_t suitStyle;   // whist::SuitOrderStyle
#if WHIST_FX
  bool tip;            // the coach's tip shows with stage 2's notice (once after power-on, at the hint's levels)
  uint8_t noteId;      // what the note says (text.h): "You must follow suit", or why DOWN gives no hint
  // The opponent's words (text::voice) in a bubble on the top line beside its portrait, for voiceT frames
  // once no answer is on show alone (the trick's beat: they would tell its result early). Play goes on.
  uint8_t voice;
  uint8_t voiceT;
  void speak(uint8_t v, bool fast) {
    voice = v;
    voiceT = fast ? 60 : 100;
  }
  bool speaking() const { return voiceT && !beat(); }
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
  // One frame of the deal or of the finished trick's display; true while it lasts (the table waits).
  bool step();
  // A new hand dealt before the player's eyes (Continue's table is not: it starts as it was left).
  void deal(const whist::Game& g);
  bool showing() const { return trickT > slide; }
  bool beat() const { return trickT > framed; }  // the answer on show, the winner not yet framed
  // The OLED shows this table, dealt, at most with a finished trick's winner framed: a search may start.
  bool ready() const { return drawn && !dealT && !beat() && !handOver; }
  void skip() {  // a press ends the deal, the beat and the hold
    dealT = 0;
    if (showing()) trickT = slide;
  }
  // A frame of the pace passed during a search, which cannot draw: the hold
  // already on the OLED counts down (never the beat or the slide), and `wait`.
  void paced(uint8_t& wait) {
    if (showing() && !beat()) trickT--;
    if (wait) wait--;
#if WHIST_FX
    if (speaking()) voiceT--;
#endif
  }
  void move(const whist::Game& g, int8_t step);
  // The cursor onto a card seat 0 may play: the selected one if it may, else the leftmost that may.
  void aim(const whist::Game& g);
  void bounce() {
    bouncing = 12;
#if WHIST_FX
    say(text::FOLLOW_SUIT);
#else
    note = 90;
#endif
  }
#if WHIST_FX
  void say(uint8_t id) {  // a note on the top line for 1.5 s (a press ends it)
    noteId = id;
    note = 90;
  }
#endif
  // The card at the selected position of seat 0's hand.
  uint8_t selectedCard(const whist::Game& g) const;
  void draw(const whist::Game& g);
  // The top line alone (screen page 0, cleared first: nothing else is drawn there), over a frame kept from draw().
  void drawMessage(const whist::Game& g) const;
};

#if WHIST_FX
// The coach's judgement of the person's card in each stage-2 trick of the hand (app.cpp): COACH_KEPT, or
// COACH_UNJUDGED (the hand was resumed after it, or the search ran out of its budget), or a card that kept
// the tricks | (the tricks lost - 1) << 6, up to 4; the card played is the hand's record's (`led`: bit k set
// when the person led stage-2 trick k, so its card is the trick's first).
constexpr uint8_t COACH_KEPT = 0xFE, COACH_UNJUDGED = 0xFF, COACH_MAX_LOST = 4;
struct Coach {
  uint8_t judged[whist::MAX_HAND];
  uint16_t led;
};
// Page `page` (from 0) of the coach after a hand: a line per stage-2 card that lost tricks (or was not
// judged); true if more pages follow.
bool drawCoach(const whist::Game& g, const Coach& coach, uint8_t page);
// What the opponent says at moment `m` of game `g`: its line chosen by the deal and the tricks played
// (persona.line), for the table's bubble and the game over's word alike.
uint8_t line(const whist::Game& g, text::Moment m);
// The scoreboard, its coach's line saying what the stage-2 cards cost ("1 card cost you a trick (DOWN)").
void drawHandEnd(const whist::Game& g, const Coach& coach);
#else
// The scoreboard after a hand, with the reason for its points (a slam: the title inverted).
void drawHandEnd(const whist::Game& g);
#endif
// A card face with its rank and suit, 16x24 at (x, y).
void drawCard(int8_t x, int8_t y, uint8_t card);
// The game's result; A plays a new deal of the same kind (app.cpp). A player who won is told who is next.
void drawGameOver(const whist::Game& g);
// Over the table: the deal, the variant, and how to resume or leave.
// `leaving`: B was pressed once; a second B leaves and loses the hand in progress.
void drawPause(const whist::Game& g, bool leaving);

}  // namespace table
