// The Arduboy as ProjectABE's web page runs it, headless: its own `arduboy.js`
// component (the core, the pin map, the peripheral wiring, the JIT warm-up)
// and the parts `layouts/Sim.html` declares inside the Arduboy (SCREEN, the
// six BTNs, the FX flash W25Q64, the LEDs, SOUND), built from that file's
// attributes. Only the browser is stubbed (browser.js).
//
// Time runs as on the site: the page's animation frame executes 13.5 ms of
// emulated time (216,000 cycles) and then the tick listeners (the screen's
// tick puts the picture on the canvas). Runs here follow the same slices,
// aligned to multiples of 216,000 cycles, and may stop early on a display
// frame, a serial match or a marker, by ending the slice at the next
// instruction (what ProjectABE's breakpoints do).
//
// Flash data go where the page puts a package's `flashdata` (its loadFX):
// settings `ram.W25Q64Image` (the bytes) and `ram.W25Q64Addr` (16 MiB less
// their length, rounded down to a 256-byte page), which its W25Q64 reads when
// it is built. It has no save image, and keeps no writes (docs/emulator.md).
import { readBuild, loadModules, BuildError } from './bundle.js';
import { FakeElement, makeBrowser } from './browser.js';
import { parseHex } from '../src/hex.js';
import { FLASH_BYTES } from '../src/atmega32u4.js';

export const CLOCK_HZ = 16_000_000;
export const SLICE_CYCLES = 216_000; // 13.5 ms: Atcore.update()'s fixed step
const GPIOR0 = 0x3e; // data address: the marker register (docs/emulator.md)
const RUNNING = 1; // arduboy.js state once the core is set up
const PARTS = new Set(['SCREEN', 'BTN', 'LED', 'SOUND', 'W25Q64']); // PAUSE and Debugger are web UI
const BUTTON_IDS = { UP: 'Up', DOWN: 'Down', LEFT: 'Left', RIGHT: 'Right', A: 'A', B: 'B' };
// Host input waiting in endpoint 0's 64-byte FIFO, at most. Every endpoint
// aliases endpoint 0 in ProjectABE, so the Arduino core counts unread input as
// output already queued: with 64 bytes waiting, each Serial.write waits 250 ms
// and drops its bytes. 32 leave room for output.
const INPUT_IN_FIFO = 32;
const FX_SIZE = 16 * 1024 * 1024; // the 16 MiB chip loadFX places the image in

