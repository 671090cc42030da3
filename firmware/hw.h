// hw: the Arduboy's board, as thin as a game needs (hand-written platform code).
//
// hw::begin() brings up the pins, the OLED and the system features every
// Arduboy game keeps (flashlight, system buttons for sound); then the game
// draws into hw::frame (directly or with gfx) and calls hw::display() once
// per frame, pacing itself with hw::nextFrame():
//
//   void setup() { hw::begin(); }
//   void loop() {
//     if (!hw::nextFrame()) return;   // idles until the next 1/60 s frame
//     gfx::clear(); ...draw...; hw::display();
//   }
#pragma once
#include <stdint.h>

namespace hw {

constexpr uint8_t WIDTH = 128;
constexpr uint8_t HEIGHT = 64;
constexpr uint8_t FRAME_MS = 16;  // about 60 frames per second

// The screen: 8 pages of 128 bytes, one byte = 8 vertical pixels, LSB on top.
// It is the last static data (.noinit, after .bss), so the free RAM above it
// continues it: a game may lend both as one block (app.cpp's search table).
extern uint8_t frame[WIDTH * HEIGHT / 8];

// Frames since boot (wraps); advanced by nextFrame().
extern uint16_t frameCount;

// Pins, OLED boot, buttons, sound flag. Holding UP at power-on lights the
// screen and the LED and stays there until reset (so a broken game can be
// re-flashed); B+UP / B+DOWN at power-on turn sound on / off (EEPROM byte 2).
void begin();

// Sends hw::frame to the OLED (about 1.2 ms); with clear=true it also blanks
// the buffer while sending.
void display(bool clear = false);
// Sends only hw::frame's top page (pixel rows 0-7); the OLED keeps the rest of
// its picture. While the computer searches, the other pages hold its table.
void displayTop();

// True once per FRAME_MS: then buttons are sampled and sound advanced. Until
// then it sleeps in idle mode (the core's Timer0 overflow wakes it every
// ~1 ms) and returns false, so loop() should return at once.
bool nextFrame();

// nextFrame() without the sleep: for long computations that keep the screen
// alive by drawing a frame whenever one is due.
bool frameReady();

// RGB LED, bits LED_RED | LED_GREEN | LED_BLUE lit; 0 = off.
constexpr uint8_t LED_RED = 1, LED_GREEN = 2, LED_BLUE = 4;
void led(uint8_t rgb);

// 32 random bits from ADC noise (temperature sensor and a floating input)
// mixed with micros(); for seeding the game's PRNG, not for frequent use.
uint32_t randomSeed();

// A line received on USB serial (usb.h), without its "\r\n", or
// nullptr while none is complete among the bytes already there (all calls of
// a frame read at most SERIAL_READ_MAX of them, never waiting for more). Lines
// longer than SERIAL_LINE_MAX are cut there and *overlong is set true; a NUL
// byte is kept as DEL (0x7F), so it cannot end the line early. The text
// stays valid until the next call.
constexpr uint8_t SERIAL_LINE_MAX = 96;
constexpr uint16_t SERIAL_READ_MAX = 512;
const char* serialLine(bool* overlong = nullptr);

// One character to USB serial without blocking: it waits at most a frame
// for the host to take a bank, then drops output, counting it in
// serialDropped, until the host reads again.
void serialPut(char c);
extern uint16_t serialDropped;

}  // namespace hw
