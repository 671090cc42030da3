// The Arduboy: an avr8js CPU wired to the 32u4 peripherals of this folder.
// Runs are bounded by a cycle budget and may stop early on a display frame,
// a serial match or a firmware marker (a write to GPIOR0, docs/emulator.md).
// Writes to watched data addresses are recorded with their cycle (`watch`).
// With `fx`, a W25Q128 flash chip shares the SPI bus with the display, as on
// the Arduboy FX (select line PD1) and the Arduboy Mini (PE2).
import { AVRClock, AVRSPI, AVRTimer, CPU, avrInstruction } from 'avr8js';
import * as M from './atmega32u4.js';
import { ADC } from './adc.js';
import { EEPROM } from './eeprom.js';
import { parseHex } from './hex.js';
import { PLL } from './pll.js';
import { Ports } from './ports.js';
import { SSD1306 } from './ssd1306.js';
import { USB } from './usb.js';
import { W25Q128 } from './w25q128.js';
import { Watchdog } from './watchdog.js';

const SLEEP = 0x9588;
const RETI = 0x9518;
const SE = 0x01; // SMCR sleep enable
const SREG = 0x5f;
const I_FLAG = 0x80;
// avr8js counts 2 cycles to enter an interrupt and 3 for RETI; a 32u4 takes
// 4 and 4, plus 4 more when the interrupt wakes it from sleep. The run loop
// adds the difference so interrupt-heavy code keeps real timing.
const ENTRY_EXTRA = 2;
const RETI_EXTRA = 1;
const WAKE_EXTRA = 4;
/** The flash chip's select line: [port, bit]. */
export const FX_SELECT = { PD1: ['D', 1], PE2: ['E', 2] };

export class Arduboy {
  /**
   * @param {string} hexText Intel HEX of the program
   * @param {{ adcSeed?: number, usb?: string, fx?: { select: string, images?: { address: number, data: Uint8Array }[] } }} options
   *   usb: 'minimal' | 'full' | 'none'; fx: a flash chip on select line 'PD1' or 'PE2', holding these images
   */
  constructor(hexText, { adcSeed = 1, usb = 'minimal', fx = null } = {}) {
    const flash = parseHex(hexText, M.FLASH_BYTES);
    const cpu = new CPU(new Uint16Array(flash.buffer), M.SRAM_BYTES);
    this.cpu = cpu;
    this.ports = new Ports(cpu);
    this.timers = [M.timer0, M.timer1, M.timer3].map((config) => new AVRTimer(cpu, config));
    this.clock = new AVRClock(cpu, M.CLOCK_HZ, M.clock);
    this.eeprom = new EEPROM(cpu);
    this.adc = new ADC(cpu, adcSeed);
    this.display = new SSD1306(cpu);
    this.fxChip = fx ? this.wireFxChip(fx) : null;
    this.spi = new AVRSPI(cpu, M.spi, M.CLOCK_HZ);
    // Each byte goes to the chip (its reply is what SPDR reads back; 0xFF when
    // nothing drives MISO) and to the display, which takes it only while PD6 is low.
    this.spi.onByte = (value) => {
      const reply = this.fxChip ? this.fxChip.transfer(value) : 0xff;
      this.display.spiByte(value);
      cpu.addClockEvent(() => this.spi.completeTransfer(reply), this.spi.transferCycles);
    };
    this.ports.ports.D.addListener(() => this.display.portChanged());
    this.serialOut = ''; // bytes from the firmware not yet read, one char per byte
    this.usb = new USB(cpu, {
      pllLocked: () => this.pll.locked,
      onSerial: (bytes) => this.receiveSerial(bytes),
      script: usb,
    });
    this.pll = new PLL(cpu, () => this.usb.checkAttach());
    // A watchdog reset ends the run: the bootloader it would start is not here (watchdog.js).
    this.reset = null;
    this.watchdog = new Watchdog(cpu, { WDTCSR: M.REG.WDTCSR, clockHz: M.CLOCK_HZ, onReset: () => this.watchdogReset() });
    this.markers = [];
    cpu.writeHooks[M.REG.GPIOR0] = (value) => {
      cpu.data[M.REG.GPIOR0] = value;
      this.markers.push([value, cpu.cycles]);
      if (this.waitMarker !== undefined && (this.waitMarker === null || this.waitMarker === value)) this.stop = true;
      return true;
    };
    this.writes = []; // [address, value, cycle] of each write to a watched address
    this.watched = new Set();
    this.display.onFrame = (n) => {
      if (this.waitFrame !== undefined && n >= this.waitFrame) this.stop = true;
    };
    this.stop = false;
    this.asleep = 0; // cycles the CPU slept (SLEEP until an interrupt): the rest it was busy
  }

