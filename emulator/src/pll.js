// PLLCSR: the USB PLL. The core spins on PLOCK after setting PLLE, so the lock
// bit follows PLLE at once (a real PLL locks within about 100 us).
import { REG } from './atmega32u4.js';

const PLOCK = 0x01;
const PLLE = 0x02;
const WRITABLE = 0x12; // PINDIV | PLLE

export class PLL {
  /** @param {import('avr8js').CPU} cpu @param {() => void} onChange */
  constructor(cpu, onChange) {
    cpu.writeHooks[REG.PLLCSR] = (value) => {
      const v = value & WRITABLE;
      cpu.data[REG.PLLCSR] = v | (v & PLLE ? PLOCK : 0);
      onChange();
      return true;
    };
    this.cpu = cpu;
  }

  get locked() {
    return (this.cpu.data[REG.PLLCSR] & PLOCK) !== 0;
  }
}
