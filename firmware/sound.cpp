#include "sound.h"

#include <Arduino.h>
#include <avr/eeprom.h>

#include "hw.h"

namespace sound {

namespace {

uint8_t* const AUDIO_FLAG = (uint8_t*)2;  // Arduboy system convention

bool on;
const uint16_t* next;  // next {period, ms} pair in flash; nullptr when idle
uint16_t toneLeft;     // ms left of the current tone (melody or single)

// A note's period (note()), or 0 for silence.
void output(uint16_t period) {
  if (!period) {
    TCCR3A = 0;  // disconnect OC3A; the pin then drives its PORT value (low)
    TCCR3B = 0;
    return;
  }
  // CTC, prescaler 8: the pin toggles every OCR3A+1 ticks of 2 MHz.
  OCR3A = period;
  TCNT3 = 0;
  TCCR3A = _BV(COM3A0);
  TCCR3B = _BV(WGM32) | _BV(CS31);
}

}  // namespace

void begin() {
  DDRC |= _BV(6) | _BV(7);
  PORTC &= ~(_BV(6) | _BV(7));
  on = eeprom_read_byte(AUDIO_FLAG) != 0;
}

bool enabled() { return on; }

void setEnabled(bool enable) {
  on = enable;
  eeprom_update_byte(AUDIO_FLAG, enable ? 1 : 0);
  if (!enable) stop();
}

void stop() {
  next = nullptr;
  toneLeft = 0;
  output(0);
}

bool playing() { return toneLeft != 0; }

void tone(uint16_t hz, uint16_t ms) {
  stop();
  if (!on || !ms) return;
  toneLeft = ms;
  output(note(hz));
}

void play(const uint16_t* melody) {
  stop();
  if (!on) return;
  next = melody;
  update();
}

void update() {
  if (toneLeft > hw::FRAME_MS) {
    toneLeft -= hw::FRAME_MS;
    return;
  }
  toneLeft = 0;
  uint16_t ms = next ? pgm_read_word(next + 1) : 0;
  if (!ms) {
    stop();
    return;
  }
  output(pgm_read_word(next));
  toneLeft = ms;
  next += 2;
}

}  // namespace sound
