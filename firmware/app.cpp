// The game app: title, the table against the computer, and the serial
// `play` command. The rules, deals, scoring, players and trace lines all come
// from the generated core (build/gen/whist_core.*); this file only shows them
// and turns buttons into moves.
#include <Arduino.h>

#include "buttons.h"
#include "gfx.h"
#include "hw.h"
#include "sound.h"
#include "sprites.h"
#include "table.h"
#include "whist_core.h"

namespace {

using namespace whist;

enum Screen : uint8_t { TITLE, TABLE, HAND_END, GAME_OVER, SERIAL_GAME };

const uint16_t SND_PLAY[] PROGMEM = {1568, 16, 0, 0};
const uint16_t SND_BOUNCE[] PROGMEM = {196, 48, 0, 0};
const uint16_t SND_TRICK[] PROGMEM = {1047, 32, 1319, 48, 0, 0};
const uint16_t SND_WIN[] PROGMEM = {523, 96, 659, 96, 784, 96, 1047, 240, 0, 0};
const uint16_t SND_LOSE[] PROGMEM = {392, 160, 330, 160, 262, 320, 0, 0};

constexpr uint8_t AI_DELAY = 24;    // frames before the computer plays
constexpr uint8_t TRICK_SHOW = 48;  // frames a finished trick stays on the table

Game game;
table::View view;
Screen screen = TITLE;
uint8_t wait;  // frames left before the next automatic step

void serialSink(const char* line, uint8_t len) { Serial.write(line, len); }

void startHumanGame() {
  beginGame(game, hw::randomSeed(), DECK_52, SCORING_LAST13, 10, PLAYER_HUMAN, PLAYER_GREEDY);
  beginHand(game);
  view.reset(game);
  screen = TABLE;
  wait = AI_DELAY;
}

// Plays card c for whoever is to move and reacts to what it finished.
void playCard(uint8_t c) {
  uint8_t r = play(game, c);
  view.played(game, r);
  if (r & TRICK_DONE) {
    wait = TRICK_SHOW;
    if (game.last.winner == 0 && game.who[0] == PLAYER_HUMAN) sound::play(SND_TRICK);
  } else {
    wait = AI_DELAY;
    sound::play(SND_PLAY);
  }
  if (r & HAND_DONE) screen = screen == SERIAL_GAME ? SERIAL_GAME : HAND_END;
}

// One step of the table: the human's buttons or the computer's move.
void stepTable() {
  if (wait) {  // A skips the pause, and only that
    wait = buttons::justPressed(buttons::A) ? 0 : wait - 1;
    if (!wait) view.clearTrick();
    return;
  }
  if (game.who[turn(game)] == PLAYER_HUMAN) {
    if (buttons::justPressed(buttons::LEFT)) view.move(game, -1);
    if (buttons::justPressed(buttons::RIGHT)) view.move(game, 1);
    if (buttons::justPressed(buttons::A)) {
      uint8_t c = view.selectedCard(game);
      if (isLegal(game, c)) {
        playCard(c);
      } else {
        view.bounce();
        sound::play(SND_BOUNCE);
      }
    }
  } else {
    playCard(chooseAI(game));
  }
}

// Starts a computer-vs-computer game asked for on USB serial.
void startSerialGame(const PlayCommand& cmd) {
  beginGame(game, cmd.seed, cmd.deck, cmd.scoring, cmd.target, cmd.p0, cmd.p1);
  if (cmd.fast) {  // the whole game now, without frames
    do {
      beginHand(game);
      uint8_t r;
      do r = play(game, chooseAI(game));
      while (!(r & HAND_DONE));
    } while (game.winner == NO_WINNER);
    screen = TITLE;
    return;
  }
  beginHand(game);
  view.reset(game);
  screen = SERIAL_GAME;
  wait = AI_DELAY;
}

void pollSerial() {
  bool overlong;
  const char* line = hw::serialLine(&overlong);
  if (!line) return;
  if (overlong) {
    printError(ERROR_LONG);
    return;
  }
  PlayCommand cmd;
  uint8_t err = parsePlay(line, cmd);
  if (err) printError(err);
  else startSerialGame(cmd);
}

void stepSerialGame() {
  if (wait) {
    wait--;
    if (!wait) view.clearTrick();
    return;
  }
  if (view.handOver) {
    if (game.winner != NO_WINNER) {
      screen = TITLE;
      return;
    }
    beginHand(game);
    view.reset(game);
    wait = AI_DELAY;
    return;
  }
  playCard(chooseAI(game));
}

}  // namespace

void setup() {
  hw::begin();
  Serial.begin(9600);
  setSink(serialSink);
  // A trace comment: heard by emulators, which open the port within ~7 ms;
  // a PC usually opens it later and misses it, which is harmless.
  printComment(PSTR("whist " WHIST_VERSION " ready"));
}

void loop() {
  if (!hw::nextFrame()) return;
  pollSerial();
  switch (screen) {
    case TITLE:
      gfx::bitmap(0, 0, sprites::title, sprites::TITLE_W, sprites::TITLE_H);
      if (buttons::justPressed(buttons::A)) startHumanGame();
      break;
    case TABLE:
      stepTable();
      view.draw(game);
      break;
    case SERIAL_GAME:
      stepSerialGame();
      view.draw(game);
      break;
    case HAND_END:
      table::drawHandEnd(game);
      if (buttons::justPressed(buttons::A)) {
        if (game.winner != NO_WINNER) {
          screen = GAME_OVER;
          sound::play(game.winner == 0 ? SND_WIN : SND_LOSE);
        } else {
          beginHand(game);
          view.reset(game);
          screen = TABLE;
          wait = AI_DELAY;
        }
      }
      break;
    case GAME_OVER:
      table::drawGameOver(game);
      if (buttons::justPressed(buttons::A)) screen = TITLE;
      break;
  }
  hw::display(true);
}
