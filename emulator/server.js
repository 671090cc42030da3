// Line-based JSON protocol on stdin/stdout for generator/targets/emulator.py.
// Each request is one JSON object per line with a "cmd"; each answer is one
// line: {"ok": true, ...} or {"ok": false, "error": "..."}. Byte strings
// (serial data) travel as JSON strings with one character per byte (latin-1);
// binary images (screen, EEPROM) as hex. Commands: docs/emulator.md.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Arduboy } from './src/arduboy.js';

const DEFAULT_MAX_CYCLES = 16_000_000 * 10;
let board = null;

const need = () => {
  if (!board) throw new Error('no program loaded: send {"cmd": "load", "hex": PATH} first');
  return board;
};
const count = (v, name) => {
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`${name} must be a non-negative integer`);
  return v;
};
const maxCycles = (req) => count(req.max_cycles ?? DEFAULT_MAX_CYCLES, 'max_cycles');
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const commands = {
  load(req) {
    const hex = readFileSync(req.hex, 'latin1');
    board = new Arduboy(hex, { adcSeed: req.adc_seed ?? 1, usb: req.usb ?? 'minimal' });
    if (req.eeprom) board.eeprom.load(Buffer.from(req.eeprom, 'hex'));
    return { cycles: 0 };
  },
  run(req) {
    return { cycles: need().run(count(req.cycles, 'cycles')) };
  },
  run_frames(req) {
    const b = need();
    return { frames: b.runFrames(count(req.frames, 'frames'), maxCycles(req)), cycles: b.cpu.cycles };
  },
  run_until_serial(req) {
    const b = need();
    const regex = new RegExp(req.regex ? req.pattern : escapeRegex(req.pattern), 's');
    return { matched: b.runUntilSerial(regex, maxCycles(req)), cycles: b.cpu.cycles };
  },
  run_until_marker(req) {
    const b = need();
    const value = req.value ?? null;
    return { marker: b.runUntilMarker(value, maxCycles(req)), cycles: b.cpu.cycles };
  },
  press(req) {
    need().ports.setButton(req.button, true);
    return {};
  },
  release(req) {
    need().ports.setButton(req.button, false);
    return {};
  },
  set_buttons(req) {
    need().ports.setButtons(req.buttons);
    return {};
  },
  serial_write(req) {
    need().usb.serialWrite(Buffer.from(req.data, 'latin1'));
    return {};
  },
  serial_read() {
    return { data: need().readSerial() };
  },
  screen() {
    const b = need();
    return { picture: Buffer.from(b.display.picture()).toString('hex'), frames: b.display.frames, on: b.display.on };
  },
  eeprom_get() {
    return { data: Buffer.from(need().eeprom.save()).toString('hex') };
  },
  eeprom_set(req) {
    need().eeprom.load(Buffer.from(req.data, 'hex'));
    return {};
  },
  markers() {
    const b = need();
    const markers = b.markers;
    b.markers = [];
    return { markers };
  },
  adc_set(req) {
    const b = need();
    if (req.volts === null || req.volts === undefined) b.adc.volts.delete(req.channel);
    else b.adc.volts.set(req.channel, req.volts);
    return {};
  },
  status() {
    const b = need();
    return {
      cycles: b.cpu.cycles,
      frames: b.display.frames,
      pressed: [...b.ports.pressed],
      usb: b.usb.status(),
    };
  },
  quit() {
    setImmediate(() => process.exit(0));
    return {};
  },
};

const reply = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  try {
    const req = JSON.parse(line);
    const fn = commands[req.cmd];
    if (!fn) throw new Error(`unknown command ${JSON.stringify(req.cmd)}; known: ${Object.keys(commands).join(', ')}`);
    reply({ ok: true, ...fn(req) });
  } catch (e) {
    reply({ ok: false, error: e.message });
  }
}).on('close', () => process.exit(0));
