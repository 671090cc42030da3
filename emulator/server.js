// Line-based JSON protocol on stdin/stdout for generator/targets/emulator.py.
// Each request is one JSON object per line with a "cmd"; each answer is one
// line: {"ok": true, ...} or {"ok": false, "error": "..."}. Byte strings
// (serial data) travel as JSON strings with one character per byte (latin-1);
// binary images (screen, EEPROM, flash chip) as hex. Commands: docs/emulator.md.
// An error that concerns one field of the request names it: {"field": "fx"}.
//
//   node emulator/server.js [--emulator avr8js|projectabe] [--projectabe DIR] [--any-build]
//
// avr8js (the default) is our harness in src/; projectabe runs ProjectABE's
// published app.js from DIR (projectabe/board.js). A build that cannot be
// used fails every command with the reason.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { emulator, parseArgs } from './backends.js';

const DEFAULT_MAX_CYCLES = 16_000_000 * 10;
const [options] = parseArgs(process.argv.slice(2));
let backend = null;
let startError = null;
try {
  backend = emulator(options.emulator, options);
} catch (e) {
  startError = e;
}
let board = null;

const ready = () => {
  if (startError) throw startError;
  return backend;
};
const need = () => {
  if (!board) throw new Error('no program loaded: send {"cmd": "load", "hex": PATH} first');
  return board;
};
const count = (v, name) => {
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`${name} must be a non-negative integer`);
  return v;
};
const maxCycles = (req) => count(req.max_cycles ?? DEFAULT_MAX_CYCLES, 'max_cycles');
const bytes = (v, name) => {
  if (typeof v !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(v)) throw new Error(`${name} must be hex digits, two a byte`);
  return Uint8Array.from(Buffer.from(v, 'hex'));
};
const FX_SELECTS = ['PD1', 'PE2'];

/** The load request's "fx": the chip's select line and its data and save images. */
function fxImage({ select, data = '', save = '' }) {
  try {
    if (!FX_SELECTS.includes(select)) {
      throw new Error(`fx.select must be "PD1" (Arduboy FX) or "PE2" (Arduboy Mini), not ${JSON.stringify(select)}`);
    }
    return { select, data: bytes(data, 'fx.data'), save: bytes(save, 'fx.save') };
  } catch (e) {
    throw Object.assign(e, { field: 'fx' });
  }
}
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const commands = {
  info() {
    return ready().info;
  },
  load(req) {
    const b = ready();
    const fx = req.fx ? fxImage(req.fx) : null;
    const hex = readFileSync(req.hex, 'latin1');
    board = null;
    board = b.open(hex, { adcSeed: req.adc_seed ?? 1, usb: req.usb ?? 'minimal', fx });
    if (req.eeprom) board.eepromLoad(Buffer.from(req.eeprom, 'hex'));
    return { cycles: board.cycles, ...(fx ? { fx: board.fx } : {}) };
  },
  run(req) {
    return { cycles: need().run(count(req.cycles, 'cycles')) };
  },
  run_frames(req) {
    const b = need();
    return { frames: b.runFrames(count(req.frames, 'frames'), maxCycles(req)), cycles: b.cycles };
  },
  run_until_serial(req) {
    const b = need();
    const regex = new RegExp(req.regex ? req.pattern : escapeRegex(req.pattern), 's');
    return { matched: b.runUntilSerial(regex, maxCycles(req)), cycles: b.cycles };
  },
  run_until_marker(req) {
    const b = need();
    const value = req.value ?? null;
    return { marker: b.runUntilMarker(value, maxCycles(req)), cycles: b.cycles };
  },
  press(req) {
    need().setButton(req.button, true);
    return {};
  },
  release(req) {
    need().setButton(req.button, false);
    return {};
  },
  set_buttons(req) {
    need().setButtons(req.buttons);
    return {};
  },
  serial_write(req) {
    need().serialWrite(Buffer.from(req.data, 'latin1'));
    return {};
  },
  serial_reading(req) {
    need().setHostReading(Boolean(req.reading));
    return {};
  },
  usb_control(req) {
    const setup = req.setup;
    if (!Array.isArray(setup) || setup.length !== 8 || !setup.every((b) => Number.isInteger(b) && b >= 0 && b < 256)) {
      throw new Error('usb_control needs "setup": the 8 bytes of a SETUP packet');
    }
    return { transfer: need().usbControl(setup, req.data ? [...bytes(req.data, 'data')] : null, maxCycles(req)) };
  },
  usb_host(req) {
    need().usbHost(req.action);
    return {};
  },
  serial_read() {
    return { data: need().readSerial() };
  },
  screen() {
    const b = need();
    return { picture: Buffer.from(b.picture()).toString('hex'), frames: b.frames, on: b.displayOn };
  },
  eeprom_get() {
    return { data: Buffer.from(need().eepromSave()).toString('hex') };
  },
  eeprom_set(req) {
    need().eepromLoad(Buffer.from(req.data, 'hex'));
    return {};
  },
  fx_read(req) {
    const data = need().fxRead(count(req.address, 'address'), count(req.length, 'length'));
    return { data: Buffer.from(data).toString('hex') };
  },
  fx_write(req) {
    need().fxWrite(count(req.address, 'address'), bytes(req.data, 'data'));
    return {};
  },
  markers() {
    return { markers: need().takeMarkers() };
  },
  watch(req) {
    if (!Array.isArray(req.addresses)) throw new Error('watch needs "addresses": a list of data addresses');
    need().watch(req.addresses);
    return {};
  },
  writes() {
    return { writes: need().takeWrites() };
  },
  adc_set(req) {
    need().setAdc(req.channel, req.volts);
    return {};
  },
  status() {
    const b = need();
    return {
      emulator: backend.name,
      cycles: b.cycles,
      asleep: b.asleep ?? null,
      frames: b.frames,
      pressed: [...b.pressed],
      usb: b.usbStatus(),
      reset: b.watchdogReset ?? null,
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
    reply({ ok: false, error: e.message, ...(e.field ? { field: e.field } : {}) });
  }
}).on('close', () => process.exit(0));
