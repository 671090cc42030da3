// gfx: drawing into hw::frame. Coordinates may be off screen (clipped). The
// shapes, bitmaps and packed texts take 8-bit coordinates (x -128..127 for
// shapes and bitmaps, 0..255 for texts, y -128..127), which the screen and
// what slides onto it need: a constant argument costs the caller half the
// flash of a 16-bit one.
//
// Bitmaps are the generated sprites.h's (sprites::Bitmap: in program flash,
// or on the chip in the FX edition): ceil(h/8) rows of w bytes, each byte 8
// vertical pixels with the LSB on top. Text uses
// the project font (sprites::font): 3x5 glyphs (row 5 for descenders) on a
// 4-pixel advance, of the characters the firmware draws (sprites::glyph: the
// screen's texts, digits, '/'; others past them shown as '?').
#pragma once
#include <stdint.h>

#include "sprites.h"
#include "text.h"

namespace gfx {

enum Color : uint8_t { BLACK = 0, WHITE = 1, INVERT = 2 };

constexpr uint8_t CHAR_W = 4;  // advance per character
constexpr uint8_t CHAR_H = 6;  // glyph cell height, descender included

void clear(Color c = BLACK);
void pixel(int16_t x, int16_t y, Color c = WHITE);
bool getPixel(int16_t x, int16_t y);
void fillRect(int8_t x, int8_t y, uint8_t w, uint8_t h, Color c = WHITE);
void rect(int8_t x, int8_t y, uint8_t w, uint8_t h, Color c = WHITE);  // w, h at least 2
void hline(int8_t x, int8_t y, uint8_t w, Color c = WHITE);
void vline(int8_t x, int8_t y, uint8_t h, Color c = WHITE);

// Paints the bitmap's set bits in colour c; clear bits leave the screen as is.
void bitmap(int8_t x, int8_t y, sprites::Bitmap bmp, uint8_t w, uint8_t h, Color c = WHITE);
// Opaque sprite: where `mask` is set the screen takes the image's pixel,
// elsewhere it is untouched (e.g. sprites::card_face with card_face_mask).
void sprite(int8_t x, int8_t y, sprites::Bitmap bmp, sprites::Bitmap mask, uint8_t w, uint8_t h);

// Text; each returns the x just after the last character.
int16_t text(int16_t x, int16_t y, const char* s, Color c = WHITE);
// Packed text `id` (text.h: the labels, titles and pages, which the generator packs).
uint8_t textId(uint8_t x, int8_t y, uint8_t id, Color c = WHITE);
// The rest of the text `r` reads (text::open, or the FX edition's text::openVoice).
uint8_t textFrom(uint8_t x, int8_t y, text::Reader& r, Color c = WHITE);
uint8_t number(uint8_t x, int8_t y, uint32_t n, Color c = WHITE);
// Highlighted text: black on a white box one pixel larger on each side.
int16_t textInverted(int16_t x, int16_t y, const char* s);
// Width in pixels of s (without the trailing spacing column).
uint8_t textWidth(const char* s);

}  // namespace gfx
