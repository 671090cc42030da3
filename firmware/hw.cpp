#include "hw.h"

#include <Arduino.h>
#include <avr/eeprom.h>
#include <avr/sleep.h>
#include <util/delay.h>

#include "buttons.h"
#include "fx.h"
#include "sound.h"
#include "usb.h"

namespace hw {

uint8_t frame[WIDTH * HEIGHT / 8] __attribute__((section(".noinit")));  // cleared by begin()
uint16_t frameCount;

namespace {

// SSD1306: clock divide/oscillator F0, charge pump on (8D 14), segment remap
// and COM scan reversed (A1 C8, the Arduboy's mounting), contrast CF,
// precharge F1, display on, horizontal addressing (20 00).
const uint8_t OLED_BOOT[] PROGMEM = {0xD5, 0xF0, 0x8D, 0x14, 0xA1, 0xC8, 0x81,
                                     0xCF, 0xD9, 0xF1, 0xAF, 0x20, 0x00};

uint8_t lastFrameStart;

inline void spi(uint8_t b) {
  SPDR = b;
  while (!(SPSR & _BV(SPIF))) {
  }
}

void bootPins() {
  // OLED control: CS PD6 (held low), DC PD4, RST PD7; SPI: SS PB0, SCK PB1, MOSI PB2.
  DDRD |= _BV(6) | _BV(4) | _BV(7);
  PORTD &= ~_BV(6);
  DDRB |= _BV(0) | _BV(1) | _BV(2);
#if WHIST_FX
  fx::pins();  // the FX chip shares the bus: deselected before the OLED's first byte
#endif
  // RGB LED PB6 PB7 PB5, active low: outputs, off.
  PORTB |= _BV(5) | _BV(6) | _BV(7);
  DDRB |= _BV(5) | _BV(6) | _BV(7);
  // Buttons: inputs with pull-ups. PF4-7 double as JTAG: switch JTAG off
  // (JTD must be written twice within 4 cycles) in case the fuse enables it.
  uint8_t m = MCUCR | _BV(JTD);
  MCUCR = m;
  MCUCR = m;
  DDRF &= ~0xF0;
  PORTF |= 0xF0;
  DDRE &= ~_BV(6);
  PORTE |= _BV(6);
  DDRB &= ~_BV(4);
  PORTB |= _BV(4);
}

void bootOled() {
  SPCR = _BV(SPE) | _BV(MSTR);
  SPSR = _BV(SPI2X);
  PORTD &= ~_BV(7);
  _delay_ms(5);
  PORTD |= _BV(7);
  _delay_ms(5);
  PORTD &= ~_BV(4);  // DC low: commands
  for (uint8_t i = 0; i < sizeof OLED_BOOT; i++) spi(pgm_read_byte(&OLED_BOOT[i]));
  PORTD |= _BV(4);  // DC high from now on: every byte is screen data
}

void idle() {
  set_sleep_mode(SLEEP_MODE_IDLE);
  sleep_mode();
}

// Holding UP at power-on: everything lit until reset. USB stays alive, so the
// host can still reset the board into the bootloader.
void flashlight() {
  for (uint16_t i = 0; i < sizeof frame; i++) frame[i] = 0xFF;
  display();
  led(LED_RED | LED_GREEN | LED_BLUE);
  for (;;) idle();
}

// B+UP / B+DOWN at power-on: sound on / off, acknowledged with a green / red
// LED until every button is released (so the game does not see the press).
void systemButtons(uint8_t held) {
  bool on = held & buttons::UP;
  sound::setEnabled(on);
  led(on ? LED_GREEN : LED_RED);
  while (buttons::read()) _delay_ms(10);
  led(0);
}

}  // namespace

void begin() {
  bootPins();
  bootOled();
  memset(frame, 0, sizeof frame);
  display();
  sound::begin();
  _delay_ms(2);  // pull-ups settle before the boot-time button check
  uint8_t held = buttons::read();
  if (held & buttons::B) {
    if (held & (buttons::UP | buttons::DOWN)) systemButtons(held);
  } else if (held & buttons::UP) {
    flashlight();
  }
  lastFrameStart = (uint8_t)millis();
}

void display(bool clear) {
  for (uint16_t i = 0; i < sizeof frame; i++) {
    SPDR = frame[i];
    if (clear) frame[i] = 0;
    while (!(SPSR & _BV(SPIF))) {
    }
  }
}

// The OLED's page window (horizontal addressing): pages 0..last from the next byte on.
void oledPages(uint8_t last) {
  PORTD &= ~_BV(4);  // DC low: commands
  spi(0x22);
  spi(0);
  spi(last);
  PORTD |= _BV(4);
}

void displayTop() {
  oledPages(0);
  for (uint8_t i = 0; i < WIDTH; i++) spi(frame[i]);
  oledPages(HEIGHT / 8 - 1);
}

bool frameReady() {
  buttons::sample();
  uint8_t now = (uint8_t)millis();
  if ((uint8_t)(now - lastFrameStart) < FRAME_MS) return false;
  lastFrameStart = now;
  frameCount++;
  buttons::nextFrame();
  sound::update();
  usb::frame();
  return true;
}

bool nextFrame() {
  if (frameReady()) return true;
  idle();
  return false;
}

void led(uint8_t rgb) {
  // Active low: R PB6, G PB7, B PB5.
  uint8_t p = PORTB | _BV(5) | _BV(6) | _BV(7);
  if (rgb & LED_RED) p &= ~_BV(6);
  if (rgb & LED_GREEN) p &= ~_BV(7);
  if (rgb & LED_BLUE) p &= ~_BV(5);
  PORTB = p;
}

uint32_t randomSeed() {
  // Alternate the internal temperature sensor (MUX 100111, 2.56 V reference)
  // and ADC1 (PF1, unconnected); the low bits of both are noise.
  uint32_t seed = micros();
  uint8_t admux = ADMUX, adcsrb = ADCSRB;
  ADCSRA |= _BV(ADEN);
  for (uint8_t i = 0; i < 32; i++) {
    if (i & 1) {
      ADMUX = _BV(REFS1) | _BV(REFS0) | 0x07;
      ADCSRB |= _BV(MUX5);
    } else {
      ADMUX = _BV(REFS0) | 0x01;
      ADCSRB &= ~_BV(MUX5);
    }
    ADCSRA |= _BV(ADSC);
    while (ADCSRA & _BV(ADSC)) {
    }
    seed = (seed << 3 | seed >> 29) ^ ADC;
  }
  ADMUX = admux;
  ADCSRB = adcsrb;
  return seed ^ micros();
}

}  // namespace hw

// In place of the core's main(), which would attach the core's USB stack. Of
// the core's init() only what the game uses: Timer0 as it sets it (fast PWM,
// clock / 64, the overflow interrupt counting millis() in the core's ISR,
// which cart builders patch), the ADC's clock (/ 128, 125 kHz) and USART1
// off; not timers 1, 3 and 4's PWM for analogWrite (sound sets Timer3 up
// itself), each bit of them set by a read-modify-write (about 180 B).
int main() {
  sei();
  TCCR0A = _BV(WGM01) | _BV(WGM00);
  TCCR0B = _BV(CS01) | _BV(CS00);
  TIMSK0 = _BV(TOIE0);
  ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0);
  UCSR1B = 0;
  usb::begin();
  setup();
  for (;;) loop();
}
