// The 32u4's watchdog as far as a reset into the bootloader needs it
// (datasheet, Atmel-7766, 10.9): WDE may be set at any time, but cleared, and
// the prescaler bits changed, only within 4 cycles of a write that sets WDCE
// and WDE; WDR restarts the
// count; at the timeout, with WDE set and WDIE clear, the chip resets. The
// count runs on the 128 kHz oscillator: 2K cycles << WDP (WDP 3: 128 ms,
// avr-libc's WDTO_120MS).
//
// The bootloader that would run then is not emulated: the reset is recorded
// with what a bootloader reads to decide (Caterina's key at RAM 0x0800, the
// word at RAMEND-1 where LUFA-style bootloaders look) and the board stops.
const WDIE = 0x40, WDP3 = 0x20, WDCE = 0x10, WDE = 0x08, WDP210 = 0x07;
const PROTECTED = WDE | WDP3 | WDP210;
const OSCILLATOR_HZ = 128000;

export class Watchdog {
  /**
   * @param {import('avr8js').CPU} cpu
   * @param {{ WDTCSR: number, clockHz: number, onReset: () => void }} options
   */
  constructor(cpu, { WDTCSR, clockHz, onReset }) {
    this.cpu = cpu;
    this.clockHz = clockHz;
    this.onReset = onReset;
    this.changeUntil = -1; // the last cycle a protected change is allowed
    this.deadline = null; // the cycle the count runs out, while enabled
    this.expire = () => this.timeout();
    cpu.onWatchdogReset = () => this.restart();
    cpu.writeHooks[WDTCSR] = (value, old) => {
      let v = value;
      if (value & WDCE && value & WDE) {
        this.changeUntil = cpu.cycles + 4;
        v = (value & ~PROTECTED) | (old & PROTECTED) | WDCE;
      } else if (cpu.cycles > this.changeUntil) {
        v = (value & ~PROTECTED) | (old & PROTECTED) | (value & WDE); // WDE may be set at any time
      }
      cpu.data[WDTCSR] = v & ~WDCE;
      this.wdtcsr = cpu.data[WDTCSR];
      this.restart();
      return true;
    };
    this.wdtcsr = 0;
  }

  get enabled() { return (this.wdtcsr & WDE) !== 0 && !(this.wdtcsr & WDIE); }

  /** WDR, or a new setting: the count starts again (and stops when the reset is off). */
  restart() {
    this.cpu.clearClockEvent(this.expire);
    this.deadline = null;
    if (!this.enabled) return;
    const wdp = ((this.wdtcsr & WDP3) >> 2) | (this.wdtcsr & WDP210);
    const cycles = Math.round(((2048 << wdp) * this.clockHz) / OSCILLATOR_HZ);
    this.deadline = this.cpu.cycles + cycles;
    this.cpu.addClockEvent(this.expire, cycles);
  }

  timeout() {
    this.deadline = null;
    if (this.enabled) this.onReset();
  }
}
