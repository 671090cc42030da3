// The two emulators behind one interface, for server.js and bench.js:
// `avr8js` (src/, our cycle-counted harness, the default) and `projectabe`
// (projectabe/, ProjectABE's own published code loaded from a folder).
import { Arduboy } from './src/arduboy.js';
import { SIZE as FX_SIZE } from './src/w25q128.js';
import { ProjectABEBoard } from './projectabe/board.js';
import { readBuild } from './projectabe/bundle.js';

export const EMULATORS = ['avr8js', 'projectabe'];
const FX_PAGE = 256;
const FX_SECTOR = 4096;
const padded = (length, unit) => Math.ceil(length / unit) * unit;
const CONTROL_STEP = 4000; // cycles run between looks at a control transfer's progress

/**
 * Where a development upload puts a game's flash images (the community's
 * layout, which generator/targets/fxchip.py writes to a device too): the
 * data padded with 0xFF to whole 256-byte pages, then the save image padded
 * to whole 4 KB sectors, ending at the end of the chip.
 * @param {{ data: Uint8Array, save: Uint8Array }} fx
 * @returns {{ images: { address: number, data: Uint8Array }[], data_address: number, save_address: number | null }}
 */
export function developmentLayout({ data, save }) {
  const saveAddress = FX_SIZE - padded(save.length, FX_SECTOR);
  const dataAddress = saveAddress - padded(data.length, FX_PAGE);
  if (dataAddress < 0) {
    throw Object.assign(new Error(`the flash data and save images take ${data.length + save.length} bytes `
      + `(padded to pages and sectors), more than the chip's ${FX_SIZE}`), { field: 'fx' });
  }
  return {
    images: [{ address: dataAddress, data }, { address: saveAddress, data: save }],
    data_address: dataAddress,
    save_address: save.length ? saveAddress : null,
  };
}

/** The avr8js harness seen through the shared interface. */
class Avr8jsBoard {
  /** fx: { select, data, save } puts a flash chip on the bus, the images placed as developmentLayout says. */
  constructor(hexText, { adcSeed = 1, usb = 'minimal', fx = null } = {}) {
    const layout = fx && developmentLayout(fx);
    this.board = new Arduboy(hexText, { adcSeed, usb, fx: fx && { select: fx.select, images: layout.images } });
    this.fx = layout && { data_address: layout.data_address, save_address: layout.save_address };
    this.controls = 0;
  }

  get cycles() { return this.board.cpu.cycles; }
  get asleep() { return this.board.asleep; }
  get frames() { return this.board.display.frames; }
  get displayOn() { return this.board.display.on; }
  get pressed() { return this.board.ports.pressed; }
  run(cycles) { return this.board.run(cycles); }
  runFrames(frames, maxCycles) { return this.board.runFrames(frames, maxCycles); }
  runUntilSerial(regex, maxCycles) { return this.board.runUntilSerial(regex, maxCycles); }
  runUntilMarker(value, maxCycles) { return this.board.runUntilMarker(value, maxCycles); }
  setButton(name, down) { this.board.ports.setButton(name, down); }
  setButtons(names) { this.board.ports.setButtons(names); }
  serialWrite(bytes) { this.board.usb.serialWrite(bytes); }
  setHostReading(on) { this.board.usb.setReading(on); }
  readSerial() { return this.board.readSerial(); }
  picture() { return this.board.display.picture(); }
  eepromSave() { return this.board.eeprom.save(); }
  eepromLoad(bytes) { this.board.eeprom.load(bytes); }
  usbStatus() { return this.board.usb.status(); }
  get watchdogReset() { return this.board.reset; }

  /** One control transfer, once the host is free (after its script): its log entry, or status 'pending'. */
  usbControl(setup, data, maxCycles) {
    const { usb } = this.board;
    const name = `control ${++this.controls}`;
    usb.control({ name, setup, ...(data ? { data } : {}) });
    const done = () => usb.log.find((t) => t.name === name);
    for (let ran = 0; !done() && ran < maxCycles; ran += CONTROL_STEP) this.board.run(CONTROL_STEP);
    return done() ?? { name, status: 'pending', data: [] };
  }

  usbHost(action) { this.board.usb.hostAction(action); }

  takeMarkers() {
    const { markers } = this.board;
    this.board.markers = [];
    return markers;
  }

  watch(addresses) { this.board.watch(addresses); }

  takeWrites() {
    const { writes } = this.board;
    this.board.writes = [];
    return writes;
  }

  setAdc(channel, volts) {
    if (volts === null || volts === undefined) this.board.adc.volts.delete(channel);
    else this.board.adc.volts.set(channel, volts);
  }

  fxRead(address, length) { return this.fxChip().read(address, length); }
  fxWrite(address, bytes) { this.fxChip().write(address, bytes); }

  fxChip() {
    if (!this.board.fxChip) throw new Error('no flash chip: load the program with "fx" to have one');
    return this.board.fxChip;
  }
}

/** ProjectABE's Arduboy seen through the shared interface (board.js has the rest). */
class ProjectABEBackend extends ProjectABEBoard {
  takeMarkers() {
    const { markers } = this;
    this.markers = [];
    return markers;
  }

  setAdc() {
    throw new Error("ProjectABE's ADC returns Math.random() (seeded here by adc_seed): a channel cannot be fixed");
  }

  setHostReading(on) {
    if (!on) throw new Error("ProjectABE's host takes every byte the firmware writes: it cannot stop reading");
  }

  watch() {
    throw new Error('watching data writes is an avr8js feature: run with --emulator avr8js');
  }

  usbControl() {
    throw new Error("ProjectABE's host sends only its two SETUPs: control transfers are an avr8js feature");
  }

  usbHost() {
    throw new Error("ProjectABE's host is always there: unplugging and suspending are avr8js features");
  }

  takeWrites() {
    return [];
  }
}

/**
 * Make a board factory for one emulator.
 * @param {string} name 'avr8js' or 'projectabe'
 * @param {{ projectabe?: string, anyBuild?: boolean }} options projectabe: the ProjectABE folder
 * @returns {{ name: string, info: object, open: (hexText: string, o: object) => object }}
 */
export function emulator(name, { projectabe = null, anyBuild = false } = {}) {
  if (name === 'avr8js') {
    return { name, info: { emulator: name }, open: (hex, o) => new Avr8jsBoard(hex, o) };
  }
  if (name === 'projectabe') {
    if (!projectabe) throw new Error('the projectabe emulator needs the folder of its build (--projectabe DIR)');
    const build = readBuild(projectabe, { anyBuild });
    return {
      name,
      info: { emulator: name, dir: build.dir, pinned: build.pinned, sha256: build.hashes },
      open: (hex, o) => new ProjectABEBackend(hex, { ...o, build }),
    };
  }
  throw new Error(`unknown emulator ${JSON.stringify(name)}; expected one of ${EMULATORS.join(', ')}`);
}

/** Parse `--emulator NAME --projectabe DIR --any-build` out of argv; returns [options, rest]. */
export function parseArgs(argv) {
  const options = { emulator: 'avr8js', projectabe: null, anyBuild: false };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--emulator') options.emulator = argv[++i];
    else if (arg === '--projectabe') options.projectabe = argv[++i];
    else if (arg === '--any-build') options.anyBuild = true;
    else rest.push(arg);
  }
  return [options, rest];
}
