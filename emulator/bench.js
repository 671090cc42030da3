// node emulator/bench.js HEX [SECONDS] [--emulator avr8js|projectabe --projectabe DIR]:
// emulated cycles per wall-clock second.
import { readFileSync } from 'node:fs';
import { emulator, parseArgs } from './backends.js';

const [options, [hexPath, seconds = '2']] = parseArgs(process.argv.slice(2));
if (!hexPath) {
  console.error('usage: node emulator/bench.js HEX [SECONDS] [--emulator avr8js|projectabe] [--projectabe DIR]');
  process.exit(2);
}
const board = emulator(options.emulator, options).open(readFileSync(hexPath, 'latin1'), {});
const budget = Number(seconds) * 1000;
const start = performance.now();
let elapsed = 0;
while (elapsed < budget) {
  board.run(1_000_000);
  elapsed = performance.now() - start;
}
const rate = board.cycles / (elapsed / 1000);
console.log(`${options.emulator}: ${(rate / 1e6).toFixed(2)} M cycles/s (${(rate / 16e6).toFixed(2)}x real time), ` +
  `${board.cycles} cycles in ${(elapsed / 1000).toFixed(2)} s, ${board.frames} display frames`);
