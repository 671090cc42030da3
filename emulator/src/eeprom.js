// EEPROM: avr8js's controller on the 32u4 addresses, backed by a 1 KiB image
// that can be loaded and saved. Addresses wrap at 1 KiB like EEAR's 10 bits.
import { AVREEPROM } from 'avr8js';
import { EEPROM_BYTES, eeprom as eepromConfig } from './atmega32u4.js';

class Backend {
  constructor() {
    this.memory = new Uint8Array(EEPROM_BYTES).fill(0xff); // erased, as shipped
  }
  readMemory(addr) {
    return this.memory[addr & (EEPROM_BYTES - 1)];
  }
  writeMemory(addr, value) {
    this.memory[addr & (EEPROM_BYTES - 1)] &= value; // programming only clears bits
  }
  eraseMemory(addr) {
    this.memory[addr & (EEPROM_BYTES - 1)] = 0xff;
  }
}

export class EEPROM {
  /** @param {import('avr8js').CPU} cpu */
  constructor(cpu) {
    this.backend = new Backend();
    this.controller = new AVREEPROM(cpu, this.backend, eepromConfig);
  }

  /** @param {Uint8Array} bytes exactly 1024 bytes */
  load(bytes) {
    if (bytes.length !== EEPROM_BYTES) throw new Error(`EEPROM image must be ${EEPROM_BYTES} bytes, got ${bytes.length}`);
    this.backend.memory.set(bytes);
  }

  save() {
    return Uint8Array.from(this.backend.memory);
  }
}
