// node emulator/profile.js ELF HEX [SERIAL_LINE] [MS | markers=V:K,W] [fx=DATA,SAVE]: where the
// firmware spends its cycles. Runs HEX (sending SERIAL_LINE over USB serial
// after boot) and prints the functions of ELF that took the most cycles, from a
// per-instruction program-counter histogram (uses avr-nm). It profiles MS
// emulated milliseconds, or with markers=V:K,W runs at full speed to the K-th
// write of V to GPIOR0 and profiles until the next write of W (hex values):
// one decision of a fast game is markers=A0:K,A1 (generator/codegen/protocol.py).
// With fx=DATA,SAVE an FX edition's chip (select PD1) holds its data and save
// images where a development upload puts them (backends.js).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Arduboy } from './src/arduboy.js';
import { developmentLayout } from './backends.js';

const USAGE = 'usage: node emulator/profile.js ELF HEX [SERIAL_LINE] [MS | markers=V:K,W] [fx=DATA,SAVE]';
const args = process.argv.slice(2);
const fxArg = args.find((a) => a.startsWith('fx='));
const [elfPath, hexPath, line = '', span = '2000'] = args.filter((a) => a !== fxArg);
const marked = span.match(/^markers=([0-9a-f]{1,2}):(\d+),([0-9a-f]{1,2})$/i);
if (!hexPath || !(marked || /^\d+$/.test(span))) {
  console.error(USAGE);
  process.exit(2);
}
const symbols = execFileSync('avr-nm', ['-C', '-S', '--defined-only', elfPath], { encoding: 'utf8' })
  .split('\n')
  .map((l) => l.match(/^([0-9a-f]+) ([0-9a-f]+) [tTwW] (.*)$/))
  .filter(Boolean)
  .map(([, addr, size, name]) => ({ start: parseInt(addr, 16), end: parseInt(addr, 16) + parseInt(size, 16), name }))
  .sort((a, b) => a.start - b.start);
const nameAt = (byteAddr) => symbols.find((s) => byteAddr >= s.start && byteAddr < s.end)?.name ?? '?';

let fx = null;
if (fxArg) {
  const [data, save] = fxArg.slice(3).split(',').map((f) => new Uint8Array(readFileSync(f)));
  fx = { select: 'PD1', images: developmentLayout({ data, save }).images };
}
const board = new Arduboy(readFileSync(hexPath, 'latin1'), { fx });
board.run(16_000_000 / 10); // boot and open the port
if (line) board.usb.serialWrite(Buffer.from(line.replace(/\\n/g, '\n'), 'latin1'));
const { cpu } = board;
const LONG = 16_000_000 * 600; // ten emulated minutes: a marker that never comes
let done;
if (marked) {
  const [start, k, stop] = [parseInt(marked[1], 16), Number(marked[2]), parseInt(marked[3], 16)];
  for (let i = 0; i < k; i++) {
    if (!board.runUntilMarker(start, LONG)) {
      console.error(`marker 0x${marked[1]} came ${i} times, not ${k}`);
      process.exit(1);
    }
  }
  const seen = board.markers.length;
  done = () => board.markers.slice(seen).some(([v]) => v === stop) || cpu.cycles > LONG;
} else {
  const end = cpu.cycles + Number(span) * 16_000;
  done = () => cpu.cycles >= end;
}
const perPc = new Float64Array(cpu.progMem.length);
const first = cpu.cycles;
while (!done()) {
  const pc = cpu.pc;
  const before = cpu.cycles;
  board.run(1); // one instruction (or one sleep)
  perPc[pc] += cpu.cycles - before;
}
const total = perPc.reduce((a, b) => a + b, 0);
console.log(`${(cpu.cycles - first).toLocaleString('en')} cycles`);
const perName = new Map();
perPc.forEach((c, pc) => {
  if (c) perName.set(nameAt(pc * 2), (perName.get(nameAt(pc * 2)) ?? 0) + c);
});
for (const [name, c] of [...perName].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${((100 * c) / total).toFixed(1).padStart(5)}%  ${name}`);
}
