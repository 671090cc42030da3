// node emulator/bench.js HEX [SECONDS]: emulated cycles per wall-clock second.
import { readFileSync } from 'node:fs';
import { Arduboy } from './src/arduboy.js';

const [hexPath, seconds = '2'] = process.argv.slice(2);
if (!hexPath) {
  console.error('usage: node emulator/bench.js HEX [SECONDS]');
  process.exit(2);
}
const board = new Arduboy(readFileSync(hexPath, 'latin1'));
const budget = Number(seconds) * 1000;
const start = performance.now();
let elapsed = 0;
while (elapsed < budget) {
  board.run(1_000_000);
  elapsed = performance.now() - start;
}
const rate = board.cpu.cycles / (elapsed / 1000);
console.log(`${(rate / 1e6).toFixed(2)} M cycles/s (${(rate / 16e6).toFixed(2)}x real time), ` +
  `${board.cpu.cycles} cycles in ${(elapsed / 1000).toFixed(2)} s, ${board.display.frames} display frames`);
