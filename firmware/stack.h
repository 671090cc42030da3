// stack: how close the stack has come to the static data.
//
// Before main() the free RAM between the end of .bss and the stack pointer is
// filled with a pattern; untouched() counts the bytes above .bss the stack has
// never overwritten since power-on (its high-water mark seen from below).
#pragma once
#include <stdint.h>

namespace stack {

uint16_t untouched();

}  // namespace stack
