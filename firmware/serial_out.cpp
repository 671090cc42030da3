// hw::serialPut: USB serial output that never holds the game up.
//
// The core's Serial.write waits up to 250 ms per call for a free USB bank,
// so a host that keeps the port open without reading froze the game. Here a
// character waits at most one frame for room; after that the host counts as
// stalled and output is dropped (and counted) without waiting until the host
// takes a bank again. A character is written only while the bank has room
// for two: the one that fills a bank makes the core hand it over and then
// wait, up to 250 ms, for the other bank to send an empty packet after it;
// a bank of 63 bytes is handed over here instead (Serial.flush never waits).
#include <Arduino.h>

#include "hw.h"

namespace hw {

uint16_t serialDropped;

namespace {
bool stalled;
}  // namespace

void serialPut(char c) {
  uint8_t start = millis();
  for (;;) {
    // With interrupts off, so the 1 ms USB interrupt cannot hand the bank
    // over between the check and the write (Serial.write would then wait).
    uint8_t sreg = SREG;
    cli();
    int room = Serial.availableForWrite();
    if (room == 1) {  // hand the bank over now, without the core's empty packet after it
      Serial.flush();
      room = Serial.availableForWrite();
    }
    if (room >= 2) {
      Serial.write(c);
      SREG = sreg;
      stalled = false;
      return;
    }
    SREG = sreg;
    // With interrupts off (the caller's) millis() stands still: drop at once.
    if (stalled || !(sreg & _BV(SREG_I)) || (uint8_t)((uint8_t)millis() - start) > FRAME_MS) {
      stalled = true;
      serialDropped++;
      return;
    }
  }
}

}  // namespace hw
