// usb: the ATmega32u4's USB controller as a CDC-ACM serial port (hand-written
// platform code, in place of the Arduino core's USBCore and CDC).
//
// The host sees the device the core presented (2341:8036, "Arduino LLC",
// "Whist", one CDC-ACM function behind an IAD), so every host binds its own
// driver as before; the 1200-baud touch resets into the bootloader as the
// core does it. Control requests are answered by the USB interrupts; the game
// moves bytes with put and get, neither of which ever waits. docs/firmware.md
// ("USB") has the descriptors, the requests answered and the endpoints.
#pragma once
#include <stdint.h>

namespace usb {

// Powers the controller and attaches to the bus (the host then enumerates).
void begin();

// A host program has the port open (DTR or RTS set).
bool open();

// One byte to the host. True once it is in an IN bank, or dropped because no
// host has the port open (as the core's Serial.write drops it); false while
// the host has both banks still to take. A bank goes out at a newline or
// with 63 bytes, so every packet is short and ends the host's read.
bool put(char c);

// The next byte from the host, or -1 when none has arrived.
int16_t get();

// Bytes from the host are waiting to be read.
bool waiting();

// Called once a frame: ends the TX and RX LEDs' pulses.
void frame();

}  // namespace usb
