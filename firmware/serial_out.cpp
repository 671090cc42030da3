// hw::serialPut: USB serial output that never holds the game up.
//
// A host that keeps the port open without reading leaves both IN banks full:
// a character then waits at most one frame for room; after that the host
// counts as stalled and output is dropped (and counted) without waiting until
// the host takes a bank again.
#include <Arduino.h>

#include "hw.h"
#include "usb.h"

namespace hw {

uint16_t serialDropped;

namespace {
bool stalled;
}  // namespace

void serialPut(char c) {
  uint8_t start = millis();
  while (!usb::put(c)) {
    // With interrupts off (the caller's) millis() stands still: drop at once.
    if (stalled || !(SREG & _BV(SREG_I)) || (uint8_t)((uint8_t)millis() - start) > FRAME_MS) {
      stalled = true;
      serialDropped++;
      return;
    }
  }
  stalled = false;
}

}  // namespace hw
