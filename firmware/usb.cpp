// usb: a CDC-ACM serial port on the ATmega32u4's USB controller (usb.h).
//
// The facts come from the ATmega16U4/32U4 datasheet (Atmel-7766, chapters 21
// and 22), USB 2.0 chapter 9 and CDC 1.2 with its PSTN subclass; the
// descriptors are the ones the Arduino core sent. docs/firmware.md ("USB")
// lists the requests answered and what was checked how.
#include "usb.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <avr/wdt.h>
#include <util/delay.h>

namespace usb {

namespace {

// Endpoints: 0 control; 1 the CDC notifications (interrupt IN, never sent:
// it answers NAK); 2 the host's bytes (bulk OUT); 3 ours (bulk IN).
constexpr uint8_t RX = 2, TX = 3;
constexpr uint8_t EP_64_ONE_BANK = 0x32;   // UECFG1X: 64 B, one bank, allocated
constexpr uint8_t EP_64_TWO_BANKS = 0x36;  // 64 B, two banks, allocated
constexpr uint8_t BANK = 64;

// UEINTX and UDINT: writing 0 clears a flag, 1 leaves it alone.
constexpr uint8_t clear(uint8_t flags) { return ~flags; }

#define U16(c) c, 0  // a string descriptor's character: UTF-16LE

const uint8_t DEVICE[] PROGMEM = {
    18, 1, 0x00, 0x02,       // device descriptor, USB 2.0
    0xEF, 0x02, 0x01, BANK,  // class from the IAD (miscellaneous, common, IAD); EP0 64 B
    0x41, 0x23, 0x36, 0x80,  // VID 2341, PID 8036: the Leonardo's, as every Arduboy's sketch
    0x00, 0x01, 1, 2, 3, 1,  // release 1.00; strings 1, 2, 3; one configuration
};
const uint8_t CONFIG[] PROGMEM = {
    9, 2, 75, 0, 2, 1, 0, 0xA0, 250,  // 75 B, 2 interfaces, value 1; bus powered, remote wake-up; 500 mA
    8, 11, 0, 2, 2, 2, 0, 0,          // IAD: interfaces 0-1, CDC ACM
    9, 4, 0, 0, 1, 2, 2, 0, 0,        // interface 0: CDC communication, ACM, 1 endpoint
    5, 0x24, 0, 0x10, 0x01,           // header: CDC 1.10
    5, 0x24, 1, 1, 1,                 // call management: none over the data interface (1)
    4, 0x24, 2, 6,                    // ACM: line coding and state, break
    5, 0x24, 6, 0, 1,                 // union: interface 0 controls interface 1
    7, 5, 0x81, 3, 16, 0, 64,         // endpoint 1 IN, interrupt, 16 B, every 64 ms
    9, 4, 1, 0, 2, 0x0A, 0, 0, 0,     // interface 1: CDC data, 2 endpoints
    7, 5, 0x02, 2, BANK, 0, 0,        // endpoint 2 OUT, bulk, 64 B
    7, 5, 0x83, 2, BANK, 0, 0,        // endpoint 3 IN, bulk, 64 B
};
const uint8_t LANGUAGES[] PROGMEM = {4, 3, 0x09, 0x04};  // US English
// The core sent "Arduino LLC" for VID 2341 (whatever USB_MANUFACTURER said):
// hosts name the port after it (Linux's /dev/serial/by-id/usb-Arduino_LLC_Whist-if00).
const uint8_t MANUFACTURER[] PROGMEM = {24, 3, U16('A'), U16('r'), U16('d'), U16('u'), U16('i'), U16('n'),
                                        U16('o'), U16(' '), U16('L'), U16('L'), U16('C')};
const uint8_t PRODUCT[] PROGMEM = {12, 3, U16('W'), U16('h'), U16('i'), U16('s'), U16('t')};
const uint8_t SERIAL_NUMBER[] PROGMEM = {2, 3};  // empty, as the core's without pluggable modules
const uint8_t* const STRINGS[] PROGMEM = {LANGUAGES, MANUFACTURER, PRODUCT, SERIAL_NUMBER};
static_assert(sizeof DEVICE == 18 && sizeof CONFIG == 75 && sizeof MANUFACTURER == 24 && sizeof PRODUCT == 12,
              "each descriptor as long as its length field says");
// Every reply but the configuration is shorter than a packet, and it does not
// fill its last one: no reply owes the host a zero-length packet after it.
static_assert(sizeof CONFIG % BANK, "the configuration's last packet is short");

// The CDC line coding (PSTN 6.3.11), as GET/SET_LINE_CODING carry it.
struct LineCoding {
  uint32_t rate;
  uint8_t stopBits, parity, dataBits;
} lineCoding = {57600, 0, 0, 8};  // 8N1
volatile uint8_t lineState;  // SET_CONTROL_LINE_STATE: bit 0 DTR, bit 1 RTS (set by the USB interrupt)
uint8_t configuration;  // SET_CONFIGURATION's value, 0 or 1
uint8_t wakeup;         // GET_STATUS's remote wake-up bit (2) as the host set it; never signalled
uint16_t* touchKey;     // where a 1200-baud touch counting down to its reset put the key, or null
uint8_t txLed, rxLed;   // frames left in the TX and RX LEDs' pulses
uint8_t status[2];      // a reply made up on the spot

constexpr uint8_t LED_FRAMES = 6;  // about 100 ms, as the core's pulses

// Waits until endpoint 0 shows one of `flags`. False if a SETUP came instead
// (the host has given up this transfer) or after 65,536 looks (about 40 ms),
// so that no host can hold the game up, nor one that vanished mid-transfer.
__attribute__((always_inline)) inline bool await(uint8_t flags) {
  uint16_t n = 0;
  do {
    uint8_t i = UEINTX;
    if (i & _BV(RXSTPI)) return false;
    if (i & flags) return true;
  } while (--n);
  return false;
}

// A control read's data stage: n bytes, cut at the host's wLength, in
// packets of 64; it ends early if the host starts the status stage.
void reply(const uint8_t* p, uint8_t n, uint16_t length, bool flash) {
  if (n > length) n = length;
  for (;;) {
    if (!await(_BV(TXINI) | _BV(RXOUTI)) || (UEINTX & _BV(RXOUTI))) return;
    uint8_t k = n < BANK ? n : BANK;
    n -= k;
    for (; k; k--) UEDATX = flash ? pgm_read_byte(p++) : *p++;
    UEINTX = clear(_BV(TXINI));
    if (!n) return;
  }
}

// The 1200-baud touch, as the Arduino core does it: the port closed (DTR
// dropped) at 1200 baud puts Caterina's key 0x7777 at RAM 0x0800 and starts a
// 120 ms watchdog reset into the bootloader. With a LUFA-style bootloader
// (0xDCFB in flash's last word: Cathy3K, which starts on any reset but power-on)
// the key goes to the top of RAM instead. A line state that does not touch,
// before the reset, cancels it and gives the RAM word back. Until then the
// USB interrupt keeps the game waiting (below), so that nothing overwrites
// the key: the classic edition's search table lies over 0x0800.
constexpr uint16_t MAGIC = 0x7777;
void touch() {
  constexpr uint16_t LUFA_SIGNATURE = 0xDCFB;
  uint16_t* top = (uint16_t*)(RAMEND - 1);  // main's return address: main never returns
  if (lineCoding.rate == 1200 && !(lineState & 1)) {
    uint16_t* key = pgm_read_word(FLASHEND - 1) == LUFA_SIGNATURE ? top : (uint16_t*)0x0800;
    if (!touchKey && key != top) *top = *key;
    *key = MAGIC;
    touchKey = key;
    wdt_enable(WDTO_120MS);
  } else if (uint16_t* key = touchKey) {
    wdt_disable();  // the game never uses the watchdog: off again, as before the touch
    *key = key != top ? *top : 0;
    touchKey = nullptr;
  }
}

// Answers the SETUP on endpoint 0 (its 8 bytes read, the bank freed);
// false: a request the device does not have (STALL).
bool answer(uint8_t type, uint8_t request, uint8_t value, uint8_t valueHigh, uint8_t index, uint16_t length) {
  if (type & 0x80) {  // to the host
    status[0] = status[1] = 0;  // GET_STATUS's two bytes, GET_INTERFACE's one
    const uint8_t* p = status;
    uint8_t n = 2;
    bool flash = false;
    if (type == 0x80 && request == 6) {  // GET_DESCRIPTOR
      flash = true;
      if (valueHigh == 1) {
        p = DEVICE, n = sizeof DEVICE;
      } else if (valueHigh == 2 && !value) {
        p = CONFIG, n = sizeof CONFIG;
      } else if (valueHigh == 3 && value < sizeof STRINGS / sizeof *STRINGS) {
        p = (const uint8_t*)pgm_read_word(&STRINGS[value]);
        n = pgm_read_byte(p);
      } else {
        return false;  // the device qualifier, other-speed and BOS: a full-speed USB 2.0 device has none
      }
    } else if (!request) {  // GET_STATUS: the device's remote wake-up; an endpoint's halt
      if (type == 0x80) {
        status[0] = wakeup;
      } else if (type == 0x82) {
        if ((index &= 0x7F) > TX) return false;
        UENUM = index;
        if (UECONX & _BV(STALLRQ)) status[0] = 1;
        UENUM = 0;
      } else if (type != 0x81) {
        return false;
      }
    } else if (type == 0x80 && request == 8) {  // GET_CONFIGURATION
      p = &configuration, n = 1;
    } else if (type == 0x81 && request == 10) {  // GET_INTERFACE: alternate setting 0
      n = 1;
    } else if (type == 0xA1 && request == 0x21 && !index) {  // GET_LINE_CODING
      p = (const uint8_t*)&lineCoding, n = sizeof lineCoding;
    } else {
      return false;
    }
    reply(p, n, length, flash);
    return true;
  }
  if (type == 0 && request == 5) {  // SET_ADDRESS: takes effect after its status stage (datasheet 22.7)
    UDADDR = value & 0x7F;
    UEINTX = clear(_BV(TXINI));
    if (await(_BV(TXINI))) UDADDR |= _BV(ADDEN);
    return true;
  }
  if (type == 0 && request == 9 && value <= 1) {  // SET_CONFIGURATION
    configuration = value;
    for (uint8_t ep = 1; ep <= TX; ep++) {
      UENUM = ep;
      UECONX = 0;  // an endpoint reset: banks emptied, data toggle back to DATA0 (datasheet 22.6)
      if (!value) continue;
      UECONX = _BV(EPEN);
      UECFG0X = ep == 1 ? 0xC1 : 0x7E + ep;  // interrupt IN; bulk OUT (2), bulk IN (3)
      UECFG1X = EP_64_TWO_BANKS;
    }
    UENUM = 0;
  } else if ((request == 1 || request == 3) && type == 0 && value == 1) {  // CLEAR/SET_FEATURE: remote wake-up
    wakeup = request == 3 ? 2 : 0;
  } else if ((request == 1 || request == 3) && type == 2 && !value && (uint8_t)((index & 0x7F) - 1) < TX) {
    UENUM = index & 0x7F;  // CLEAR/SET_FEATURE: an endpoint's halt; clearing it restarts the data toggle
    UECONX = request == 3 ? _BV(STALLRQ) | _BV(EPEN) : _BV(STALLRQC) | _BV(RSTDT) | _BV(EPEN);
    UENUM = 0;
  } else if (type == 1 && request == 11 && !value && index <= 1 && configuration) {
    // SET_INTERFACE to alternate setting 0, the only one: the interface's
    // endpoints as new (USB 2.0 9.1.1.5), not halted, at DATA0.
    for (uint8_t ep = index ? RX : 1; ep <= (index ? TX : 1); ep++) {
      UENUM = ep;
      UECONX = _BV(STALLRQC) | _BV(RSTDT) | _BV(EPEN);
    }
    UENUM = 0;
  } else if (type != 0x21 || index) {  // the rest: CDC requests to interface 0
    return false;
  } else if (request == 0x20) {  // SET_LINE_CODING: its 7 bytes follow
    if (!await(_BV(RXOUTI))) return true;
    if (UEBCLX >= sizeof lineCoding) {
      for (uint8_t i = 0; i < sizeof lineCoding; i++) ((uint8_t*)&lineCoding)[i] = UEDATX;
    }
    UEINTX = clear(_BV(RXOUTI));
    if (!await(_BV(TXINI))) return true;
  } else if (request == 0x22) {  // SET_CONTROL_LINE_STATE
    lineState = value;
    touch();
  } else if (request != 0x23) {  // SEND_BREAK: nothing to break
    return false;
  }
  UEINTX = clear(_BV(TXINI));  // the status stage: a zero-length IN packet
  return true;
}

}  // namespace

void begin() {
  // The controller from reset (the bootloader may leave it enabled), then
  // the core's order: pad regulator, PLL from the 16 MHz crystal, lock, 1 ms
  // (which macOS needed after the 1200-baud touch, the core says), the clock
  // on with the VBUS pad, attach at full speed.
  USBCON = 0;
  UHWCON = _BV(UVREGE);
  USBCON = _BV(USBE) | _BV(FRZCLK);
  PLLCSR = _BV(PINDIV);
  PLLCSR = _BV(PINDIV) | _BV(PLLE);
  while (!(PLLCSR & _BV(PLOCK))) {
  }
  _delay_ms(1);
  USBCON = _BV(USBE) | _BV(OTGPADE);
  UDCON = 0;
  UDIEN = _BV(EORSTE);
  DDRD |= _BV(5);  // the TX LED (active low; the RX LED's PB0 is SPI's SS, an output already)
}

bool open() { return lineState; }

bool put(char c) {
  if (!lineState) return true;
  uint8_t sreg = SREG;
  cli();  // UENUM is the USB interrupts' too
  UENUM = TX;
  bool room = UEINTX & _BV(RWAL);
  if (room) {
    UEDATX = c;
    // The bank to the host (TXINI cleared with FIFOCON, as 22.14 asks no later).
    if (c == '\n' || UEBCLX >= BANK - 1) UEINTX = clear(_BV(FIFOCON) | _BV(TXINI));
    PORTD &= ~_BV(5);
    txLed = LED_FRAMES;
  }
  SREG = sreg;
  return room;
}

int16_t get() {
  int16_t c = -1;
  uint8_t sreg = SREG;
  cli();
  UENUM = RX;
  // Not while a SETUP waits: on the chip endpoint 2 never has one, but in
  // ProjectABE every endpoint is endpoint 0, where the fake host puts its SETUPs.
  if (!(UEINTX & _BV(RXSTPI))) {
    if (UEBCLX) {
      c = (uint8_t)UEDATX;
      PORTB &= ~_BV(0);
      rxLed = LED_FRAMES;
    }
    // The bank read, or a zero-length packet: free it for the host's next.
    if (!UEBCLX && (UEINTX & _BV(RXOUTI))) UEINTX = clear(_BV(FIFOCON) | _BV(RXOUTI));
  }
  SREG = sreg;
  return c;
}

bool waiting() {
  uint8_t sreg = SREG;
  cli();
  UENUM = RX;
  bool n = UEBCLX;
  SREG = sreg;
  return n;
}

void frame() {
  if (txLed && !--txLed) PORTD |= _BV(5);
  if (rxLed && !--rxLed) PORTB |= _BV(0);
}

}  // namespace usb

