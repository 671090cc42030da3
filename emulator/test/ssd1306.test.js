// Unit tests of the SSD1306 decoder, fed byte by byte without firmware.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CPU } from 'avr8js';
import { SSD1306 } from '../src/ssd1306.js';

const DDRD = 0x2a, PORTD = 0x2b, DC = 0x10, CS = 0x40, RST = 0x80;
const BOOT = [0xd5, 0xf0, 0x8d, 0x14, 0xa1, 0xc8, 0x81, 0xcf, 0xd9, 0xf1, 0xaf, 0x20, 0x00];

function display() {
  const cpu = new CPU(new Uint16Array(0x4000), 2560);
  cpu.data[DDRD] = DC | CS | RST;
  cpu.data[PORTD] = RST; // CS low, command mode
  const d = new SSD1306(cpu);
  const send = (bytes, data) => {
    cpu.data[PORTD] = (cpu.data[PORTD] & ~DC) | (data ? DC : 0);
    for (const b of bytes) d.spiByte(b);
  };
  return { cpu, d, command: (...b) => send(b, false), data: (b) => send(b, true) };
}

test('Arduboy boot then 1024 data bytes make one upright frame', () => {
  const { d, command, data } = display();
  command(...BOOT);
  const frame = Array.from({ length: 1024 }, (_, i) => (i * 7) & 0xff);
  data(frame);
  assert.equal(d.frames, 1);
  assert.deepEqual([...d.picture()], frame);
});

test('without A1/C8 the picture is turned by 180 degrees', () => {
  const { d, command, data } = display();
  command(0xaf, 0x20, 0x00);
  data([0x01, ...new Array(1023).fill(0)]);
  const p = d.picture();
  assert.equal(p[1023], 0x80); // bottom-right pixel
  assert.equal(p.reduce((a, b) => a + b, 0), 0x80);
});

test('vertical addressing fills a column page by page', () => {
  const { d, command, data } = display();
  command(...BOOT, 0x20, 0x01);
  data([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const p = d.picture();
  assert.deepEqual([0, 1, 2, 7].map((page) => p[page * 128]), [1, 2, 3, 8]);
  assert.equal(p[1], 9);
});

test('page addressing writes one page, wraps inside it and counts no frame', () => {
  const { d, command, data } = display();
  command(...BOOT, 0x20, 0x02, 0xb3, 0x0e, 0x17); // page 3, column 0x7e
  data([0xaa, 0xbb, 0xcc]);
  const p = d.picture();
  assert.deepEqual([p[3 * 128 + 126], p[3 * 128 + 127], p[3 * 128]], [0xaa, 0xbb, 0xcc]);
  assert.equal(d.frames, 0);
});

test('CS high ignores bytes; RST driven low resets; undriven RST does not', () => {
  const { cpu, d, command, data } = display();
  command(...BOOT);
  cpu.data[PORTD] |= CS;
  data([0xff]);
  cpu.data[PORTD] &= ~CS;
  assert.equal(d.picture()[0], 0);
  cpu.data[DDRD] &= ~RST;
  cpu.data[PORTD] &= ~RST;
  d.portChanged();
  assert.equal(d.on, true);
  cpu.data[DDRD] |= RST;
  d.portChanged();
  assert.equal(d.on, false);
});

test('invert, all-on and display off', () => {
  const { d, command } = display();
  command(...BOOT, 0xa7);
  assert.equal(d.picture()[5], 0xff);
  command(0xa6, 0xa5);
  assert.equal(d.picture()[5], 0xff);
  command(0xa4, 0xae);
  assert.equal(d.picture()[5], 0);
});
