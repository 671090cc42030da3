// node emulator/profile.js ELF HEX [SERIAL_LINE] [MS]: where the firmware spends
// its cycles. Runs HEX (sending SERIAL_LINE over USB serial after boot) for MS
// emulated milliseconds and prints the functions of ELF that took the most
// cycles, from a per-instruction program-counter histogram (uses avr-nm).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Arduboy } from './src/arduboy.js';

const [elfPath, hexPath, line = '', ms = '2000'] = process.argv.slice(2);
if (!hexPath) {
  console.error('usage: node emulator/profile.js ELF HEX [SERIAL_LINE] [MS]');
  process.exit(2);
}
const symbols = execFileSync('avr-nm', ['-C', '-S', '--defined-only', elfPath], { encoding: 'utf8' })
  .split('\n')
  .map((l) => l.match(/^([0-9a-f]+) ([0-9a-f]+) [tTwW] (.*)$/))
  .filter(Boolean)
  .map(([, addr, size, name]) => ({ start: parseInt(addr, 16), end: parseInt(addr, 16) + parseInt(size, 16), name }))
  .sort((a, b) => a.start - b.start);
const nameAt = (byteAddr) => symbols.find((s) => byteAddr >= s.start && byteAddr < s.end)?.name ?? '?';

const board = new Arduboy(readFileSync(hexPath, 'latin1'));
board.run(16_000_000 / 10); // boot and open the port
if (line) board.usb.serialWrite(Buffer.from(line.replace(/\\n/g, '\n'), 'latin1'));
const { cpu } = board;
const perPc = new Float64Array(cpu.progMem.length);
const end = cpu.cycles + Number(ms) * 16_000;
while (cpu.cycles < end) {
  const pc = cpu.pc;
  const before = cpu.cycles;
  board.run(1); // one instruction (or one sleep)
  perPc[pc] += cpu.cycles - before;
}
const total = perPc.reduce((a, b) => a + b, 0);
const perName = new Map();
perPc.forEach((c, pc) => {
  if (c) perName.set(nameAt(pc * 2), (perName.get(nameAt(pc * 2)) ?? 0) + c);
});
for (const [name, c] of [...perName].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${((100 * c) / total).toFixed(1).padStart(5)}%  ${name}`);
}
