#include "gfx.h"

#include <string.h>

#include "fx.h"
#include "hw.h"
#include "sprites.h"
#include "text.h"

namespace gfx {

namespace {

// How one byte of image bits (and mask bits) changes a screen byte, as three
// masks picked once per call: d = (d & ~(clear bits)) | (set bits), then ^ (flip bits).
// Colour c: WHITE sets the image bits, BLACK clears them, INVERT flips them;
// a masked sprite clears its mask's bits and sets its image's.
struct Op {
  uint8_t set, clear, flip;
  Op(Color c, bool masked)
      : set(masked || c == WHITE ? 0xFF : 0), clear(masked || c == BLACK ? 0xFF : 0), flip(c == INVERT ? 0xFF : 0) {}
  void apply(uint8_t& d, uint8_t img, uint8_t mask) const {
    d = ((d & ~((mask | img) & clear)) | (img & set)) ^ (img & flip);
  }
};

// Applies colour c to the pixels set in `bits` of screen byte (x, page).
void plot8(int16_t x, int16_t page, uint8_t bits, Color c) {
  if (!bits || x < 0 || x >= hw::WIDTH || page < 0 || page >= hw::HEIGHT / 8) return;
  uint8_t& d = hw::frame[page * hw::WIDTH + x];
  if (c == WHITE) {
    d |= bits;
  } else if (c == BLACK) {
    d &= ~bits;
  } else {
    d ^= bits;
  }
}

// bitmap() and sprite(): columns are clipped once, then each source page
// lands on up to two screen pages (two when y is not a multiple of 8). The
// shift is a multiply by 1 << shift, one MUL on the AVR. In the FX edition a
// page's bytes are one read of the chip, a masked sprite's image and mask
// bytes alternating there.
void blit(int8_t x, int8_t y, sprites::Bitmap bmp, sprites::Bitmap mask, uint8_t w, uint8_t h, Color c) {
  if (x + w <= 0 || y >= hw::HEIGHT || y + h <= 0) return;  // an int8_t x is left of 128
  uint8_t first = x < 0 ? -x : 0;
  uint8_t last = x + w > hw::WIDTH ? hw::WIDTH - x : w;
  int8_t page = y >> 3;  // floor, also for negative y
  uint8_t mul = 1 << (y & 7);
  const Op op(c, mask);
  for (uint8_t p = 0; p < (h + 7) / 8; p++, page++) {
    bool upper = page >= 0 && page < hw::HEIGHT / 8;
    bool lower = mul != 1 && page + 1 >= 0 && page + 1 < hw::HEIGHT / 8;
    if (!upper && !lower) continue;
    uint8_t keep = (p == h / 8) ? (1 << (h & 7)) - 1 : 0xFF;  // rows past h
    uint16_t offset = p * w;
    uint8_t* d = hw::frame + page * hw::WIDTH + x;
#if WHIST_FX
    fx::seek(bmp + (offset + first) * (mask ? 2 : 1));
#endif
    for (uint8_t i = first; i < last; i++) {
#if WHIST_FX
      uint8_t b = fx::read(), mb = mask ? fx::read() : 0;
#else
      uint8_t b = pgm_read_byte(bmp + offset + i), mb = mask ? pgm_read_byte(mask + offset + i) : 0;
#endif
      uint16_t v = (uint8_t)(b & keep) * mul;
      uint16_t m = (uint8_t)(mb & keep) * mul;
      if (upper) op.apply(d[i], v, m);
      if (lower) op.apply(d[i + hw::WIDTH], v >> 8, m >> 8);
    }
#if WHIST_FX
    fx::end();
#endif
  }
}

// Text: each glyph is a bitmap of FONT_W columns and one page (the font is at
// most 8 pixels high), drawn whole: a page-high blit draws every bit of it, as
// the glyph's own loop did. Glyphs off the screen are skipped, which also keeps
// x and y within blit's int8_t.
static_assert(sprites::FONT_H <= 8, "glyphs must fit one page");

// The characters of s in RAM, or of the text `r` reads (text.h) when s is null.
int16_t textRun(int16_t x, int16_t y, const char* s, text::Reader* r, Color c) {
  for (char ch; (ch = s ? *s++ : text::next(*r)); x += CHAR_W) {
    if (x > -sprites::FONT_W && x < hw::WIDTH && y > -8 && y < hw::HEIGHT)
      blit(x, y, sprites::font + sprites::glyph(ch) * sprites::FONT_FRAME_BYTES, sprites::Bitmap(), sprites::FONT_W, 8, c);
  }
  return x;
}

}  // namespace

void clear(Color c) {
  if (c == INVERT) {
    fillRect(0, 0, hw::WIDTH, hw::HEIGHT, INVERT);
  } else {
    memset(hw::frame, c == WHITE ? 0xFF : 0, sizeof hw::frame);
  }
}

void pixel(int16_t x, int16_t y, Color c) {
  if (y >= 0) plot8(x, y >> 3, 1 << (y & 7), c);
}

bool getPixel(int16_t x, int16_t y) {
  if (x < 0 || x >= hw::WIDTH || y < 0 || y >= hw::HEIGHT) return false;
  return hw::frame[(y >> 3) * hw::WIDTH + x] >> (y & 7) & 1;
}

void fillRect(int8_t x, int8_t y, uint8_t w, uint8_t h, Color c) {
  int16_t left = x < 0 ? 0 : x, right = x + w < hw::WIDTH ? x + w : hw::WIDTH;
  int16_t top = y < 0 ? 0 : y, end = y + h < hw::HEIGHT ? y + h : hw::HEIGHT;
  // One page at a time: the rows of [top, end) that fall in it.
  while (top < end) {
    uint8_t shift = top & 7;
    uint8_t n = (end - top < 8 - shift) ? end - top : 8 - shift;
    uint8_t bits = (uint8_t)(((1 << n) - 1) << shift);
    for (int16_t i = left; i < right; i++) plot8(i, top >> 3, bits, c);
    top += n;
  }
}

void hline(int8_t x, int8_t y, uint8_t w, Color c) { fillRect(x, y, w, 1, c); }
void vline(int8_t x, int8_t y, uint8_t h, Color c) { fillRect(x, y, 1, h, c); }

void rect(int8_t x, int8_t y, uint8_t w, uint8_t h, Color c) {
  hline(x, y, w, c);
  hline(x, y + h - 1, w, c);
  vline(x, y + 1, h - 2, c);
  vline(x + w - 1, y + 1, h - 2, c);
}

void bitmap(int8_t x, int8_t y, sprites::Bitmap bmp, uint8_t w, uint8_t h, Color c) {
  blit(x, y, bmp, sprites::Bitmap(), w, h, c);
}

void sprite(int8_t x, int8_t y, sprites::Bitmap bmp, sprites::Bitmap mask, uint8_t w, uint8_t h) {
  blit(x, y, bmp, mask, w, h, WHITE);
}

int16_t text(int16_t x, int16_t y, const char* s, Color c) { return textRun(x, y, s, nullptr, c); }

uint8_t textId(uint8_t x, int8_t y, uint8_t id, Color c) {
  text::Reader r;
  text::open(r, id);
  return textRun(x, y, nullptr, &r, c);
}

uint8_t textFrom(uint8_t x, int8_t y, text::Reader& r, Color c) { return textRun(x, y, nullptr, &r, c); }

uint8_t number(uint8_t x, int8_t y, uint32_t n, Color c) {
  char buf[11];
  return text(x, y, text::decimal(n, buf + sizeof buf), c);
}

uint8_t textWidth(const char* s) {
  uint8_t n = strlen(s);
  return n ? n * CHAR_W - 1 : 0;
}

int16_t textInverted(int16_t x, int16_t y, const char* s) {
  fillRect(x - 1, y - 1, textWidth(s) + 2, CHAR_H + 1, WHITE);
  return text(x, y, s, BLACK);
}

}  // namespace gfx
