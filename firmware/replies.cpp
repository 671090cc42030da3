#include "replies.h"

#include "hw.h"

namespace replies {

namespace {
constexpr uint8_t SLOTS = 16;  // a power of two
uint8_t codes[SLOTS];          // a ring, oldest at `first`
uint8_t first, used;
}  // namespace

void add(uint8_t code) {
  if (used == SLOTS) {
    hw::serialDropped++;
    return;
  }
  codes[(first + used++) & (SLOTS - 1)] = code;
}

bool full() { return used == SLOTS; }

uint8_t take() {
  if (!used) return 0;
  used--;
  return codes[first++ & (SLOTS - 1)];
}

}  // namespace replies
