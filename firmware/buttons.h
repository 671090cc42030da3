// buttons: the six buttons, debounced, as bit masks per frame.
//
// hw::nextFrame() samples them (pressed now / the frame before); a change must
// hold for 4 ms of idle samples before it counts, which hides switch bounce.
#pragma once
#include <stdint.h>

namespace buttons {

constexpr uint8_t UP = 0x01, RIGHT = 0x02, LEFT = 0x04, DOWN = 0x08, A = 0x10, B = 0x20;

// Raw state now, bypassing the debounce (used at boot).
uint8_t read();

// True if any button of `mask` is held this frame.
bool pressed(uint8_t mask);
// True if a button of `mask` went down / up since the previous frame.
bool justPressed(uint8_t mask);
// The buttons that went down since the previous frame, as a mask.
uint8_t pressedNow();
bool justReleased(uint8_t mask);
// All held buttons this frame, as a mask.
uint8_t state();

// Called by hw: `sample` on every wake-up, `nextFrame` once per frame.
void sample();
void nextFrame();

}  // namespace buttons
