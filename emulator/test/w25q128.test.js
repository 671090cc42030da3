// Spec tests of the W25Q128 flash model (src/w25q128.js), one per command and
// property, fed byte by byte with a clock of our own; then its wiring to the
// SPI bus and the select lines in the Arduboy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Arduboy } from '../src/arduboy.js';
import { SIZE, W25Q128 } from '../src/w25q128.js';

const MS = 16_000; // cycles at 16 MHz

/** A chip with a clock we move by hand; run(bytes) is one instruction: select, the bytes, deselect. */
function chip() {
  const clock = { cycles: 0 };
  const c = new W25Q128(() => clock.cycles);
  const run = (...bytes) => {
    c.select(true);
    const out = bytes.flat().map((b) => c.transfer(b));
    c.select(false);
    return out;
  };
  const addr = (a) => [(a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff];
  const read = (a, n) => run(0x03, addr(a), new Array(n).fill(0)).slice(4);
  const status = () => run(0x05, 0)[1];
  return { c, clock, run, addr, read, status };
}

test('shipped erased: 16 MiB of 0xFF; the harness reads and writes it directly', () => {
  const { c, read } = chip();
  assert.equal(c.memory.length, 16 * 1024 * 1024);
  assert.equal(SIZE, c.memory.length);
  assert.ok(c.memory.every((b) => b === 0xff));
  c.write(0x123456, [1, 2, 3]);
  assert.deepEqual([...c.read(0x123455, 5)], [0xff, 1, 2, 3, 0xff]);
  assert.deepEqual(read(0x123456, 3), [1, 2, 3]);
  assert.throws(() => c.write(SIZE - 1, [1, 2]), /do not fit in the flash chip/);
  assert.throws(() => c.read(-1, 1), /do not fit/);
});

test('0x03 read: 24-bit address, then bytes on across pages and the whole chip, wrapping at its end', () => {
  const { c, run, addr } = chip();
  c.write(0x0000ff, [0xa0, 0xa1]);
  c.write(SIZE - 2, [0xb0, 0xb1]);
  c.write(0, [0xc0]);
  assert.deepEqual(run(0x03, addr(0xff), 0, 0, 0), [0xff, 0xff, 0xff, 0xff, 0xa0, 0xa1, 0xff]);
  assert.deepEqual(run(0x03, addr(SIZE - 2), 0, 0, 0, 0).slice(4), [0xb0, 0xb1, 0xc0, 0xff]);
});

test('0x0B fast read: one dummy byte after the address, then the data', () => {
  const { c, run, addr } = chip();
  c.write(0x400, [7, 8]);
  assert.deepEqual(run(0x0b, addr(0x400), 0, 0, 0), [0xff, 0xff, 0xff, 0xff, 0xff, 7, 8]);
});

test('0x9F JEDEC id: EF 40 18', () => {
  const { run } = chip();
  assert.deepEqual(run(0x9f, 0, 0, 0).slice(1), [0xef, 0x40, 0x18]);
});

test('0x05 status 1: BUSY bit 0, WEL bit 1, the current value at each byte; 0x35 status 2', () => {
  const { c, clock, run, addr, status } = chip();
  assert.equal(status(), 0);
  run(0x06);
  assert.equal(status(), 0x02);
  run(0x20, addr(0));
  c.select(true);
  c.transfer(0x05);
  assert.equal(c.transfer(0), 0x03); // busy, WEL still set
  clock.cycles = 45 * MS;
  assert.equal(c.transfer(0), 0x00); // the same instruction sees the erase end
  c.select(false);
  assert.deepEqual(run(0x35, 0, 0).slice(1), [0x02, 0x02]);
});

test('0x06 / 0x04: write enable and disable, taken when select goes high after the opcode alone', () => {
  const { run, status } = chip();
  run(0x06);
  assert.equal(status(), 0x02);
  run(0x04);
  assert.equal(status(), 0);
  run(0x06, 0);
  assert.equal(status(), 0, 'an extra byte cancels it');
});

test('0x02 page program: needs WEL, ANDs bytes in (1 -> 0 only), on deselect, then clears WEL', () => {
  const { c, clock, run, addr, read, status } = chip();
  run(0x02, addr(0x1000), 0x00);
  assert.equal(read(0x1000, 1)[0], 0xff, 'no WEL: nothing programmed');
  c.write(0x1000, [0xf0, 0x0f]);
  run(0x06);
  c.select(true);
  [0x02, ...addr(0x1000), 0x3c, 0x3c].forEach((b) => c.transfer(b));
  assert.equal(c.memory[0x1000], 0xf0, 'not before select goes high');
  c.select(false);
  assert.deepEqual([...c.read(0x1000, 3)], [0x30, 0x0c, 0xff]);
  assert.equal(status(), 0x03);
  clock.cycles = 0.4 * MS; // tPP 0.4 ms
  assert.equal(status(), 0, 'BUSY and WEL clear when the program ends');
  run(0x02, addr(0x1000), 0xff);
  assert.deepEqual([...c.read(0x1000, 2)], [0x30, 0x0c], 'WEL was cleared');
});

test('0x02 page program: the address wraps inside its 256-byte page; later bytes replace earlier ones', () => {
  const { c, run, addr } = chip();
  run(0x06);
  run(0x02, addr(0x20fe), 1, 2, 3, 4);
  assert.deepEqual([...c.read(0x20fe, 2)], [1, 2]);
  assert.deepEqual([...c.read(0x2000, 3)], [3, 4, 0xff]);
  assert.equal(c.memory[0x2100], 0xff, 'the next page is untouched');
  const { c: c2, clock, run: run2 } = chip();
  run2(0x06);
  run2(0x02, addr(0), Array.from({ length: 257 }, (_, i) => (i === 256 ? 0x0f : 0xfe)));
  assert.deepEqual([...c2.read(0, 2)], [0x0f, 0xfe], 'byte 256 replaced byte 0 in the buffer');
  clock.cycles = MS;
  run2(0x06);
  run2(0x02, addr(0x300));
  assert.equal(c2.status1, 0x02, 'no data byte: no program, WEL kept');
});

for (const [op, size, ms] of [[0x20, 4096, 45], [0x52, 32768, 120], [0xd8, 65536, 150]]) {
  test(`0x${op.toString(16).toUpperCase()} erase: the ${size / 1024} KB unit holding the address, BUSY ${ms} ms`, () => {
    const { c, clock, run, addr, status } = chip();
    const base = 3 * size;
    c.write(base - 1, new Uint8Array(size + 2));
    run(op, addr(base + size / 2));
    assert.equal(c.memory[base], 0, 'no WEL: nothing erased');
    run(0x06);
    run(op, addr(base + size / 2), 0);
    assert.equal(c.memory[base], 0, 'a byte past the address: not executed');
    run(op, addr(base + size / 2));
    assert.deepEqual([c.memory[base - 1], c.memory[base], c.memory[base + size - 1], c.memory[base + size]], [0, 0xff, 0xff, 0]);
    clock.cycles = ms * MS - 1;
    assert.equal(status(), 0x03);
    clock.cycles = ms * MS;
    assert.equal(status(), 0);
  });
}

for (const op of [0xc7, 0x60]) {
  test(`0x${op.toString(16).toUpperCase()} chip erase: everything, BUSY 40 s`, () => {
    const { c, clock, run, status } = chip();
    c.write(0, [0]);
    c.write(SIZE - 1, [0]);
    run(0x06);
    run(op);
    assert.equal(c.memory[0] & c.memory[SIZE - 1], 0xff);
    clock.cycles = 40_000 * MS - 1;
    assert.equal(status() & 1, 1);
    clock.cycles = 40_000 * MS;
    assert.equal(status(), 0);
  });
}

test('while BUSY only the status reads answer; every other instruction is ignored', () => {
  const { c, clock, run, addr, status } = chip();
  c.write(0x10, [0x55]);
  run(0x06);
  run(0x20, addr(0x5000));
  assert.deepEqual(run(0x9f, 0, 0, 0).slice(1), [0xff, 0xff, 0xff]);
  assert.deepEqual(run(0x03, addr(0x10), 0).slice(4), [0xff]);
  run(0x04); // write disable ignored: WEL stays until the erase ends
  run(0xb9); // power-down ignored
  assert.equal(status(), 0x03);
  assert.deepEqual(run(0x35, 0).slice(1), [0x02]);
  clock.cycles = 45 * MS;
  assert.deepEqual(run(0x03, addr(0x10), 0).slice(4), [0x55]);
});

test('0xB9 power-down: everything but 0xAB ignored, status too; 0xAB releases, instructions 3 us later', () => {
  const { c, clock, run, addr, status } = chip();
  c.write(0, [0x42]);
  run(0xb9, 0);
  assert.equal(status(), 0, 'an extra byte: not powered down');
  run(0xb9);
  assert.deepEqual(run(0x9f, 0, 0, 0).slice(1), [0xff, 0xff, 0xff]);
  run(0x06);
  run(0x05, 0);
  assert.deepEqual(run(0x03, addr(0), 0).slice(4), [0xff]);
  run(0xab);
  assert.deepEqual(run(0x9f, 0).slice(1), [0xff], 'tRES1 not over yet');
  clock.cycles = 48; // 3 us
  assert.deepEqual(run(0x03, addr(0), 0).slice(4), [0x42]);
  assert.equal(status(), 0, 'the write enable sent while powered down did nothing');
});

test('0xAB device id: 0x17 after three dummy bytes, continuously, powered down or not', () => {
  const { run } = chip();
  assert.deepEqual(run(0xab, 0, 0, 0, 0, 0), [0xff, 0xff, 0xff, 0xff, 0x17, 0x17]);
  run(0xb9);
  assert.deepEqual(run(0xab, 0, 0, 0, 0).slice(4), [0x17]);
});

test('unselected, the chip ignores the bus and drives nothing', () => {
  const { c, run } = chip();
  assert.equal(c.transfer(0x06), 0xff);
  assert.equal(c.status1, 0);
  assert.equal(run(0x9f, 0)[1], 0xef);
});

// --- On the Arduboy's bus: SPI, the select lines, the display's CS ---

const SPCR = 0x4c, SPSR = 0x4d, SPDR = 0x4e;
const DDRD = 0x2a, PORTD = 0x2b, DDRE = 0x2d, PORTE = 0x2e;
const NOPS = ':020000000000FE\n:00000001FF\n'; // a flash of NOPs: the tests drive the registers

function board(fx) {
  const b = new Arduboy(NOPS, { usb: 'none', fx });
  const { cpu } = b;
  cpu.writeData(SPCR, 0x50); // SPE | MSTR
  cpu.writeData(SPSR, 0x01); // SPI2X: 16 cycles a byte
  const spi = (byte) => {
    cpu.writeData(SPDR, byte);
    b.run(16);
    return cpu.data[SPDR];
  };
  return { b, cpu, spi };
}

test('PD1 (Arduboy FX): selected while an output driven low; its reply is the byte SPDR reads back', () => {
  const { b, cpu, spi } = board({ select: 'PD1', images: [{ address: 5, data: Uint8Array.of(0x99) }] });
  cpu.writeData(PORTD, 0x00); // low but an input: not selected
  assert.equal(b.fxChip.selected, false);
  assert.equal(spi(0x9f), 0xff);
  cpu.writeData(DDRD, 0x02);
  assert.equal(b.fxChip.selected, true);
  assert.deepEqual([0x9f, 0, 0, 0].map(spi), [0xff, 0xef, 0x40, 0x18]);
  cpu.writeData(PORTD, 0x02);
  assert.equal(b.fxChip.selected, false);
  cpu.writeData(PORTD, 0x00);
  assert.deepEqual([0x03, 0, 0, 5, 0].map(spi), [0xff, 0xff, 0xff, 0xff, 0x99]);
});

test('PE2 (Arduboy Mini): the select line; PD1 then does nothing', () => {
  const { b, cpu, spi } = board({ select: 'PE2' });
  cpu.writeData(DDRD, 0x02);
  assert.equal(b.fxChip.selected, false);
  assert.deepEqual([0x9f, 0].map(spi), [0xff, 0xff]);
  cpu.writeData(DDRE, 0x04);
  cpu.writeData(PORTE, 0x00);
  assert.deepEqual([0x9f, 0].map(spi), [0xff, 0xef]);
  assert.throws(() => new Arduboy(NOPS, { fx: { select: 'PD2' } }), /fx.select must be one of PD1, PE2/);
});

test('the display takes only the bytes sent while its CS (PD6) is low; without fx there is no chip', () => {
  const { b, cpu, spi } = board({ select: 'PD1' });
  cpu.writeData(DDRD, 0xd2); // CS PD6, DC PD4, RST PD7, FX PD1 outputs
  cpu.writeData(PORTD, 0xc0); // display deselected (CS high), chip selected
  spi(0xaf); // "display on" as a command, but the display is not selected
  assert.equal(b.display.on, false);
  cpu.writeData(PORTD, 0x82); // display selected, chip deselected
  spi(0xaf);
  assert.equal(b.display.on, true);
  const plain = board(undefined);
  assert.equal(plain.b.fxChip, null);
  plain.cpu.writeData(DDRD, 0x02);
  assert.equal(plain.spi(0x9f), 0xff);
});
