// hw::serialLine: one line at a time from USB serial, without blocking.
#include <Arduino.h>

#include "hw.h"

namespace hw {

namespace {
char line[SERIAL_LINE_MAX + 1];
uint8_t len;
bool cut;
}  // namespace

const char* serialLine(bool* overlong) {
  // Only what has already arrived: never waits for more bytes.
  for (int n = Serial.available(); n > 0; n--) {
    char c = Serial.read();
    if (c == '\r') continue;
    if (c == '\n') {
      line[len] = 0;
      if (overlong) *overlong = cut;
      len = 0;
      cut = false;
      return line;
    }
    if (len < SERIAL_LINE_MAX) {
      line[len++] = c;
    } else {
      cut = true;
    }
  }
  return nullptr;
}

}  // namespace hw
