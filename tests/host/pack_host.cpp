// Host driver for the generated packed data (tests/codegen/test_pack.py):
// prints the unpacked title as hex on one line, then every packed text, each
// followed by a line "--" (texts contain newlines).
#include <stdio.h>

#define SPRITES_DEFINE
#include "sprites.h"
#include "text.h"

int main() {
  static uint8_t screen[sprites::TITLE_BYTES];
  sprites::unpack(sprites::title, screen, sizeof screen);
  for (unsigned i = 0; i < sizeof screen; i++) printf("%02x", screen[i]);
  printf("\n");
  for (uint8_t id = 0; id < text::NUM_TEXTS; id++) {
    text::Reader r;
    text::open(r, id);
    for (char c; (c = text::next(r));) putchar(c);
    printf("\n--\n");
  }
  return 0;
}
