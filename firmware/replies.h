// replies: the answers owed to the USB host, oldest first, as one-byte codes.
//
// Every line the host sends is answered once, in order; but a line is read
// as soon as it arrives (ProjectABE's USB model blocks all output while 63
// bytes of input wait unread) and answered only once no more input waits, at
// most one answer per frame so the screen keeps moving. While all 16 slots
// are taken the reader stops: the input waits in the USB banks (in ProjectABE
// it then blocks the output, so a burst of more than 16 lines with over 62
// bytes behind them loses answers there, counted in hw::serialDropped).
#pragma once
#include <stdint.h>

namespace replies {

// Queues an answer code; with every slot taken it is lost (and counted).
void add(uint8_t code);
// The oldest code, removed from the queue; 0 when none is owed.
uint8_t take();
// Every slot taken: stop reading.
bool full();

}  // namespace replies
