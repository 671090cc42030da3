#include "buttons.h"

#include <Arduino.h>

namespace buttons {

namespace {
uint8_t candidate;  // last raw reading
uint8_t since;      // millis() low byte when it last changed
uint8_t stable;     // debounced state
uint8_t now, before;  // per frame
constexpr uint8_t DEBOUNCE_MS = 4;
}  // namespace

uint8_t read() {
  // Active low with pull-ups: UP PF7, RIGHT PF6, LEFT PF5, DOWN PF4, A PE6, B PB4.
  uint8_t f = ~PINF;
  uint8_t m = 0;
  if (f & _BV(7)) m |= UP;
  if (f & _BV(6)) m |= RIGHT;
  if (f & _BV(5)) m |= LEFT;
  if (f & _BV(4)) m |= DOWN;
  if (!(PINE & _BV(6))) m |= A;
  if (!(PINB & _BV(4))) m |= B;
  return m;
}

void sample() {
  uint8_t raw = read();
  uint8_t t = (uint8_t)millis();
  if (raw != candidate) {
    candidate = raw;
    since = t;
  } else if ((uint8_t)(t - since) >= DEBOUNCE_MS) {
    stable = raw;
  }
}

void nextFrame() {
  before = now;
  now = stable;
}

bool pressed(uint8_t mask) { return now & mask; }
bool justPressed(uint8_t mask) { return now & ~before & mask; }
uint8_t pressedNow() { return now & ~before; }
bool justReleased(uint8_t mask) { return ~now & before & mask; }
uint8_t state() { return now; }

}  // namespace buttons
