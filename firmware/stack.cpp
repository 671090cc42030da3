#include "stack.h"

#include <avr/io.h>

extern uint8_t __heap_start;  // the linker's end of .bss and .noinit (nothing uses malloc)

namespace stack {

namespace {

constexpr uint8_t PAINT = 0xA5;

// Runs in .init3: after the stack pointer is set (.init2), before .data and
// .bss are filled (.init4), with no stack frame of its own.
__attribute__((naked, used, section(".init3"))) void paint() {
  for (uint8_t* p = &__heap_start; p < (uint8_t*)SP; p++) *p = PAINT;
}

}  // namespace

uint16_t untouched(uint16_t lent) {
  const uint8_t* start = &__heap_start + lent;
  const uint8_t* p = start;
  while (p < (const uint8_t*)SP && *p == PAINT) p++;
  return p - start;
}

}  // namespace stack
