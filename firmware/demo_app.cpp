// Demo app: exercises the hardware layer until the game app replaces it.
// Title screen; A deals a fixed (not random, not rule-driven) hand; LEFT and
// RIGHT move the highlight, B goes back. Serial prints "hello" and echoes lines.
#include <Arduino.h>

#include "buttons.h"
#include "gfx.h"
#include "hw.h"
#include "sound.h"
#include "sprites.h"

namespace {

const uint16_t CLICK[] PROGMEM = {1760, 20, 0, 0};
const uint16_t FANFARE[] PROGMEM = {523, 80, 659, 80, 784, 80, 1047, 160, 0, 0};
// Cards as suit * 13 + rank (ranks 0..12 = 2..A, suits S H D C).
const uint8_t HAND[] PROGMEM = {12, 11, 22, 17, 38, 30, 44, 51, 5, 27, 48, 2, 34};
constexpr uint8_t HAND_SIZE = sizeof HAND;

bool onTitle = true;
uint8_t selected;

void drawCard(int16_t x, int16_t y, uint8_t card) {
  uint8_t suit = card / 13, rank = card % 13;
  gfx::sprite(x, y, sprites::card_face, sprites::card_face_mask, sprites::CARD_FACE_W, sprites::CARD_FACE_H);
  gfx::bitmap(x + 2, y + 2, sprites::ranks + rank * sprites::RANKS_FRAME_BYTES, sprites::RANKS_W,
              sprites::RANKS_H, gfx::BLACK);
  gfx::bitmap(x + 2, y + 10, sprites::suits_small + suit * sprites::SUITS_SMALL_FRAME_BYTES,
              sprites::SUITS_SMALL_W, sprites::SUITS_SMALL_H, gfx::BLACK);
  gfx::bitmap(x + 7, y + 14, sprites::suits_large + suit * sprites::SUITS_LARGE_FRAME_BYTES,
              sprites::SUITS_LARGE_W, sprites::SUITS_LARGE_H, gfx::BLACK);
}

void drawTable() {
  for (uint8_t i = 0; i < 6; i++) {
    gfx::sprite(30 + i * 6, -14, sprites::card_back, sprites::card_back_mask, sprites::CARD_BACK_W,
                sprites::CARD_BACK_H);
  }
  drawCard(50, 14, 25);
  drawCard(68, 16, 1);
  gfx::textP(0, 0, PSTR("Demo"));
  gfx::textP(92, 0, sound::enabled() ? PSTR("sound") : PSTR("mute"));
  gfx::number(0, 8, hw::frameCount / 60);
  for (uint8_t i = 0; i < HAND_SIZE; i++) {
    drawCard(i * 9, i == selected ? 37 : 41, pgm_read_byte(&HAND[i]));
  }
  gfx::textInverted(94, 24, "hello");
}

}  // namespace

void setup() {
  hw::begin();
  Serial.begin(9600);
  Serial.println(F("hello"));
}

void loop() {
  if (!hw::nextFrame()) return;
  bool overlong;
  if (const char* line = hw::serialLine(&overlong)) {
    Serial.print(overlong ? F("too long: ") : F("echo: "));
    Serial.println(line);
  }
  if (onTitle) {
    gfx::bitmap(0, 0, sprites::title, sprites::TITLE_W, sprites::TITLE_H);
    if (buttons::justPressed(buttons::A)) {
      onTitle = false;
      sound::play(FANFARE);
      Serial.println(F("hello"));
    }
  } else {
    if (buttons::justPressed(buttons::LEFT) && selected > 0) selected--, sound::play(CLICK);
    if (buttons::justPressed(buttons::RIGHT) && selected < HAND_SIZE - 1) selected++, sound::play(CLICK);
    if (buttons::justPressed(buttons::B)) onTitle = true;
    drawTable();
  }
  hw::display(true);
}
