// GPIO ports B-F and the six Arduboy buttons.
import { AVRIOPort } from 'avr8js';
import { ports as portConfigs } from './atmega32u4.js';

/** Button -> [port letter, bit]. Active low; the firmware enables pull-ups. */
export const BUTTONS = {
  UP: ['F', 7],
  RIGHT: ['F', 6],
  LEFT: ['F', 5],
  DOWN: ['F', 4],
  A: ['E', 6],
  B: ['B', 4],
};

export class Ports {
  /** @param {import('avr8js').CPU} cpu */
  constructor(cpu) {
    this.ports = {};
    for (const [name, config] of Object.entries(portConfigs)) {
      const port = new AVRIOPort(cpu, config);
      // avr8js reads an undriven input as 0; a pulled-up or released pin reads 1,
      // so every input starts driven high.
      for (let bit = 0; bit < 8; bit++) port.setPin(bit, true);
      this.ports[name] = port;
    }
    this.pressed = new Set();
  }

  /** Press (true) or release (false) a button by name. */
  setButton(name, down) {
    const key = String(name).toUpperCase();
    const pin = BUTTONS[key];
    if (!pin) throw new Error(`unknown button ${name}; expected one of ${Object.keys(BUTTONS).join(', ')}`);
    this.ports[pin[0]].setPin(pin[1], !down);
    if (down) this.pressed.add(key);
    else this.pressed.delete(key);
  }

  /** Make exactly the given buttons pressed. */
  setButtons(names) {
    const want = new Set(names.map((n) => String(n).toUpperCase()));
    for (const name of Object.keys(BUTTONS)) this.setButton(name, want.has(name));
  }
}
