// ADC model for the 32u4. Written here rather than using avr8js's AVRADC, which
// reads MUX5 from the 2560's bit position (the 32u4 has it at ADCSRB bit 5).
// Unconnected inputs return deterministic pseudo-random values (an xorshift
// seeded per run), so "random seed from ADC noise" is reproducible in tests.
import { adc as config } from './atmega32u4.js';

const ADEN = 0x80, ADSC = 0x40, ADIF = 0x10, ADIE = 0x08, ADPS = 0x07;
const ADLAR = 0x20;
const MUX5 = 0x20; // in ADCSRB
const FIXED = { 0x1e: 1.1, 0x1f: 0 }; // bandgap, GND (volts)
const TEMPERATURE = 0x27;

export class ADC {
  /** @param {import('avr8js').CPU} cpu @param {number} seed */
  constructor(cpu, seed = 1) {
    this.cpu = cpu;
    this.state = seed >>> 0 || 1;
    /** channel (MUX5:0) -> volts; channels not set here read as noise */
    this.volts = new Map();
    this.converting = false;
    this.first = true;
    this.interrupt = {
      address: config.interrupt,
      flagRegister: config.ADCSRA, flagMask: ADIF,
      enableRegister: config.ADCSRA, enableMask: ADIE,
    };
    cpu.writeHooks[config.ADCSRA] = (value, old) => this.writeADCSRA(value, old);
  }

  noise() {
    let x = this.state;
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    this.state = x;
    return x & 0x3ff;
  }

  writeADCSRA(value, old) {
    const { cpu } = this;
    if (value & ADEN && !(old & ADEN)) this.first = true;
    // ADIF is cleared by writing 1; ADSC cannot be cleared by software.
    let next = (value & ~(ADIF | ADSC)) | (old & ADIF & ~(value & ADIF)) | (old & ADSC);
    if (value & ADSC && value & ADEN && !this.converting) {
      next |= ADSC;
      this.converting = true;
      const prescaler = Math.max(2, 1 << (value & ADPS));
      const adcClocks = this.first ? 25 : 13;
      this.first = false;
      cpu.addClockEvent(() => this.complete(), adcClocks * prescaler);
    }
    cpu.data[config.ADCSRA] = next;
    cpu.updateInterruptEnable(this.interrupt, next);
    if (!(next & ADIF)) cpu.clearInterrupt(this.interrupt, false);
    return true;
  }

  reference() {
    const refs = this.cpu.data[config.ADMUX] >> 6;
    return refs === 3 ? 2.56 : 5; // 00 AREF (tied to AVCC here), 01 AVCC, 11 internal 2.56 V
  }

  sample() {
    const { data } = this.cpu;
    const channel = (data[config.ADMUX] & 0x1f) | (data[config.ADCSRB] & MUX5);
    let volts = this.volts.get(channel) ?? FIXED[channel];
    if (channel === TEMPERATURE) volts = 0.314; // about 25 C
    if (volts === undefined) return this.noise();
    return Math.max(0, Math.min(1023, Math.floor((volts / this.reference()) * 1024)));
  }

  complete() {
    const { cpu } = this;
    const value = this.sample();
    if (cpu.data[config.ADMUX] & ADLAR) {
      cpu.data[config.ADCL] = (value << 6) & 0xff;
      cpu.data[config.ADCH] = value >> 2;
    } else {
      cpu.data[config.ADCL] = value & 0xff;
      cpu.data[config.ADCH] = value >> 8;
    }
    this.converting = false;
    cpu.data[config.ADCSRA] &= ~ADSC;
    cpu.setInterruptFlag(this.interrupt);
  }
}
