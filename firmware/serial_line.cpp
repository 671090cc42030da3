// hw::serialLine: one line at a time from USB serial, without blocking.
#include "hw.h"
#include "usb.h"

namespace hw {

namespace {
char line[SERIAL_LINE_MAX + 1];
uint8_t len;
bool cut;
uint16_t budget;      // bytes still to be read this frame
uint16_t budgetFrame;  // the frame it is for
}  // namespace

const char* serialLine(bool* overlong) {
  // Only what has already arrived, and a bounded amount a frame: a host that
  // never stops sending cannot keep the game from its frame.
  if (budgetFrame != frameCount) {
    budgetFrame = frameCount;
    budget = SERIAL_READ_MAX;
  }
  for (int16_t c; budget && (c = usb::get()) >= 0; budget--) {
    if (c == '\r') continue;
    if (c == '\n') {
      line[len] = 0;
      if (overlong) *overlong = cut;
      len = 0;
      cut = false;
      return line;
    }
    if (len < SERIAL_LINE_MAX) {
      line[len++] = c ? c : 0x7F;
    } else {
      cut = true;
    }
  }
  return nullptr;
}

}  // namespace hw
