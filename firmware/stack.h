// stack: how close the stack has come to the static data.
//
// Before main() the free RAM between the end of the static data and the stack
// pointer is filled with a pattern; untouched(lent) counts the bytes above the
// first `lent` (which the game uses for something else) that the stack has
// never overwritten since power-on (its high-water mark seen from below).
#pragma once
#include <stdint.h>

namespace stack {

uint16_t untouched(uint16_t lent);

}  // namespace stack