  /** A W25Q128 selected while its select pin is an output driven low, loaded with the images. */
  wireFxChip({ select, images = [] }) {
    const pin = FX_SELECT[select];
    if (!pin) throw new Error(`fx.select must be one of ${Object.keys(FX_SELECT).join(', ')}, not ${JSON.stringify(select)}`);
    const { cpu } = this;
    const chip = new W25Q128(() => cpu.cycles, M.CLOCK_HZ);
    for (const { address, data } of images) chip.write(address, data);
    const [port, bit] = pin;
    const { DDR, PORT } = M.ports[port];
    const mask = 1 << bit;
    this.ports.ports[port].addListener(() => chip.select((cpu.data[DDR] & mask) !== 0 && (cpu.data[PORT] & mask) === 0));
    return chip;
  }

  /** What a bootloader would find at the watchdog's reset: Caterina's key word, RAMEND-1's, flash's last word. */
  watchdogReset() {
    const { data, progMem } = this.cpu;
    const word = (a) => data[a] | (data[a + 1] << 8);
    this.reset = {
      cycle: this.cpu.cycles, key0800: word(0x800), keyTop: word(M.RAMEND - 1), signature: progMem[0x3fff],
    };
    this.usb.disconnect();
    this.stop = true;
  }

  receiveSerial(bytes) {
    this.serialOut += String.fromCharCode(...bytes);
    if (this.waitSerial && this.waitSerial.test(this.serialOut)) this.stop = true;
  }

  /**
   * Execute until the cycle count reaches `end` or a stop condition fires.
   * A SLEEP with SE set and interrupts on waits for the next clock event that
   * raises an interrupt: only timers, SPI, ADC, EEPROM and USB can wake the
   * CPU here, since no pin interrupts are modelled. Emulating that as a jump
   * is what makes a game that idles between frames run fast.
   */
  runTo(end) {
    const { cpu } = this;
    const prog = cpu.progMem;
    const { data } = cpu;
    this.stop = false;
    if (this.reset) { // in the bootloader, which is not emulated: time passes, nothing runs
      cpu.cycles = Math.max(cpu.cycles, end);
      return cpu.cycles;
    }
    while (cpu.cycles < end && !this.stop) {
      const opcode = prog[cpu.pc];
      if (opcode === SLEEP && data[M.REG.SMCR] & SE && data[SREG] & I_FLAG && cpu.nextInterrupt < 0) {
        const next = cpu.nextClockEvent;
        const from = cpu.cycles;
        if (!next || next.cycles > end) {
          cpu.cycles = end;
          this.asleep += end - from;
          break;
        }
        cpu.cycles = Math.max(cpu.cycles, next.cycles);
        this.asleep += cpu.cycles - from;
        data[SREG] &= ~I_FLAG; // run the event without taking an interrupt at the SLEEP itself
        cpu.tick();
        data[SREG] |= I_FLAG;
        if (cpu.nextInterrupt < 0) continue; // still asleep
        cpu.pc += 1;
        cpu.cycles += 1 + WAKE_EXTRA;
        cpu.tick();
        cpu.cycles += ENTRY_EXTRA;
        continue;
      }
      if (opcode === RETI) cpu.cycles += RETI_EXTRA;
      avrInstruction(cpu);
      const enabled = data[SREG] & I_FLAG;
      cpu.tick();
      if (enabled && !(data[SREG] & I_FLAG)) cpu.cycles += ENTRY_EXTRA;
    }
    return cpu.cycles;
  }

  run(cycles) {
    return this.runTo(this.cpu.cycles + cycles);
  }

  /** Run until `frames` more display frames are complete; returns how many were. */
  runFrames(frames, maxCycles) {
    const start = this.display.frames;
    this.waitFrame = start + frames;
    try {
      this.run(maxCycles);
    } finally {
      this.waitFrame = undefined;
    }
    return this.display.frames - start;
  }

  /** Run until the unread serial output matches `regex`; returns whether it did. */
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

  /** Run until the firmware writes GPIOR0 (with `value`, or any value if null); returns [value, cycle] or null. */
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

  /**
   * Record each later write to these data addresses as [address, value,
   * cycle] in `writes`: times the firmware's own variables (a pointer set and
   * cleared around a search) without a marker in its code. The write still
   * happens, through any hook the address had. Watching an address twice
   * records it once.
   */
  watch(addresses) {
    const { cpu } = this;
    for (const address of addresses) {
      if (!Number.isInteger(address) || address < 0 || address >= cpu.data.length) {
        throw new Error(`watch: ${address} is not a data address (0..${cpu.data.length - 1})`);
      }
      if (this.watched.has(address)) continue;
      this.watched.add(address);
      const before = cpu.writeHooks[address];
      cpu.writeHooks[address] = (value, old, addr, mask) => {
        this.writes.push([address, value, cpu.cycles]);
        return before ? before(value, old, addr, mask) : false;
      };
    }
  }

  readSerial() {
    const out = this.serialOut;
    this.serialOut = '';
    return out;
  }
}
