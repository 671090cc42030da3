// Stub of the Arduboy2 library for compiling the original game's opponent
// (../shared/ppot) on a PC: only the names its files mention; none of it
// takes part in a decision.
#pragma once
#include <stdint.h>
#include <string.h>

#define WHITE 1

class Arduboy2Base {};

// Its debug printing (Player::printHand, CardUtils::printCard) goes nowhere.
struct SerialStub {
  template <typename T> void print(T) {}
  template <typename T> void println(T) {}
};
static SerialStub Serial;
