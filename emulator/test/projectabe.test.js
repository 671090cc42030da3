// The ProjectABE back-end: its build check, the Sim.html wiring, and the game
// booting in ProjectABE's own code. Skipped (with the reason) when no
// ProjectABE build is found: WHIST_PROJECTABE, else ../shared/projectabe.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BuildError, PINNED, readBuild } from '../projectabe/bundle.js';
import { ProjectABEBoard, parseSim } from '../projectabe/board.js';
import { emulator } from '../backends.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = process.env.WHIST_PROJECTABE || join(ROOT, '..', 'shared', 'projectabe');
const HEX = join(ROOT, 'distributable', 'Whist.hex');
const skip = !existsSync(join(DIR, 'app.js'))
  ? `no ProjectABE build in ${DIR} (set WHIST_PROJECTABE or run: whist projectabe fetch)`
  : !existsSync(HEX) ? `no ${HEX}: run make hex` : false;

/** A copy of the build in a temporary folder, optionally with one byte of app.js changed. */
function copyBuild({ changeAt = null, drop = null } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pabe-'));
  mkdirSync(join(dir, 'layouts'));
  for (const path of Object.keys(PINNED.files)) {
    if (path !== drop) copyFileSync(join(DIR, path), join(dir, path));
  }
  if (changeAt !== null) {
    const bytes = readFileSync(join(dir, 'app.js'));
    bytes[changeAt] ^= 0x01;
    writeFileSync(join(dir, 'app.js'), bytes);
  }
  return dir;
}

test('the pinned build is accepted and reported as pinned', { skip }, () => {
  const build = readBuild(DIR);
  assert.equal(build.pinned, true);
  assert.deepEqual(build.hashes, PINNED.files);
});

test('one changed byte of app.js is refused, naming the file, both hashes and the way out', { skip }, () => {
  const dir = copyBuild({ changeAt: 100_000 });
  assert.throws(() => readBuild(dir), (e) => e instanceof BuildError
    && e.message.includes(join(dir, 'app.js')) && e.message.includes(PINNED.files['app.js'])
    && e.message.includes('whist projectabe fetch') && e.message.includes('--any-build'));
  assert.throws(() => emulator('projectabe', { projectabe: dir }), /not the pinned one/);
  const accepted = readBuild(dir, { anyBuild: true });
  assert.equal(accepted.pinned, false);
  assert.notEqual(accepted.hashes['app.js'], PINNED.files['app.js']);
});

test('a missing app.js or Sim.html is refused', { skip }, () => {
  assert.throws(() => readBuild(copyBuild({ drop: 'app.js' })), /app\.js is missing/);
  assert.throws(() => readBuild(copyBuild({ drop: 'layouts/Sim.html' })), /Sim\.html is missing/);
  assert.throws(() => readBuild(join(tmpdir(), 'no-such-projectabe')), /missing.*whist projectabe fetch/);
});

test('Sim.html wires the six buttons to the Arduboy pins, active low, and the screen to SPI', { skip }, () => {
  const { parts } = parseSim(readBuild(DIR).simHtml);
  const buttons = Object.fromEntries(parts.filter((p) => p.attrs['data-inject'] === 'BTN')
    .map((p) => [p.attrs.id, [p.attrs['pin-on'], p.attrs.active]]));
  assert.deepEqual(buttons, {
    Up: ['cpu.A0', 'low'], Down: ['cpu.A3', 'low'], Left: ['cpu.A2', 'low'],
    Right: ['cpu.A1', 'low'], A: ['cpu.7', 'low'], B: ['cpu.8', 'low'],
  });
  const screen = parts.find((p) => p.attrs['data-inject'] === 'SCREEN').attrs;
  assert.deepEqual([screen['pin-dc'], screen['pin-cs'], screen['pin-res'], screen['pin-sda']],
    ['cpu.4', 'cpu.12', 'cpu.6', 'cpu.16']);
});

test('the game boots in ProjectABE: ready line, title marker, frames, a button, EEPROM', { skip }, () => {
  const board = new ProjectABEBoard(readFileSync(HEX, 'latin1'), { dir: DIR });
  assert.equal(board.cycles, 0);
  assert.ok(board.runUntilSerial(/# whist [^\n]*ready\n/, 16_000_000));
  assert.deepEqual(board.markers.map(([v]) => v), [1]); // the title screen
  assert.equal(board.usbStatus().lineState, 3);
  assert.equal(board.runFrames(5, 16_000_000), 5);
  assert.ok(board.picture().some((b) => b !== 0), 'the title is on the canvas');
  board.setButton('A', true);
  assert.equal(board.runFrames(4, 16_000_000), 4);
  board.setButton('A', false);
  board.runFrames(2, 16_000_000);
  assert.deepEqual(board.markers.map(([v]) => v), [1, 2]); // then the main menu
  const image = Uint8Array.from({ length: 1024 }, (_, i) => i & 0xff);
  board.eepromLoad(image);
  assert.deepEqual(board.eepromSave(), image);
});

test('runs are deterministic: same hex and seed, same cycles, output and picture', { skip }, () => {
  const hex = readFileSync(HEX, 'latin1');
  const play = () => {
    const b = new ProjectABEBoard(hex, { dir: DIR, adcSeed: 7 });
    b.runUntilSerial(/ready\n/, 16_000_000);
    b.serialWrite(Buffer.from('play seed=5 fast=1\n', 'latin1'));
    b.runUntilSerial(/end winner=[^\n]*\n/, 400_000_000);
    return [b.cycles, b.readSerial(), Buffer.from(b.picture()).toString('hex')];
  };
  const first = play();
  assert.match(first[1], /^trick 1 /m);
  assert.deepEqual(play(), first);
});
