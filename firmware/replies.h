// replies: the answers owed to the USB host, oldest first, as one-byte codes.
//
// Every line the host sends is answered once, in order; but a line is read
// as soon as it arrives (ProjectABE lets unread input block all output) and
// answered only once no more input waits, at most one answer per frame so
// the screen keeps moving. Up to 15 repeats of the same code share one slot,
// so a burst of 40 identical bad lines takes three; while every slot is taken the
// reader stops (the input waits in the USB banks), and an answer that finds
// no slot all the same is lost and counted in hw::serialDropped.
#pragma once
#include <stdint.h>

namespace replies {

// Queues an answer code (1..15).
void add(uint8_t code);
// The oldest code, removed from the queue; 0 when none is owed.
uint8_t take();
// Every slot taken: the next different code would be lost, so stop reading.
bool full();

}  // namespace replies
