// Stub of the Arduino core's Print.h for compiling the original game's
// opponent (../shared/ppot) on a PC. Utils.h declares a constexpr helper
// that reinterpret_casts a string to this type; as a plain char the cast
// changes nothing and host g++ accepts it (the opponent never calls it).
#pragma once
typedef char __FlashStringHelper;