/** The elements inside Sim.html's Arduboy (data-inject="arduboy"), in document order. */
export function parseSim(html) {
  const attrsOf = (text) => Object.fromEntries([...text.matchAll(/([\w-]+)\s*=\s*"([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const tags = html.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>/g);
  let container = null;
  let depth = 0;
  const parts = [];
  for (const [, closing, tag, rest] of tags) {
    if (!container) {
      const attrs = attrsOf(rest);
      if (!closing && attrs['data-inject'] === 'arduboy') {
        container = { tag, attrs };
        depth = 1;
      }
      continue;
    }
    if (tag.toLowerCase() === container.tag.toLowerCase()) depth += closing ? -1 : 1;
    if (depth === 0) break;
    if (!closing) {
      const attrs = attrsOf(rest);
      if (attrs['data-inject']) parts.push({ tag, attrs });
    }
  }
  if (!container) throw new BuildError('Sim.html has no element with data-inject="arduboy"');
  return { container, parts };
}

/** The settings model the page hands to components: get and set by key. */
class Settings {
  constructor(items) {
    this.items = new Map(Object.entries(items));
  }

  getItem(key, fallback = null) {
    return this.items.has(key) ? this.items.get(key) : fallback;
  }

  setItem(key, value) {
    this.items.set(key, value);
  }
}

/** The page's dependency pool: components add themselves; call(name, ...) calls that method on each. */
class Pool {
  constructor() {
    this.members = [];
    this.calls = [];
  }

  add(obj) {
    if (!this.members.includes(obj)) this.members.push(obj);
  }

  remove(obj) {
    this.members = this.members.filter((m) => m !== obj);
  }

  call(name, ...args) {
    this.calls.push(name);
    let result;
    for (const m of [...this.members]) {
      if (typeof m[name] === 'function') {
        const r = m[name](...args);
        if (r !== undefined) result = r;
      }
    }
    return result;
  }
}

/** The settings ProjectABE's loadFX makes of a package's flashdata. */
function flashSettings(data) {
  const image = Uint8Array.from(data).buffer; // an ArrayBuffer of its own, as a file read gives
  return { 'ram.W25Q64Image': image, 'ram.W25Q64Addr': (FX_SIZE - image.byteLength) & ~255 };
}

/** Build a component the way the page's injector does: injected fields first, then the constructor. */
function construct(Component, injected, DOM) {
  const obj = Object.create(Component.prototype);
  Object.assign(obj, injected);
  const ret = Component.call(obj, DOM);
  return ret && typeof ret === 'object' ? ret : obj;
}

export class ProjectABEBoard {
  /**
   * @param {string} hexText Intel HEX of the program
   * @param {{ dir: string, anyBuild?: boolean, build?: object, adcSeed?: number, usb?: string,
   *   fx?: { select: string, data: Uint8Array } }} options
   *   dir: the ProjectABE folder; build: an already read build (readBuild); adcSeed seeds Math.random,
   *   which ProjectABE's ADC returns; usb: only 'minimal' (ProjectABE's one fake host); fx: the data
   *   for its flash chip, whose select line is PD1 (a save image is ignored, as ProjectABE does)
   */
  constructor(hexText, { dir, anyBuild = false, build = null, adcSeed = 1, usb = 'minimal', fx = null } = {}) {
    if (usb !== 'minimal') {
      throw new Error(`ProjectABE has one USB host (SET_CONFIGURATION, SET_CONTROL_LINE_STATE): usb must be "minimal", not ${JSON.stringify(usb)}`);
    }
    if (fx && fx.select !== 'PD1') {
      const why = fx.select === 'PE2'
        ? "ProjectABE has no flash chip on PE2 (the Arduboy Mini's select line): run the Mini edition with --emulator avr8js"
        : `ProjectABE's flash chip is on PD1, not ${JSON.stringify(fx.select)}`;
      throw Object.assign(new Error(why), { field: 'fx' });
    }
    // The check the avr8js harness makes: ProjectABE would run any bytes, and its
    // core can spin for ever on code that is not code.
    parseHex(hexText, FLASH_BYTES);
    this.build = build ?? readBuild(dir, { anyBuild });
    const { context, timers, log } = makeBrowser(adcSeed);
    this.log = log;
    const modules = loadModules(this.build.appJs, context, `${this.build.dir}/app.js`);
    const settings = new Settings({ 'app.AT32u4.hex': hexText, ...(fx ? flashSettings(fx.data) : {}) });
    this.fx = fx && { data_address: settings.getItem('ram.W25Q64Addr'), save_address: null };
    const pool = new Pool();
    const injected = { root: settings, model: settings, pool };

    // The Arduboy first (it listens for "addperiferal"), then its parts in Sim.html's order.
    const sim = parseSim(this.build.simHtml);
    const parent = new FakeElement('div', { id: 'simBox' }, context.document.body);
    const host = new FakeElement(sim.container.tag, sim.container.attrs, parent);
    const Arduboy = modules.require('./components/arduboy.js');
    this.arduboy = construct(Arduboy, injected, { element: host });
    this.elements = {};
    this.parts = [];
    for (const { tag, attrs } of sim.parts) {
      const kind = attrs['data-inject'];
      if (!PARTS.has(kind)) continue;
      const el = new FakeElement(tag, attrs, host);
      const DOM = { element: el };
      if (el.id) DOM[el.id] = el;
      const part = construct(modules.require(`./components/${kind}.js`), injected, DOM);
      if (kind === 'W25Q64') this.fxChip = part;
      if (el.id) this.elements[el.id] = el;
      this.parts.push(kind);
    }
    if (fx && !this.fxChip) throw new BuildError('Sim.html wires no flash chip (W25Q64) into the Arduboy');
    // The page's timers: the core set-up (peripheral wiring, JIT warm-up). The
    // first animation frame is left to us: runs start at cycle 0.
    this.arduboy.dead = true;
    for (let i = 0; i < timers.length; i++) timers[i]();
    timers.length = 0;
    this.arduboy.dead = false;
    const { core } = this.arduboy;
    if (!core || this.arduboy.state !== RUNNING) {
      const why = pool.calls.includes('showDebugger') ? 'it could not parse the hex' : `state ${this.arduboy.state}`;
      throw new Error(`ProjectABE did not start the program: ${why}`);
    }
    this.core = core;
    this.screen = this.arduboy.periferals.find((p) => p.constructor.name === 'SCREEN');
    if (!this.screen) throw new BuildError('Sim.html wires no SCREEN into the Arduboy');
    this.canvas = this.screen.canvas;
    this.instrument();
  }

  /** Observers of our own, none of which changes what the program sees. */
  instrument() {
    const { core, screen } = this;
    this.stop = false;
    this.frames = 0;
    this.markers = [];
    this.serialOut = '';
    this.pressed = new Set();
    const halt = () => {
      this.stop = true;
      core.endTick = core.tick; // ends the slice before the next instruction
    };
    // A display frame: the screen's write pointer wrapped past the end of its window.
    const state = screen.state;
    screen.state = function frameCounting(data) {
      state.call(this, data);
      if (this.vblank) onFrame();
    };
    const onFrame = () => {
      this.frames += 1;
      if (this.waitFrame !== undefined && this.frames >= this.waitFrame) halt();
    };
    // Output arrives a byte at a time; a wait is checked at each line end (and
    // after each slice), not at every byte, which would cost O(n^2).
    core.pins.serial0Out.listeners.push((byte) => {
      this.serialOut += String.fromCharCode(byte & 0xff);
      if (byte === 0x0a && this.waitSerial && this.waitSerial.test(this.serialOut)) halt();
    });
    // GPIOR0 is plain memory in ProjectABE; a write hook records markers. The
    // core has already added the instruction's cycles (1 for OUT and STS there)
    // when the write happens, so the instruction started one cycle earlier.
    core.writeMap[GPIOR0] = (value) => {
      this.markers.push([value, core.tick - 1]);
      if (this.waitMarker !== undefined && (this.waitMarker === null || this.waitMarker === value)) halt();
      return undefined;
    };
    // The fake USB host: its first timed step sends SET_CONFIGURATION, the second
    // SET_CONTROL_LINE_STATE (the port opens).
    const usb = core.periferals.SERIAL;
    this.usbSteps = [];
    // Host input goes through endpoint 0's FIFO, where the fake host puts its two
    // SETUP packets too: input sent before the firmware has read them would be
    // read as part of them, and the port would never open. So it waits here
    // until the port is open and the second SETUP is read, then goes in as the
    // firmware reads, INPUT_IN_FIFO bytes at most, before each peripheral update.
    this.hostInput = [];
    this.portOpen = false;
    core.updateList.unshift(() => {
      if (this.hostInput.length) this.feedHost(usb);
    });
    let step = usb.timeoutCB;
    Object.defineProperty(usb, 'timeoutCB', {
      configurable: true,
      get: () => step,
      set: (fn) => {
        step = typeof fn === 'function'
          ? (...args) => {
            this.usbSteps.push(core.tick);
            return fn(...args);
          }
          : fn;
      },
    });
  }

  /** Hand waiting host input to ProjectABE's pins (serial0In), as the FIFO has room once the port is open. */
  feedHost(usb) {
    const ep0 = usb.EP[0];
    if (!this.portOpen) {
      if (this.usbSteps.length < 2 || !ep0.buffer || ep0.length) return;
      this.portOpen = true;
    }
    const room = INPUT_IN_FIFO - ep0.length - usb.serial0INBuffer.length;
    if (room > 0) this.core.pins.serial0In = String.fromCharCode(...this.hostInput.splice(0, room));
  }

  get cycles() {
    return this.core.tick;
  }

  /** The page's animation frame after a full slice: every tick listener (the screen draws). */
  animationFrame() {
    for (const part of this.arduboy.tick) part.tick();
  }

  /** Execute until the cycle count reaches `end` or a stop condition fires; returns the cycle count. */
  runTo(end) {
    const { core } = this;
    this.stop = false;
    while (core.startTick < end && !this.stop) {
      const boundary = (Math.floor(core.startTick / SLICE_CYCLES) + 1) * SLICE_CYCLES;
      const sliceEnd = Math.min(end, boundary);
      core.exec((sliceEnd - core.startTick + 0.5) / core.clock);
      if (this.waitSerial && this.waitSerial.test(this.serialOut)) this.stop = true;
      if (!this.stop && core.startTick === boundary) this.animationFrame();
    }
    return core.tick;
  }

  run(cycles) {
    return this.runTo(this.core.startTick + cycles);
  }

  runFrames(frames, maxCycles) {
    const start = this.frames;
    this.waitFrame = start + frames;
    try {
      if (frames > 0) this.run(maxCycles);
    } finally {
      this.waitFrame = undefined;
    }
    return this.frames - start;
  }

  runUntilSerial(regex, maxCycles) {
    if (regex.test(this.serialOut)) return true;
    this.waitSerial = regex;
    try {
      this.run(maxCycles);
    } finally {
      this.waitSerial = undefined;
    }
    return regex.test(this.serialOut);
  }

  runUntilMarker(value, maxCycles) {
    const seen = this.markers.length;
    this.waitMarker = value;
    try {
      this.run(maxCycles);
    } finally {
      this.waitMarker = undefined;
    }
    return this.markers.slice(seen).find(([v]) => value === null || v === value) ?? null;
  }

  readSerial() {
    const out = this.serialOut;
    this.serialOut = '';
    return out;
  }

  /** Host -> Serial.read(): the bytes reach the core's serial0In, as the page's debugger input does (feedHost). */
  serialWrite(bytes) {
    for (const byte of Buffer.from(bytes)) this.hostInput.push(byte);
  }

  /** Press or release a button the way a click on the page does (mousedown / mouseup on its element). */
  setButton(name, down) {
    const key = String(name).toUpperCase();
    const el = this.elements[BUTTON_IDS[key]];
    if (!el) throw new Error(`unknown button ${name}; expected one of ${Object.keys(BUTTON_IDS).join(', ')}`);
    el.dispatchEvent({ type: down ? 'mousedown' : 'mouseup', bubbles: false, target: null });
    if (down) this.pressed.add(key);
    else this.pressed.delete(key);
  }

  setButtons(names) {
    const want = new Set(names.map((n) => String(n).toUpperCase()));
    for (const name of Object.keys(BUTTON_IDS)) this.setButton(name, want.has(name));
  }

  /**
   * The picture on the page's canvas after the screen's tick: 1024 bytes,
   * 8 pages x 128 columns, LSB on top; a pixel is lit when its alpha is.
   */
  picture() {
    this.animationFrame();
    const out = new Uint8Array(1024);
    const image = this.canvas.getContext('2d').image;
    if (!image) return out;
    const { data, width } = image;
    const scale = width / 128;
    for (let page = 0; page < 8; page++) {
      for (let col = 0; col < 128; col++) {
        let byte = 0;
        for (let bit = 0; bit < 8; bit++) {
          const y = (page * 8 + bit) * scale;
          if (data[(y * width + col * scale) * 4 + 3] >= 0x80) byte |= 1 << bit;
        }
        out[page * 128 + col] = byte;
      }
    }
    return out;
  }

  get displayOn() {
    return !!this.screen.autoBlit;
  }

  get eepromBytes() {
    return this.core.periferals.EEPROM.eeprom;
  }

  eepromSave() {
    return Uint8Array.from(this.eepromBytes);
  }

  eepromLoad(bytes) {
    if (bytes.length !== this.eepromBytes.length) {
      throw new Error(`an EEPROM image is ${this.eepromBytes.length} bytes, got ${bytes.length}`);
    }
    this.eepromBytes.set(bytes);
  }

  /** Bytes of the flash chip's data image, by chip address (the only bytes ProjectABE's chip holds). */
  fxRead(address, length) {
    const at = this.fxImageOffset(address, length);
    return this.fxChip.image.slice(at, at + length);
  }

  /** Change bytes of the data image: what the chip's reads answer from then on. */
  fxWrite(address, bytes) {
    this.fxChip.image.set(bytes, this.fxImageOffset(address, bytes.length));
  }

  fxImageOffset(address, length) {
    if (!this.fx) throw new Error('no flash image: load the program with "fx" to give ProjectABE\'s chip one');
    const start = this.fx.data_address;
    const end = start + this.fxChip.image.length;
    if (!(address >= start && address + length <= end)) {
      throw new Error(`ProjectABE's flash chip holds only its data image, at ${start}-${end - 1}: `
        + `${length} bytes at ${address} are outside it`);
    }
    return address - start;
  }

  usbStatus() {
    const usb = this.core.periferals.SERIAL;
    const [configuredAt = null, openedAt = null] = this.usbSteps;
    return {
      host: 'projectabe',
      attached: !!usb.USBE,
      configured: configuredAt !== null,
      lineState: openedAt !== null ? 3 : 0,
      configuredAt,
      openedAt,
    };
  }
}
