#include "replies.h"

#include "hw.h"

namespace replies {

namespace {
constexpr uint8_t SLOTS = 8;
uint8_t runs[SLOTS];  // oldest first: code << 4 | times owed (1..15)
uint8_t used;
}  // namespace

void add(uint8_t code) {
  uint8_t& last = runs[used - 1];
  if (used && last >> 4 == code && (last & 15) < 15) {
    last++;
  } else if (used < SLOTS) {
    runs[used++] = code << 4 | 1;
  } else {
    hw::serialDropped++;
  }
}

bool full() { return used == SLOTS; }

uint8_t take() {
  if (!used) return 0;
  uint8_t code = runs[0] >> 4;
  if (!(--runs[0] & 15)) {
    used--;
    for (uint8_t i = 0; i < used; i++) runs[i] = runs[i + 1];
  }
  return code;
}

}  // namespace replies
