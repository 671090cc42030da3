// ATmega32u4 register addresses (data space) and interrupt vectors, as avr8js
// peripheral configs. avr8js ships ATmega328P configs; the 32u4 keeps most
// register addresses but moves every vector and adds Timer3, so each config
// here is written out in full rather than patched.
// Sources: ATmega16U4/32U4 datasheet (Atmel-7766) and avr-libc's iom32u4.h.

/** Vector number -> avr8js interrupt address (word address; 2 words per vector). */
export const vector = (n) => n * 2;

export const VECTORS = {
  USB_GEN: 10,
  USB_COM: 11,
  TIMER1_CAPT: 16,
  TIMER1_COMPA: 17,
  TIMER1_COMPB: 18,
  TIMER1_COMPC: 19,
  TIMER1_OVF: 20,
  TIMER0_COMPA: 21,
  TIMER0_COMPB: 22,
  TIMER0_OVF: 23,
  SPI_STC: 24,
  ADC: 29,
  EE_READY: 30,
  TIMER3_CAPT: 31,
  TIMER3_COMPA: 32,
  TIMER3_COMPB: 33,
  TIMER3_COMPC: 34,
  TIMER3_OVF: 35,
};

export const FLASH_BYTES = 32 * 1024;
export const SRAM_BYTES = 2560; // 0x100..0xAFF, so avr8js's initial SP = 0xAFF = RAMEND
export const EEPROM_BYTES = 1024;
export const CLOCK_HZ = 16_000_000;

export const REG = {
  GPIOR0: 0x3e,
  SMCR: 0x53,
  PLLCSR: 0x49,
  WDTCSR: 0x60,
};
export const RAMEND = 0xaff;

// Ports B-F. No pin-change or INTn interrupts: the firmware must not rely on
// them (ProjectABE lacks them too), so none are wired.
export const ports = {
  B: { PIN: 0x23, DDR: 0x24, PORT: 0x25, externalInterrupts: [] },
  C: { PIN: 0x26, DDR: 0x27, PORT: 0x28, externalInterrupts: [] },
  D: { PIN: 0x29, DDR: 0x2a, PORT: 0x2b, externalInterrupts: [] },
  E: { PIN: 0x2c, DDR: 0x2d, PORT: 0x2e, externalInterrupts: [] },
  F: { PIN: 0x2f, DDR: 0x30, PORT: 0x31, externalInterrupts: [] },
};

const timerDividers = { 0: 0, 1: 1, 2: 8, 3: 64, 4: 256, 5: 1024, 6: 0, 7: 0 };
const tifrBits = { TOV: 1, OCFA: 2, OCFB: 4, OCFC: 8, TOIE: 1, OCIEA: 2, OCIEB: 4, OCIEC: 8 };

export const timer0 = {
  bits: 8,
  dividers: timerDividers,
  captureInterrupt: 0,
  compAInterrupt: vector(VECTORS.TIMER0_COMPA),
  compBInterrupt: vector(VECTORS.TIMER0_COMPB),
  compCInterrupt: 0,
  ovfInterrupt: vector(VECTORS.TIMER0_OVF),
  TIFR: 0x35, OCRA: 0x47, OCRB: 0x48, OCRC: 0, ICR: 0, TCNT: 0x46,
  TCCRA: 0x44, TCCRB: 0x45, TCCRC: 0, TIMSK: 0x6e,
  ...tifrBits, OCFC: 0, OCIEC: 0,
  compPortA: ports.B.PORT, compPinA: 7, // OC0A = PB7
  compPortB: ports.D.PORT, compPinB: 0, // OC0B = PD0
  compPortC: 0, compPinC: 0,
  externalClockPort: ports.D.PORT, externalClockPin: 7, // T0 = PD7
};

export const timer1 = {
  bits: 16,
  dividers: timerDividers,
  captureInterrupt: vector(VECTORS.TIMER1_CAPT),
  compAInterrupt: vector(VECTORS.TIMER1_COMPA),
  compBInterrupt: vector(VECTORS.TIMER1_COMPB),
  compCInterrupt: vector(VECTORS.TIMER1_COMPC),
  ovfInterrupt: vector(VECTORS.TIMER1_OVF),
  TIFR: 0x36, OCRA: 0x88, OCRB: 0x8a, OCRC: 0x8c, ICR: 0x86, TCNT: 0x84,
  TCCRA: 0x80, TCCRB: 0x81, TCCRC: 0x82, TIMSK: 0x6f,
  ...tifrBits,
  compPortA: ports.B.PORT, compPinA: 5, // OC1A = PB5
  compPortB: ports.B.PORT, compPinB: 6, // OC1B = PB6
  compPortC: ports.B.PORT, compPinC: 7, // OC1C = PB7
  externalClockPort: ports.D.PORT, externalClockPin: 6, // T1 = PD6
};

export const timer3 = {
  bits: 16,
  dividers: timerDividers,
  captureInterrupt: vector(VECTORS.TIMER3_CAPT),
  compAInterrupt: vector(VECTORS.TIMER3_COMPA),
  compBInterrupt: vector(VECTORS.TIMER3_COMPB),
  compCInterrupt: vector(VECTORS.TIMER3_COMPC),
  ovfInterrupt: vector(VECTORS.TIMER3_OVF),
  TIFR: 0x38, OCRA: 0x98, OCRB: 0x9a, OCRC: 0x9c, ICR: 0x96, TCNT: 0x94,
  TCCRA: 0x90, TCCRB: 0x91, TCCRC: 0x92, TIMSK: 0x71,
  ...tifrBits,
  compPortA: ports.C.PORT, compPinA: 6, // OC3A = PC6 (speaker)
  compPortB: 0, compPinB: 0, // OC3B/OC3C are not bonded out
  compPortC: 0, compPinC: 0,
  externalClockPort: 0, externalClockPin: 0,
};

export const spi = { spiInterrupt: vector(VECTORS.SPI_STC), SPCR: 0x4c, SPSR: 0x4d, SPDR: 0x4e };

export const eeprom = {
  eepromReadyInterrupt: vector(VECTORS.EE_READY),
  EECR: 0x3f, EEDR: 0x40, EEARL: 0x41, EEARH: 0x42,
  eraseCycles: 28800, // 1.8 ms at 16 MHz; erase + write = 3.6 ms
  writeCycles: 28800,
};

export const clock = { CLKPR: 0x61 };

export const adc = {
  ADCL: 0x78, ADCH: 0x79, ADCSRA: 0x7a, ADCSRB: 0x7b, ADMUX: 0x7c,
  interrupt: vector(VECTORS.ADC),
};

// USB controller registers (chapter 21/22 of the datasheet).
export const usb = {
  UHWCON: 0xd7, USBCON: 0xd8, USBSTA: 0xd9, USBINT: 0xda,
  UDCON: 0xe0, UDINT: 0xe1, UDIEN: 0xe2, UDADDR: 0xe3, UDFNUML: 0xe4, UDFNUMH: 0xe5, UDMFN: 0xe6,
  UEINTX: 0xe8, UENUM: 0xe9, UERST: 0xea, UECONX: 0xeb, UECFG0X: 0xec, UECFG1X: 0xed,
  UESTA0X: 0xee, UESTA1X: 0xef, UEIENX: 0xf0, UEDATX: 0xf1, UEBCLX: 0xf2, UEBCHX: 0xf3, UEINT: 0xf4,
  genInterrupt: vector(VECTORS.USB_GEN),
  comInterrupt: vector(VECTORS.USB_COM),
};
