// Host driver for the FX edition's generated sources (tests/codegen/test_fxdata.py):
// with the data image of argv[1] as the chip, prints the title as hex on one line,
// then each glyph of ' '..'~' (3 bytes, hex) on one line, then every text, each
// followed by a line "--" (texts contain newlines).
#include <stdio.h>
#include <stdlib.h>

#include "sprites.h"
#include "text.h"

namespace fx {
const uint8_t* data;
uint16_t at;
}  // namespace fx

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  FILE* f = fopen(argv[1], "rb");
  if (!f) return 2;
  static uint8_t image[1 << 16];
  fread(image, 1, sizeof image, f);
  fclose(f);
  fx::data = image;
  static uint8_t screen[sprites::TITLE_BYTES];
  sprites::unpack(sprites::title, screen, sizeof screen);
  for (unsigned i = 0; i < sizeof screen; i++) printf("%02x", screen[i]);
  printf("\n");
  for (char c = ' '; c <= '~'; c++) {
    fx::seek(sprites::font + sprites::glyph(c) * sprites::FONT_FRAME_BYTES);
    for (uint8_t col = 0; col < sprites::FONT_W; col++) printf("%02x", fx::read());
  }
  printf("\n");
  for (uint8_t id = 0; id < text::NUM_TEXTS; id++) {
    text::Reader r;
    text::open(r, id);
    for (char c; (c = text::next(r));) putchar(c);
    printf("\n--\n");
  }
  return 0;
}
