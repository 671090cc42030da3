// sound: square-wave tones on the speaker, obeying the system audio flag.
//
// Timer3 in CTC mode toggles OC3A (PC6, speaker pin 1) in hardware: no
// interrupt, nothing polled; PC7 (speaker pin 2) is held low. A melody is a
// PROGMEM array of {note(frequency Hz), duration ms} pairs ended by a 0
// duration; note 0 is a rest. hw::nextFrame() advances it, so note lengths
// are rounded up to whole frames (16 ms).
//
//   const uint16_t BEEP[] PROGMEM = {sound::note(880), 50, 0, 30, sound::note(1320), 80, 0, 0};
//   sound::play(BEEP);
#pragma once
#include <stdint.h>

namespace sound {

// A tone's timer period, worked out by the compiler: the pin toggles every
// period + 1 ticks of 2 MHz, so f = 1 MHz / (period + 1); 16 Hz..20 kHz fit.
constexpr uint16_t note(uint16_t hz) { return 1000000UL / hz - 1; }

// Reads the audio flag (EEPROM byte 2, non-zero = on); called by hw::begin().
void begin();

bool enabled();
// Turns sound on or off and saves it in EEPROM byte 2 (written only if it changes).
void setEnabled(bool on);

// Starts a melody (replacing any); nothing happens while sound is off.
void play(const uint16_t* melody);
// Starts one tone of `ms` milliseconds.
void tone(uint16_t hz, uint16_t ms);  // hz > 0
void stop();
bool playing();

// Called once per frame by hw::nextFrame().
void update();

}  // namespace sound
