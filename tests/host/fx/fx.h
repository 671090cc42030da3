// A host stand-in for firmware/fx.h (tests/codegen/test_fxdata.py): the FX
// chip's game data is a file read into memory, so the generated FX sources
// (sprites.h, text.cpp) can run on the PC against the data image they go with.
#pragma once
#include <stdint.h>

namespace fx {

extern const uint8_t* data;  // the data image, set by the driver
extern uint16_t at;

inline void seek(uint16_t offset) { at = offset; }
inline uint8_t read() { return data[at++]; }
inline void end() {}
inline void readBytes(uint16_t offset, uint8_t* out, uint16_t n) {
  while (n--) *out++ = data[offset++];
}

}  // namespace fx