// End of a bus reset: every endpoint but 0 is disabled (datasheet 22.4);
// endpoint 0 set up again, the device unconfigured and its port closed.
// The only USB_GEN interrupt enabled (UDIEN).
ISR(USB_GEN_vect) {
  UDINT = 0;
  UENUM = 0;
  UECONX = _BV(EPEN);
  UECFG0X = 0;  // control
  UECFG1X = usb::EP_64_ONE_BANK;
  UEIENX = _BV(RXSTPE);
  usb::configuration = 0;
  usb::lineState = 0;
}

// A SETUP on endpoint 0 (RXSTPE, the only endpoint interrupt enabled).
ISR(USB_COM_vect) {
  UENUM = 0;
  for (;;) {
    uint8_t type = UEDATX;
    uint8_t request = UEDATX;
    uint8_t value = UEDATX;
    uint8_t valueHigh = UEDATX;
    uint8_t index = UEDATX;
    (void)UEDATX;
    uint16_t length = UEDATX;
    length |= UEDATX << 8;
    UEINTX = usb::clear(_BV(RXSTPI) | _BV(RXOUTI));  // the SETUP taken, and the last control read's status stage
    if (!usb::answer(type, request, value, valueHigh, index, length)) UECONX = _BV(STALLRQ) | _BV(EPEN);
    // A 1200-baud touch counting down: the game waits here for the watchdog's
    // reset, the key written again and again, while the host's next SETUPs
    // are answered; one that cancels the touch lets the game go on.
    do {
      if (!usb::touchKey) return;
      *usb::touchKey = usb::MAGIC;
    } while (!(UEINTX & _BV(RXSTPI)));
  }
}
