#include "replies.h"

#include "hw.h"

namespace replies {

namespace {
constexpr uint8_t SLOTS = 8;
uint8_t codes[SLOTS], counts[SLOTS];  // runs, oldest first: codes[i] owed counts[i] times
uint8_t used;
}  // namespace

void add(uint8_t code) {
  uint8_t* last = &counts[used - 1];
  if (used && codes[used - 1] == code && *last < 255) {
    ++*last;
  } else if (used < SLOTS) {
    codes[used] = code;
    counts[used++] = 1;
  } else {
    hw::serialDropped++;
  }
}

bool full() { return used == SLOTS; }

uint8_t take() {
  if (!used) return 0;
  uint8_t code = codes[0];
  if (!--counts[0]) {
    used--;
    for (uint8_t i = 0; i < used; i++) {
      codes[i] = codes[i + 1];
      counts[i] = counts[i + 1];
    }
  }
  return code;
}

}  // namespace replies
