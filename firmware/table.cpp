// table: drawing the game. Layout (128x64):
//   y 0..5    message line; nothing else in screen page 0 (y 0..7), the one
//             sent while the computer searches (the OLED keeps the rest)
//   y 8..31   stock and face-up card, trump, cards left (left); the trick
//             (middle); whose turn, tricks and points (right): nothing a
//             raised card (y 32..) could hide
//   y 32..63  seat 0's hand, the selected card raised
#include "table.h"

#include <string.h>

#include "fx.h"
#include "gfx.h"
#include "hw.h"
#include "sprites.h"
#include "text.h"

namespace table {

using namespace whist;

namespace {

constexpr int8_t HAND_Y = 40, RAISED_Y = 35, ARMED_Y = 32, LOWERED_Y = 45;
// frames (60 a second): the answer's beat, the winner framed, the face-up card's slide; Fast has a
// shorter beat and hold (the answer is still seen on its own) and no slide
constexpr uint8_t BEAT = 20, HOLD = 90, SLIDE = 32, BEAT_FAST = 8, HOLD_FAST = 30, FRESH = 60;
constexpr uint8_t CARD_W = sprites::CARD_FACE_W;
constexpr uint8_t DEAL_SHIFT = 2;  // 1 << DEAL_SHIFT frames between two of seat 0's cards as they are dealt
#if WHIST_FX
// The panel: each side's name (inverted on its turn), tricks and points, then the opponent's portrait at
// the right edge (its mood as the classic edition's face); the trick's cards overlap, the right one on top.
constexpr uint8_t NAME_X = 74, TRICKS_X = 87, POINTS_X = 97, PORTRAIT_X = 104;
int8_t trickX(uint8_t seat) { return seat ? 57 : 47; }
#else
// The panel: the opponent's face, then each side's name (inverted on its turn), tricks and points.
constexpr uint8_t FACE_X = 85, NAME_X = 96, TRICKS_X = 109, POINTS_X = 121;
// Seat 0's card in the trick down and left, seat 1's up and right.
int8_t trickX(uint8_t seat) { return seat ? 66 : 48; }
#endif
int8_t trickY(uint8_t seat) { return seat ? 9 : 12; }  // seat 1's frame from y 8: below the top line's page

// Seat 0's cards in display order (suits by style, high ranks first), but
// `skip`: the card it draws while the trick that brings it is still on show.
uint8_t sortedHand(const Game& g, uint8_t style, uint8_t* out, uint8_t skip = NO_CARD) {
  uint8_t n = 0;
  for (uint8_t i = 0; i < 4; i++) {
    uint8_t s = suitAt(style, g.trump, i);
    for (int8_t r = RANKS_PER_SUIT - 1; r >= 0; r--) {
      uint8_t c = s * RANKS_PER_SUIT + r;
      if ((g.hand[0][s] >> r & 1) && c != skip) out[n++] = c;
    }
  }
  return n;
}

void drawBack(int8_t x, int8_t y) {
  gfx::sprite(x, y, sprites::card_back, sprites::card_back_mask, sprites::CARD_BACK_W, sprites::CARD_BACK_H);
}

void suitLarge(int8_t x, int8_t y, uint8_t suit, gfx::Color c) {
  gfx::bitmap(x, y, sprites::suits_large + suit * sprites::SUITS_LARGE_FRAME_BYTES, sprites::SUITS_LARGE_W,
              sprites::SUITS_LARGE_H, c);
}

bool human(const Game& g) { return g.who[0] == PLAYER_HUMAN; }

// The opponent's moods, in the order of face.png's frames (and of each opponent's row of portraits.png).
enum Mood : uint8_t { NEUTRAL, BLINKING, THINKING, PLEASED, SULKING, TRIUMPHANT };

#if WHIST_FX
// The FX edition's face is the opponent's portrait in that mood.
void face(int8_t x, int8_t y, uint8_t level, uint8_t mood) {
  gfx::bitmap(x, y, sprites::portraits + (level * 6 + mood) * sprites::PORTRAITS_FRAME_BYTES, sprites::PORTRAITS_W,
              sprites::PORTRAITS_H);
}
#define FACE(x, y, g, mood) face(x, y, (g).who[1], mood)
#else
void face(int8_t x, int8_t y, uint8_t mood) {
  gfx::bitmap(x, y, sprites::face + mood * sprites::FACE_FRAME_BYTES, sprites::FACE_W, sprites::FACE_H);
}
#define FACE(x, y, g, mood) face(x, y, mood)
#endif

// At the table: pleased or sulking once the trick it took or lost is framed (not while the answer is on
// show alone: that would tell the result early), thinking on its turn, else neutral, blinking for a
// tenth of a second every four.
uint8_t tableMood(const Game& g, const View& v) {
  if (v.trickT) return v.beat() ? NEUTRAL : g.last.winner ? PLEASED : SULKING;
  if (!v.handOver && turn(g) == 1) return THINKING;
  return (hw::frameCount & 255) < 6 ? BLINKING : NEUTRAL;
}

// "You" and the opponent's name against a person; "P1" / "P2" when two computers play.
uint8_t seatName(const Game& g, uint8_t seat) {
  static_assert(text::P2 == text::P1 + 1, "seat names in seat order");
  if (!human(g)) return text::P1 + seat;
  return seat ? text::opponent(g.who[1]) : uint8_t(text::YOU);
}

// Text `id` from (x0, y), each "#n" in it the number v[n] (the engine's reason and notice lines);
// in the FX edition a new line goes on the next row (the opponents' words).
uint8_t filled(uint8_t x0, int8_t y, uint8_t id, const uint8_t* v) {
  text::Reader r;
  text::open(r, id);
  uint8_t x = x0;
  for (char c; (c = text::next(r));) {
    if (c == '#') {
      x = gfx::number(x, y, v[text::next(r) - '0']);
    } else {
      char s[2] = {c, 0};
      x = gfx::text(x, y, s);
    }
  }
  return x;
}

#if WHIST_FX
}  // namespace

__attribute__((noinline)) uint8_t line(const Game& g, text::Moment m) {  // one copy of text::voice (size report)
  return text::voice(g.who[1], m, g.seed, g.handNo + g.trickNo);
}

namespace {
// The opponent's words, voice `voice`: black on a white box, the text ending at x (`centre`: centred on
// x), its first row at y.
void speech(uint8_t voice, uint8_t x, int8_t y, bool centre) {
  text::Reader r;
  text::openVoice(r, voice);
  uint8_t w = 0;
  while (text::next(r)) w += gfx::CHAR_W;
  text::openVoice(r, voice);
  x -= centre ? w / 2 : w;
  gfx::fillRect(x - 2, y - 1, w + 3, 7);
  gfx::textFrom(x, y, r, gfx::BLACK);
}

// The bubble on the top line at its right, its tail towards the portrait.
void bubble(uint8_t voice) {
  speech(voice, PORTRAIT_X - 3, 1, false);
  gfx::fillRect(PORTRAIT_X - 3, 4, 2, 2);
  gfx::pixel(PORTRAIT_X - 1, 6);
}
#endif

void message(const Game& g, const View& v) {
  if (v.demo) {  // the title's demo says so, right of the messages (at most 27 characters)
    gfx::fillRect(109, 0, 19, 6);
    gfx::textId(111, 0, text::DEMO, gfx::BLACK);
  }
  static_assert(text::YOU == 0, "no message is text 0");
  uint8_t msg = 0, x;  // 0: the text from x on is followed by moving dots
  if (v.resuming) {  // Continue's page: "Resuming hand 2, trick 18...", the trick counting up
    uint8_t n[2] = {uint8_t(g.handNo), uint8_t(g.trickNo + 1)};
    x = filled(0, 0, text::RESUMING, n);
  } else if (v.review) {
    msg = text::LAST_TRICK;
  } else if (v.note) {
#if WHIST_FX
    msg = v.noteId;
  } else if (v.speaking()) {
    return bubble(v.voice);
  } else if (v.hint) {
    msg = text::COACH_HINT;
#else
    msg = text::FOLLOW_SUIT;
#endif
  } else if (v.trickT) {  // the winner, while it is framed (the face-up card slides through this line)
    if (!v.showing() || v.beat()) return;
    msg = text::YOURS + g.last.winner;  // the opponent (seat 1) says whose it is
  } else if (v.handOver) {
    msg = text::HAND_OVER;
  } else if (!human(g) || turn(g) != 0) {  // before a stage's notice: its first decision is the longest
    x = gfx::textId(gfx::textId(0, 0, seatName(g, turn(g))), 0, text::IS_THINKING);
  } else if (!stockLeft(g) && g.trickNo == handSize(g)) {  // the notices show on the player's first turn of a stage
#if WHIST_FX
    if (v.tip && (hw::frameCount & 64)) {  // the coach's tip, once after power-on, in turn with the notice
      msg = text::COACH_TIP;
    } else
#endif
    {
      uint8_t n[2];  // which tricks score, from the engine: "Stage 2: 13 tricks score, over 6"
      filled(0, 0, text::notice(stage2Notice(g, n)), n);
      return;
    }
  } else if (g.trickNo == 0) {
    msg = g.mode == MODE_LOW ? text::LOW_HAND : text::STAGE1;
  } else if (v.armed) {
    msg = text::A_AGAIN_PLAY;
  } else {
    msg = g.lead == NO_CARD ? text::YOUR_LEAD : text::YOUR_TURN;
  }
  if (msg) return (void)gfx::textId(0, 0, msg);
  for (uint8_t n = hw::frameCount >> 4 & 3; n--;) x = gfx::textId(x, 0, text::DOT);  // dots that move while it searches
}

// The opponent's face; each side's name (inverted on its turn), tricks ("Tk":
// all of them, when every trick scores; else "S1" / "S2": this stage's) and
// total points; while a trick's answer is on show alone, as they were before it.
void panel(const Game& g, const View& v) {
  bool all = countsStage1(g);
  uint8_t stage = g.trickNo - (v.trickT != 0) >= handSize(g);  // 1 in stage 2, once stage 1's last trick is off
  static_assert(text::S2 == text::S1 + 1, "the stages' headers in order");
  gfx::textId(TRICKS_X, 8, all ? text::TK : text::S1 + stage);
  gfx::textId(POINTS_X, 8, text::PT);
#if WHIST_FX
  FACE(PORTRAIT_X, 8, g, tableMood(g, v));
#else
  FACE(FACE_X, 8, g, tableMood(g, v));
#endif
  bool before = v.beat();
  for (uint8_t row = 0; row < 2; row++) {
    uint8_t seat = 1 - row;
    int8_t y = 14 + row * 7;
    gfx::textId(NAME_X, y, seatName(g, seat));
    if (!v.handOver && !v.trickT && turn(g) == seat) gfx::fillRect(NAME_X - 1, y - 1, 13, 7, gfx::INVERT);
    uint8_t n = g.won[stage][seat];
    if (all) n = g.won[0][seat] + g.won[1][seat];
    uint16_t total = g.total[seat];
    if (before) {
      n -= g.last.winner == seat;
      if (v.handOver) total -= g.points[seat];
    }
    gfx::number(TRICKS_X, y, n);
    gfx::number(POINTS_X, y, total);
  }
}

}  // namespace

void drawCard(int8_t x, int8_t y, uint8_t card) {
  uint8_t suit = suitOf(card), rank = rankOf(card);
  gfx::sprite(x, y, sprites::card_face, sprites::card_face_mask, sprites::CARD_FACE_W, sprites::CARD_FACE_H);
  gfx::bitmap(x + 2, y + 2, sprites::ranks + rank * sprites::RANKS_FRAME_BYTES, sprites::RANKS_W, sprites::RANKS_H,
              gfx::BLACK);
  gfx::bitmap(x + 2, y + 10, sprites::suits_small + suit * sprites::SUITS_SMALL_FRAME_BYTES, sprites::SUITS_SMALL_W,
              sprites::SUITS_SMALL_H, gfx::BLACK);
  suitLarge(x + 7, y + 14, suit, gfx::BLACK);
}

void View::reset(uint8_t style) {
  memset(this, 0, sizeof *this);
  fresh = NO_CARD;
  suitStyle = style;
}

void View::played(const Game& g, uint8_t r, bool fast) {
  if (r & TRICK_DONE) {
    const Trick& t = g.last;
    slide = fast || t.take == NO_CARD ? 0 : SLIDE;
    framed = (fast ? HOLD_FAST : HOLD) + slide;
    trickT = framed + (fast ? BEAT_FAST : BEAT);
    fresh = NO_CARD;  // stage 2: nothing drawn (the hand hides `fresh` while a trick is on show)
    if (t.take != NO_CARD) {
      fresh = t.winner == 0 ? t.take : t.draw;
      freshT = FRESH;
    }
  }
  if (r & HAND_DONE) handOver = true;
  armed = aimed = false;
#if WHIST_FX
  hint = 0;
#endif
  uint8_t n = cardCount(g, 0);
  if (n && selected >= n) selected = n - 1;
}

bool View::step() {
  if (dealT) {
    if (!--dealT) pulse = 24;  // dealt: the trump turns up, flashing
    return true;
  }
  if (!trickT) return false;
  trickT--;
  return true;
}

void View::deal(const Game& g) { dealT = handSize(g) << DEAL_SHIFT; }  // seat 0 holds a whole hand

void View::aim(const Game& g) {
  uint8_t hand[MAX_HAND + 1];
  uint8_t n = sortedHand(g, suitStyle, hand);
  aimed = true;
  if (selected < n && isLegal(g, hand[selected])) return;
  for (uint8_t i = 0; i < n; i++)
    if (isLegal(g, hand[i])) {
      selected = i;
      return;
    }
}

void View::move(const Game& g, int8_t step) {
  uint8_t n = cardCount(g, 0);
  armed = false;
  if (!n) return;
  selected = (selected + n + step) % n;
}

#if WHIST_FX
void View::markHint(const Game& g) {
  uint8_t hand[MAX_HAND + 1];
  uint8_t n = sortedHand(g, suitStyle, hand);
  uint16_t marks = 0;
  for (uint8_t i = 0; i < n; i++) {
    if (!isLegal(g, hand[i])) continue;
    int8_t k = coachKeeps(g, hand[i]);
    if (k < 0) return;
    if (k) marks |= 1u << i;
  }
  hint = marks;
}
#endif

uint8_t View::selectedCard(const Game& g) const {
  uint8_t cards[MAX_HAND + 1];
  uint8_t n = sortedHand(g, suitStyle, cards);
  return selected < n ? cards[selected] : NO_CARD;
}

void View::drawMessage(const Game& g) const {
  memset(hw::frame, 0, hw::WIDTH);
  message(g, *this);
}

void View::draw(const Game& g) {
  drawn = true;
#if WHIST_FX
  if (speaking()) voiceT--;
#endif
  message(g, *this);
  // stock, face-up card, trump (flashing after a trump shows up)
  // while a stage-1 trick is on show, the stock as it was before it
  bool before = showing() && g.last.take != NO_CARD;
  uint8_t up = before ? g.last.take : upcard(g);
  uint8_t left = stockLeft(g) + (before ? 2 : 0);
  if (dealT) {  // the pack, the trump not yet turned up
    drawBack(0, 8);
  } else if (up != NO_CARD) {
    if (left > 1) drawBack(0, 8);
    drawCard(3, 10, up);
    gfx::textId(gfx::number(20, 27, left), 27, text::LEFT);
  }
  gfx::rect(20, 8, 11, 12);
  if (!dealT) suitLarge(22, 10, g.trump, gfx::WHITE);
  if (pulse) {
    pulse--;
    if (pulse & 4) gfx::fillRect(20, 8, 11, 12, gfx::INVERT);
  }
  gfx::textId(20, 21, text::TRUMP);
  if (g.mode == MODE_LOW) gfx::textId(33, 11, text::LO);
  // the trick: seat 1's card up and right, seat 0's down and left
  uint8_t cards[2] = {NO_CARD, NO_CARD};
  bool done = showing() || (review && g.trickNo);
  if (done) {
    cards[g.last.leader] = g.last.lead;
    cards[1 - g.last.leader] = g.last.follow;
  } else if (g.lead != NO_CARD) {
    cards[g.leader] = g.lead;
  }
  for (uint8_t seat = 0; seat < 2; seat++) {  // seat 1's on top where they overlap (the FX edition)
    if (cards[seat] != NO_CARD) drawCard(trickX(seat), trickY(seat), cards[seat]);
    if (done && !beat() && g.last.winner == seat) gfx::rect(trickX(seat) - 1, trickY(seat) - 1, 18, 26);  // the winner framed
  }
  if (trickT && !showing()) {  // the face-up card on its way: up off the screen to the computer, or down into the hand
    static_assert(SLIDE == 32, "a pixel a frame from the stock's y 10 to y -21 or to the hand's y 41");
    drawCard(3, g.last.winner ? trickT - 22 : 42 - trickT, g.last.take);
  }
  panel(g, *this);
  // seat 0's hand (face up only when a person holds it)
  uint8_t hand[MAX_HAND + 1];
  uint8_t n = sortedHand(g, suitStyle, hand, trickT ? fresh : NO_CARD);  // the card drawn joins after the slide
  if (!n) return;
  static_assert(MAX_HAND <= 13 && (128 - CARD_W) / 12 == 9, "13 cards 9 apart fit the screen, 12 or fewer 10 apart");
  uint8_t step = n > 12 ? 9 : 10;
  int8_t x = (128 - CARD_W - step * (n - 1)) / 2;
  bool myTurn = human(g) && turn(g) == 0 && !trickT && !dealT && !handOver;
  // must follow suit: the cards that may not be played are lowered
  bool follow = myTurn && g.lead != NO_CARD && g.hand[0][suitOf(g.lead)];
  int8_t shake = 0;
  if (bouncing) {
    bouncing--;
    shake = (bouncing & 2) ? 2 : -2;
  }
  if (note) note--;
  if (freshT && !trickT) freshT--;
  n -= (dealT + (1 << DEAL_SHIFT) - 1) >> DEAL_SHIFT;  // the cards dealt so far, each in its place
  for (uint8_t i = 0; i < n; i++, x += step) {
    uint8_t c = hand[i];
    bool sel = myTurn && i == selected;
    int8_t y = sel ? (armed ? ARMED_Y : RAISED_Y) : follow && suitOf(c) != suitOf(g.lead) ? LOWERED_Y : HAND_Y;
    drawCard(sel ? x + shake : x, y, c);
#if WHIST_FX
    // the card just drawn, or in stage 2 a card the hint marks (it keeps the most tricks): its corner inverted
    if ((freshT && c == fresh) || (hint >> i & 1)) gfx::fillRect(x + 1, y + 1, 7, 15, gfx::INVERT);
#else
    if (freshT && c == fresh) gfx::fillRect(x + 1, y + 1, 7, 15, gfx::INVERT);  // the card just drawn: its corner inverted
#endif
  }
}

// Who won the hand and by how much, each stage's tricks, the tricks that
// counted, points and totals, and what the buttons do next. The FX edition's
// rows are closer, to make room for the coach's line.
#if WHIST_FX
constexpr int8_t ROWS_Y = 15, ROW_H = 6, REASON_Y = 46;
void drawHandEnd(const Game& g, const Coach& coach) {
#else
constexpr int8_t ROWS_Y = 16, ROW_H = 7, REASON_Y = 51;
void drawHandEnd(const Game& g) {
#endif
  // "Hand 2: You scored 3 points" / "Hand 2: Reg scored 1 point" / "Hand 2: no points"
  uint8_t w = g.points[0] ? 0 : 1;
  uint8_t x = gfx::number(gfx::textId(0, 0, text::HAND), 0, g.handNo);
  if (g.points[w]) {
    x = gfx::textId(gfx::textId(x, 0, text::COLON), 0, seatName(g, w));
    gfx::textId(gfx::number(gfx::textId(x, 0, text::SCORED), 0, g.points[w]), 0,
                g.points[w] == 1 ? text::POINT : text::POINTS);
  } else {
    gfx::textId(x, 0, text::NO_POINTS);
  }
  gfx::hline(0, 7, 128);
  gfx::textId(56, 9, seatName(g, 0));
  gfx::textId(84, 9, seatName(g, 1));
  bool all = countsStage1(g);
  for (uint8_t row = 0; row < 5; row++) {
    int8_t y = ROWS_Y + row * ROW_H;
    gfx::textId(0, y, text::SCORE_STAGE1 + row);
    for (uint8_t seat = 0; seat < 2; seat++) {
      uint16_t v = row < 2 ? g.won[row][seat]
                   : row == 2 ? g.won[1][seat] + (all ? g.won[0][seat] : 0)
                   : row == 3 ? g.points[seat] : g.total[seat];
      gfx::number(56 + seat * 28, y, v);
    }
  }
  // why: "9 tricks: 3 over 6", "SLAM: 13 tricks = 10 points" (the engine's words and numbers)
  uint8_t v[4];
  uint8_t kind = handReason(g, v);
  filled(0, REASON_Y, text::reason(kind), v);
  if (kind == REASON_SLAM) gfx::fillRect(0, 0, 128, 7, gfx::INVERT);  // the title a banner
  // the opponent: triumphant on its slam or its game, pleased with its points, sulking over the player's
  uint8_t mood = g.points[1] ? (kind == REASON_SLAM || g.winner == 1 ? TRIUMPHANT : PLEASED) : g.points[0] ? SULKING : NEUTRAL;
#if WHIST_FX
  FACE(103, 9, g, mood);  // (the game's winner: on the next page, "A: the result")
#else
  FACE(110, 9, g, mood);
  if (g.winner == 0 || g.winner == 1) {  // the game's winner, beside the table
    gfx::bitmap(108, 22, sprites::trophy, sprites::TROPHY_W, sprites::TROPHY_H);
    gfx::textId(110, 40, seatName(g, g.winner));
  }
#endif
#if WHIST_FX
  // the coach: what the stage-2 cards cost, "1 card cost you a trick (DOWN)", or a perfect stage 2
  uint8_t n[2] = {0, 0};  // cards that lost tricks, the tricks they lost
  bool judgedAll = true;
  for (uint8_t k = 0; k < handSize(g); k++) {
    uint8_t e = coach.judged[k];
    if (e == COACH_UNJUDGED) judgedAll = false;
    else if (e != COACH_KEPT) n[0]++, n[1] += (e >> 6) + 1;
  }
  if (n[0]) filled(0, 52, n[0] > 1 ? text::COACH_COST_N : n[1] > 1 ? text::COACH_COST_ONE_N : text::COACH_COST_ONE, n);
  else if (judgedAll) gfx::textId(0, 52, text::COACH_PERFECT);
#endif
  gfx::textId(0, 58, g.winner == NO_WINNER ? text::NEXT_HAND : text::THE_RESULT);
}

#if WHIST_FX
namespace {
// A card in the game's glyphs, the rank's and the suit's as on a card face, a row above the text's
// (the rank glyphs are 7 high: centred on a line of text); returns the x after them, three characters on.
uint8_t cardGlyphs(uint8_t x, int8_t y, uint8_t card) {
  gfx::bitmap(x, y - 1, sprites::ranks + rankOf(card) * sprites::RANKS_FRAME_BYTES, sprites::RANKS_W, sprites::RANKS_H);
  gfx::bitmap(x + 6, y - 1, sprites::suits_small + suitOf(card) * sprites::SUITS_SMALL_FRAME_BYTES,
              sprites::SUITS_SMALL_W, sprites::SUITS_SMALL_H);
  return x + 3 * gfx::CHAR_W;
}
}  // namespace

bool drawCoach(const Game& g, const Coach& coach, uint8_t page) {
  gfx::textId(0, 0, text::COACH_TITLE);
  gfx::hline(0, 7, 128);
  uint8_t n = handSize(g), shown = 0, first = page * COACH_LINES;
  for (uint8_t k = 0; k < n; k++) {
    uint8_t e = coach.judged[k];
    if (e == COACH_KEPT) continue;
    uint8_t row = shown++ - first;  // wraps round above the page's first line: not drawn
    if (row >= COACH_LINES) continue;
    int8_t y = 10 + row * 8;  // 8 apart: the rank glyphs are 7 high
    uint8_t x = gfx::textId(gfx::number(gfx::textId(0, y, text::COACH_TRICK), y, n + k + 1), y, text::COLON);
    if (e == COACH_UNJUDGED) {
      gfx::textId(x, y, text::COACH_UNJUDGED);
      continue;
    }
    // "2C lost, 8H kept it", or for more than one trick "2C lost 2, best 8H"
    uint8_t lost = (e >> 6) + 1;
    x = cardGlyphs(x, y, g.cards[2 * (n + k) + !(coach.led >> k & 1)]);
    x = filled(x, y, lost > 1 ? text::COACH_LOST_MORE : text::COACH_LOST, &lost);
    x = cardGlyphs(x, y, e & 63);
    if (lost == 1) gfx::textId(x, y, text::COACH_KEPT);
  }
  if (!shown) gfx::textId(0, 10, text::COACH_NONE);
  bool more = shown > first + COACH_LINES;
  gfx::textId(0, 58, more ? text::COACH_MORE : text::COACH_BACK);
  return more;
}
#endif

void drawGameOver(const Game& g) {
  // (only a game on the buttons ends here) "Reg wins", "You win the game!", "A draw!"
  if (g.winner == 1) gfx::textId(gfx::textId(0, 0, seatName(g, 1)), 0, text::WINS);
  else gfx::textId(0, 0, g.winner ? text::A_DRAW : text::YOU_WIN);
  gfx::hline(0, 7, 128);
  for (uint8_t seat = 0; seat < 2; seat++) {
    uint8_t x = 8 + seat * 88;  // the columns apart, the opponent's face and words between them
    gfx::textId(x, 12, seatName(g, seat));
    gfx::number(x, 20, g.total[seat]);
#if WHIST_FX
    if (g.winner == seat) gfx::bitmap(30 + seat * 48, 12, sprites::trophy, sprites::TROPHY_W, sprites::TROPHY_H);  // by the portrait
#else
    if (g.winner == seat) gfx::bitmap(x, 28, sprites::trophy, sprites::TROPHY_W, sprites::TROPHY_H);
#endif
  }
  uint8_t w = g.winner < 0 ? 2 : 1 - g.winner;  // 0: it won, 1: the player, 2: a draw
#if WHIST_FX
  // its portrait, and a word in its bubble below (a draw: none)
  FACE(52, 10, g, w == 0 ? TRIUMPHANT : w == 1 ? SULKING : NEUTRAL);
  if (w < 2) {
    speech(line(g, w ? text::MOMENT_LOST : text::MOMENT_WON), 64, 38, true);
    gfx::fillRect(63, 34, 2, 3);  // the tail, up to the portrait
  }
#else
  static_assert(text::GOT_ME == text::BEAT_YOU + 1 && text::CLOSE_GAME == text::BEAT_YOU + 2, "quips in order");
  FACE(54, 12, g, w == 0 ? TRIUMPHANT : w == 1 ? SULKING : NEUTRAL);
  gfx::textId(38, 28, text::BEAT_YOU + w);
#endif
  if (w == 1) {  // who is next, as Settings names it (persona.next_line)
    uint8_t next = g.who[1] + 1;
    if (next < NUM_PLAYER_KINDS) gfx::textId(gfx::textId(0, 48, text::NEXT_UP), 48, text::levelName(next));
    else gfx::textId(0, 48, text::TOP_BEATEN);
  } else {
    gfx::textId(0, 48, text::DEAL);
    gfx::number(20, 48, g.seed);
  }
  gfx::textId(0, 58, text::REMATCH);
}

void drawPause(const Game& g, bool leaving) {
#if WHIST_FX
  uint8_t h = fx::hasSave() ? 40 : 47;  // without a save block a line more says so
#else
  constexpr uint8_t h = 40;
#endif
  gfx::fillRect(8, 10, 112, h, gfx::BLACK);
  gfx::rect(8, 10, 112, h);
  gfx::textId(12, 13, text::DEAL);
  gfx::number(32, 13, g.seed);
  gfx::textId(12, 20, text::HAND);  // "Hand ": the space draws nothing
  gfx::number(32, 20, g.handNo);
  gfx::textId(48, 20, text::deckTitle(g.deck));
  gfx::textId(12, 27, text::scoringTitle(g.scoring, g.deck));
  gfx::textId(12, 34, text::levelName(g.who[1]));
  uint8_t last = leaving ? text::LEAVE : text::RESUME;
#if WHIST_FX
  if (h > 40) {
    gfx::textId(12, 49, text::NOT_KEPT);
    if (leaving) last = text::LEAVE_LOST;
  }
#endif
  gfx::textId(12, 42, last);
}

}  // namespace table
