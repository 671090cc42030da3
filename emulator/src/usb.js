// The 32u4 USB device controller plus a fake host, enough for the Arduino
// core's CDC `Serial` and the game's own CDC-ACM device (facts:
// shared/reference/usb-cdc-emulation.md and the datasheet, Atmel-7766 ch. 21-22).
//
// Controller: endpoints 0-6 selected by UENUM, level interrupts USB_GEN and
// USB_COM re-evaluated after every register write and host event, UDINT and
// UEINTX flags that writing 0 clears and writing 1 leaves alone, EP0 as a
// control endpoint with one shared bank, bulk IN/OUT endpoints with banks and
// data toggles (reset by clearing EPEN or by RSTDT; a packet whose toggle is
// out of step with the host's is lost, as on the bus).
//
// Host: attaches once USBE=1, FRZCLK=0, DETACH=0, the PLL is locked and VBUS
// is there; ends a bus reset 2 ms later, then sends a SOF every 1 ms (16000
// cycles) and runs a script of control transfers, polled every 200 cycles,
// then any transfer asked for (`control`). It keeps to what the chip allows: a
// new address is used 2 ms after SET_ADDRESS's status stage (USB 2.0 9.2.6.3),
// and a device that answers at it only before that stage, or not by then,
// fails; a control read longer than wLength fails. The default script is the
// minimum that opens the port: SET_CONFIGURATION(1) then
// SET_CONTROL_LINE_STATE(DTR|RTS). No script sends a 1200-baud line coding.
// After that it feeds queued bytes into EP2 (bulk OUT, never zero-length
// unless asked) and takes every bank the firmware hands over on EP3 (bulk IN)
// at once, unless told to stop reading (setReading(false)): then handed-over
// banks wait, and with both waiting the firmware finds no free bank, as with
// a PC program that has the port open but does not read it. `hostAction`
// unplugs and plugs the cable, suspends and resumes the bus.
//
// What breaks the datasheet's rules without breaking the model's transfers
// is listed in `violations` (status()): UADD and ADDEN written together,
// bytes written to a full bank, read from an empty one.
import { usb as R } from './atmega32u4.js';

const CYCLES_PER_MS = 16000;
const ATTACH_TO_RESET_END = 2 * CYCLES_PER_MS;
const POLL_CYCLES = 200;
const TRANSFER_TIMEOUT = 50 * CYCLES_PER_MS;
const SET_ADDRESS_RECOVERY = 2 * CYCLES_PER_MS; // USB 2.0 9.2.6.3
const SUSPEND_DETECT = 3 * CYCLES_PER_MS; // datasheet 22.8: 3 ms of an idle bus

// USBCON / UDCON
const USBE = 0x80, FRZCLK = 0x20;
const DETACH = 0x01, RMWKUP = 0x02;
// UDINT, USBSTA, USBINT
const SUSPI = 0x01, SOFI = 0x04, EORSTI = 0x08, WAKEUPI = 0x10, EORSMI = 0x20;
const VBUS = 0x01, ID = 0x02, VBUSTI = 0x01;
// UDADDR
const ADDEN = 0x80;
const UDINT_IRQ_BITS = 0x7d;
// UEINTX
const FIFOCON = 0x80, RWAL = 0x20, RXSTPI = 0x08, RXOUTI = 0x04, STALLEDI = 0x02, TXINI = 0x01;
const UEINTX_IRQ_BITS = 0x5f;
// UECONX
const EPEN = 0x01, RSTDT = 0x08, STALLRQC = 0x10, STALLRQ = 0x20;

const CDC_RX = 2; // bulk OUT: host -> the firmware
const CDC_TX = 3; // bulk IN: the firmware -> host

const setup = (type, request, value, index, length) => [
  type, request, value & 0xff, value >> 8, index & 0xff, index >> 8, length & 0xff, length >> 8,
];
const getDescriptor = (name, kind, index, length, langId = 0) => ({
  name, setup: setup(0x80, 6, (kind << 8) | index, langId, length),
});
const SET_CONFIGURATION = { name: 'SET_CONFIGURATION', setup: setup(0x00, 9, 1, 0, 0) };
const OPEN_PORT = { name: 'SET_CONTROL_LINE_STATE', setup: setup(0x21, 0x22, 3, 0, 0) };

/** Control-transfer scripts the host can run after the bus reset. */
export const SCRIPTS = {
  minimal: [SET_CONFIGURATION, OPEN_PORT],
  // Modelled on what Linux sends; exercises IN and OUT data stages and STALL.
  full: [
    getDescriptor('GET_DESCRIPTOR(device)', 1, 0, 64),
    { name: 'SET_ADDRESS', setup: setup(0x00, 5, 5, 0, 0) },
    getDescriptor('GET_DESCRIPTOR(device)', 1, 0, 18),
    getDescriptor('GET_DESCRIPTOR(configuration)', 2, 0, 9),
    getDescriptor('GET_DESCRIPTOR(configuration)', 2, 0, 255),
    getDescriptor('GET_DESCRIPTOR(device qualifier)', 6, 0, 10),
    getDescriptor('GET_DESCRIPTOR(string 0)', 3, 0, 255),
    getDescriptor('GET_DESCRIPTOR(string 1)', 3, 1, 255, 0x0409),
    getDescriptor('GET_DESCRIPTOR(string 2)', 3, 2, 255, 0x0409),
    getDescriptor('GET_DESCRIPTOR(string 3)', 3, 3, 255, 0x0409),
    SET_CONFIGURATION,
    { name: 'GET_CONFIGURATION', setup: setup(0x80, 8, 0, 0, 1) },
    // 115200 baud, 1 stop bit, no parity, 8 data bits
    { name: 'SET_LINE_CODING', setup: setup(0x21, 0x20, 0, 0, 7), data: [0x00, 0xc2, 0x01, 0x00, 0, 0, 8] },
    OPEN_PORT,
    { name: 'GET_LINE_CODING', setup: setup(0xa1, 0x21, 0, 0, 7) },
  ],
  none: [],
};

class Endpoint {
  constructor(n) {
    this.n = n;
    this.ueconx = 0;
    this.cfg0 = 0;
    this.cfg1 = 0;
    this.ueienx = 0;
    this.allocated = false;
    this.size = 8;
    this.banks = 1;
    this.toggle = 0; // the device's data toggle: the next IN packet's, or the OUT packet it expects
    this.flush();
  }

  get control() { return (this.cfg0 >> 6) === 0; }
  get isIn() { return (this.cfg0 & 1) === 1; }
  get ready() { return (this.ueconx & EPEN) !== 0 && this.allocated; }
  get stalled() { return (this.ueconx & STALLRQ) !== 0; }

  /** Empty the FIFO and clear its flags (UERST, allocation, bus reset). */
  flush() {
    this.stalledi = false;
    this.rxstpi = false; // control: a SETUP sits in the bank
    this.rxouti = false; // control: an OUT packet sits in the bank; bulk OUT: the flag
    this.rx = null; // control: {bytes, pos} of the SETUP / OUT packet
    this.inBuf = []; // control / IN: bytes the CPU wrote into the current IN bank
    this.inPending = null; // control: IN packet handed over, waiting for the host
    this.inFlight = []; // bulk IN: banks handed over that the host has not taken yet
    this.packets = []; // bulk OUT: [{bytes, pos}], oldest first
  }

  /** UEINTX as the CPU reads it. */
  ueintx() {
    let v = this.stalledi ? STALLEDI : 0; // NAKINI/NAKOUTI: the host never NAKs here
    if (this.control) {
      if (this.rxstpi) v |= RXSTPI;
      if (this.rxouti) v |= RXOUTI;
      if (this.txFree()) v |= TXINI;
    } else if (this.isIn) {
      if (this.inFree()) v |= TXINI | FIFOCON | (this.inBuf.length < this.size ? RWAL : 0);
    } else {
      const cur = this.packets[0];
      if (this.rxouti) v |= RXOUTI;
      if (cur) v |= FIFOCON | (cur.pos < cur.bytes.length ? RWAL : 0);
    }
    return v;
  }

  /** Bulk IN: a bank is free for the CPU to fill. */
  inFree() {
    return this.ready && this.inFlight.length < this.banks;
  }

  /** Control endpoint: the bank is free for IN data. */
  txFree() {
    return this.allocated && !this.rxstpi && !this.rxouti && this.inPending === null;
  }

  byteCount() {
    if (this.control) return this.rx ? this.rx.bytes.length - this.rx.pos : this.inBuf.length;
    if (this.isIn) return this.inFree() ? this.inBuf.length : 0;
    const cur = this.packets[0];
    return cur ? cur.bytes.length - cur.pos : 0;
  }
}

export class USB {
  /**
   * @param {import('avr8js').CPU} cpu
   * @param {{ pllLocked: () => boolean, onSerial: (bytes: number[]) => void, script?: string }} options
   */
  constructor(cpu, { pllLocked, onSerial, script = 'minimal' }) {
    if (!SCRIPTS[script]) throw new Error(`unknown USB script ${script}; expected one of ${Object.keys(SCRIPTS).join(', ')}`);
    this.cpu = cpu;
    this.pllLocked = pllLocked;
    this.onSerial = onSerial;
    this.scriptName = script;
    this.eps = Array.from({ length: 7 }, (_, n) => new Endpoint(n));
    this.gen = { address: R.genInterrupt, flagRegister: 0, flagMask: 0, enableRegister: 0, enableMask: 0, constant: true };
    this.com = { address: R.comInterrupt, flagRegister: 0, flagMask: 0, enableRegister: 0, enableMask: 0, constant: true };
    this.sof = () => this.startOfFrame();
    this.resetEnd = () => this.busResetEnd();
    this.poll = () => this.hostPoll();
    this.idle = () => this.suspendDetected();
    this.rxQueue = [];
    this.reading = true;
    this.vbus = script !== 'none';
    this.suspended = false;
    this.violations = [];
    this.lost = 0; // bulk packets lost to a data toggle out of step
    this.powerOn();
    this.hook();
  }

  /** Register reset values and a host that has seen nothing yet. */
  powerOn() {
    const { data } = this.cpu;
    for (let a = R.UHWCON; a <= R.UEINT; a++) data[a] = 0;
    data[R.USBCON] = FRZCLK;
    data[R.UDCON] = DETACH;
    this.udint = 0;
    for (const ep of this.eps) {
      ep.ueconx = 0; ep.cfg0 = 0; ep.cfg1 = 0; ep.ueienx = 0; ep.allocated = false; ep.toggle = 0; ep.flush();
    }
    this.disconnect();
  }

  /** Forget the host side: no SOF, no script, port closed. */
  disconnect() {
    const { cpu } = this;
    cpu.clearClockEvent(this.sof);
    cpu.clearClockEvent(this.resetEnd);
    cpu.clearClockEvent(this.poll);
    cpu.clearClockEvent(this.idle);
    this.attached = false;
    this.attachedAt = null;
    this.polling = false;
    this.frame = 0;
    this.address = 0;
    this.addressAt = 0; // when the host starts using `address` (SET_ADDRESS's recovery)
    this.script = [];
    this.transfer = null;
    this.configured = false;
    this.lineState = 0;
    this.openedAt = null;
    this.hostToggles = [0, 0, 0, 0, 0, 0, 0];
    this.log = [];
  }

  violation(text) {
    this.violations.push({ text, cycle: this.cpu.cycles });
  }

  get ep() {
    return this.eps[this.cpu.data[R.UENUM] & 7] ?? null;
  }

  hook() {
    const { cpu } = this;
    const w = cpu.writeHooks;
    const r = cpu.readHooks;
    const store = (addr, after = () => {}) => {
      w[addr] = (value) => { cpu.data[addr] = value; after(value); return true; };
    };
    w[R.USBCON] = (value, old) => {
      if (old & USBE && !(value & USBE)) this.powerOn(); // clearing USBE resets the controller
      cpu.data[R.USBCON] = value;
      this.checkAttach();
      return true;
    };
    w[R.UDCON] = (value) => { cpu.data[R.UDCON] = value & ~RMWKUP; this.checkAttach(); return true; };
    r[R.USBSTA] = () => (cpu.data[R.USBSTA] & ~VBUS) | ID | (this.vbus ? VBUS : 0); // ID: a device
    r[R.UDINT] = () => this.udint;
    w[R.UDINT] = (value) => { this.udint &= value; this.updateIrqs(); return true; };
    w[R.UDADDR] = (value, old) => {
      // Datasheet 22.7: UADD first, ADDEN in a later write, never both at once.
      if (value & ADDEN && !(old & ADDEN) && (value & 0x7f) !== (old & 0x7f)) {
        this.violation(`UDADDR: UADD ${value & 0x7f} and ADDEN written at the same time`);
      }
      cpu.data[R.UDADDR] = value;
      return true;
    };
    store(R.UDIEN, () => this.updateIrqs());
    store(R.UENUM, () => { cpu.data[R.UENUM] &= 7; });
    w[R.UERST] = (value) => {
      cpu.data[R.UERST] = value & 0x7f;
      for (const ep of this.eps) if (value & (1 << ep.n)) ep.flush();
      this.updateIrqs();
      return true;
    };
    r[R.UEINTX] = () => this.ep?.ueintx() ?? 0;
    w[R.UEINTX] = (value) => { if (this.ep) this.writeUEINTX(this.ep, value); return true; };
    r[R.UECONX] = () => this.ep?.ueconx ?? 0;
    w[R.UECONX] = (value) => {
      const ep = this.ep;
      if (!ep) return true;
      // Datasheet 22.6: clearing EPEN resets the endpoint (banks, flags) and its data toggle; RSTDT the toggle.
      if (ep.ueconx & EPEN && !(value & EPEN)) { ep.flush(); ep.toggle = 0; }
      if (value & RSTDT) ep.toggle = 0;
      let v = (ep.ueconx & STALLRQ) | (value & EPEN);
      if (value & STALLRQ) v |= STALLRQ;
      if (value & STALLRQC) v &= ~STALLRQ;
      ep.ueconx = v;
      this.updateIrqs();
      if (ep.n === CDC_TX) this.takeBanks(); // a halt cleared: the host takes what waits
      if (ep.n === CDC_RX) this.pumpOut(); // and sends what it holds
      return true;
    };
    r[R.UECFG0X] = () => this.ep?.cfg0 ?? 0;
    w[R.UECFG0X] = (value) => { if (this.ep) this.ep.cfg0 = value; return true; };
    r[R.UECFG1X] = () => this.ep?.cfg1 ?? 0;
    w[R.UECFG1X] = (value) => {
      const ep = this.ep;
      if (!ep) return true;
      ep.cfg1 = value & 0x7e;
      ep.allocated = (value & 0x02) !== 0;
      ep.size = 8 << ((value >> 4) & 7);
      ep.banks = (value >> 2) & 3 ? 2 : 1;
      ep.flush();
      this.updateIrqs();
      this.pumpOut();
      return true;
    };
    r[R.UESTA0X] = () => (this.ep?.allocated ? 0x80 : 0);
    r[R.UESTA1X] = () => 0;
    r[R.UEIENX] = () => this.ep?.ueienx ?? 0;
    w[R.UEIENX] = (value) => { if (this.ep) this.ep.ueienx = value; this.updateIrqs(); return true; };
    r[R.UEDATX] = () => this.readUEDATX();
    w[R.UEDATX] = (value) => {
      const ep = this.ep;
      if (!ep) return true;
      if ((ep.control || (ep.isIn && ep.inFree())) && ep.inBuf.length < ep.size) ep.inBuf.push(value);
      else this.violation(`UEDATX: a byte written to endpoint ${ep.n} with no room in its bank (lost)`);
      return true;
    };
    r[R.UEBCLX] = () => (this.ep?.byteCount() ?? 0) & 0xff;
    r[R.UEBCHX] = () => (this.ep?.byteCount() ?? 0) >> 8;
    r[R.UEINT] = () => this.eps.reduce((v, ep) => (ep.ueintx() & ep.ueienx & UEINTX_IRQ_BITS ? v | (1 << ep.n) : v), 0);
  }

  readUEDATX() {
    const ep = this.ep;
    if (!ep) return 0;
    const src = ep.control ? ep.rx : ep.isIn ? null : ep.packets[0];
    if (!src || src.pos >= src.bytes.length) {
      this.violation(`UEDATX: read from endpoint ${ep.n} with no byte in its bank`);
      return 0;
    }
    return src.bytes[src.pos++];
  }

  writeUEINTX(ep, value) {
    if (!(value & STALLEDI)) ep.stalledi = false;
    if (ep.control) {
      // TXINI is judged before the other clears: the core's 0xF2 right after a
      // SETUP must not send an empty IN packet.
      if (!(value & TXINI) && ep.txFree()) {
        ep.inPending = ep.inBuf;
        ep.inBuf = [];
      }
      if (!(value & RXSTPI) && ep.rxstpi) { ep.rxstpi = false; ep.rx = null; }
      if (!(value & RXOUTI) && ep.rxouti) { ep.rxouti = false; ep.rx = null; }
    } else if (ep.isIn) {
      // Only a FIFOCON clear hands a bank over; a TXINI clear alone sends nothing.
      if (!(value & FIFOCON) && ep.inFree()) {
        const packet = ep.inBuf;
        ep.inBuf = [];
        if (ep.n === CDC_TX && packet.length) {
          ep.inFlight.push(packet);
          this.takeBanks();
        }
      }
    } else {
      if (!(value & RXOUTI)) ep.rxouti = false;
      if (!(value & FIFOCON) && ep.packets.length) {
        ep.packets.shift();
        if (ep.packets.length) ep.rxouti = true;
        this.pumpOut();
      }
    }
    this.updateIrqs();
  }

  /** The host takes EP3's waiting banks, unless it is not reading, the bus is idle or the endpoint stalls. */
  takeBanks() {
    const ep = this.eps[CDC_TX];
    if (!this.reading || !this.attached || this.suspended || ep.stalled || this.transfer?.holdsPipes) return;
    let took = false;
    while (ep.inFlight.length) {
      const packet = ep.inFlight.shift();
      // The packet goes out with the device's toggle; the host keeps it only if that is the one it expects.
      if (ep.toggle === this.hostToggles[CDC_TX]) {
        this.hostToggles[CDC_TX] ^= 1;
        this.onSerial(packet);
      } else {
        this.lost++;
        this.violation(`EP${CDC_TX}: a ${packet.length}-byte packet dropped by the host (data toggle out of step)`);
      }
      ep.toggle ^= 1;
      took = true;
    }
    if (took) this.updateIrqs();
  }

  updateIrqs() {
    const { cpu } = this;
    if (this.udint & cpu.data[R.UDIEN] & UDINT_IRQ_BITS) cpu.queueInterrupt(this.gen);
    else cpu.clearInterrupt(this.gen, false);
    let com = false;
    for (const ep of this.eps) {
      if (ep.ueienx && ep.ueintx() & ep.ueienx & UEINTX_IRQ_BITS) { com = true; break; }
    }
    if (com) cpu.queueInterrupt(this.com);
    else cpu.clearInterrupt(this.com, false);
  }

  checkAttach() {
    const { data } = this.cpu;
    const on = (data[R.USBCON] & (USBE | FRZCLK)) === USBE && !(data[R.UDCON] & DETACH) && this.pllLocked()
      && this.vbus;
    if (on && !this.attached) {
      this.attached = true;
      this.attachedAt = this.cpu.cycles;
      this.cpu.addClockEvent(this.resetEnd, ATTACH_TO_RESET_END);
    } else if (!on && this.attached) {
      this.disconnect();
    }
  }

  /** End of a bus reset: EP1-6 disabled (their toggles back to DATA0), EP0 emptied, address 0, EORSTI. */
  busResetEnd() {
    for (const ep of this.eps) {
      if (ep.n) { ep.ueconx = 0; ep.cfg0 = 0; ep.cfg1 = 0; ep.ueienx = 0; ep.allocated = false; ep.toggle = 0; }
      ep.flush();
    }
    this.cpu.data[R.UDADDR] = 0;
    this.address = 0;
    this.hostToggles.fill(0);
    this.udint |= EORSTI;
    this.updateIrqs();
    this.cpu.addClockEvent(this.sof, CYCLES_PER_MS);
    this.script = [...SCRIPTS[this.scriptName]];
    this.schedulePoll();
  }

  startOfFrame() {
    const { data } = this.cpu;
    this.frame = (this.frame + 1) & 0x7ff;
    data[R.UDFNUML] = this.frame & 0xff;
    data[R.UDFNUMH] = this.frame >> 8;
    this.udint |= SOFI;
    this.updateIrqs();
    this.cpu.addClockEvent(this.sof, CYCLES_PER_MS);
  }

  /** 3 ms without a SOF or any traffic: the controller calls it a suspend. */
  suspendDetected() {
    this.udint |= SUSPI;
    this.updateIrqs();
  }

  schedulePoll() {
    if (!this.polling) {
      this.polling = true;
      this.cpu.addClockEvent(this.poll, POLL_CYCLES);
    }
  }

  /** One step of the host's control-transfer state machine. */
  hostPoll() {
    this.polling = false;
    if (this.suspended) return;
    if (!this.transfer && this.script.length) this.startTransfer();
    if (this.transfer) this.stepTransfer();
    if (this.transfer || this.script.length) this.schedulePoll();
    else this.pumpOut();
  }

  startTransfer() {
    const ep0 = this.eps[0];
    if (!ep0.ready || this.cpu.cycles < this.addressAt) return;
    const req = this.script.shift();
    const udaddr = this.cpu.data[R.UDADDR];
    const deviceAddress = udaddr & ADDEN ? udaddr & 0x7f : 0;
    if (deviceAddress !== this.address) {
      // Nothing answers the SETUP at the address the host uses.
      this.log.push({ name: req.name, status: 'no answer', data: [], cycle: this.cpu.cycles });
      return;
    }
    const [type, request, value, , , , lenLo, lenHi] = req.setup;
    const length = lenLo | (lenHi << 8);
    // What resets the host's data toggles: it uses no bulk pipe until the request is through.
    const holdsPipes = (type === 0x00 && request === 9) || (type === 0x01 && request === 11)
      || (type === 0x02 && request === 1 && value === 0);
    this.transfer = {
      req, length, toHost: (type & 0x80) !== 0, stage: 'setup', data: [], holdsPipes,
      deadline: this.cpu.cycles + TRANSFER_TIMEOUT,
    };
    // A SETUP is always accepted and discards whatever the bank held.
    ep0.flush();
    ep0.ueconx &= ~STALLRQ;
    ep0.rx = { bytes: req.setup, pos: 0 };
    ep0.rxstpi = true;
    this.updateIrqs();
  }

  stepTransfer() {
    const t = this.transfer;
    const ep0 = this.eps[0];
    if (ep0.ueconx & STALLRQ) {
      ep0.stalledi = true;
      this.updateIrqs();
      return this.finish('stall');
    }
    if (this.cpu.cycles > t.deadline) return this.finish('timeout');
    if (t.stage === 'setup') {
      if (ep0.rxstpi) return;
      t.stage = t.length === 0 ? 'status-in' : t.toHost ? 'data-in' : 'data-out';
    }
    if (t.stage === 'data-in') {
      if (ep0.inPending === null) return;
      const packet = ep0.inPending;
      ep0.inPending = null;
      t.data.push(...packet);
      if (t.data.length > t.length) return this.finish('overflow'); // more than wLength: babble
      if (packet.length < 64 || t.data.length === t.length) {
        // Status stage: a zero-length OUT packet, left for the next SETUP to clear.
        ep0.rx = { bytes: [], pos: 0 };
        ep0.rxouti = true;
        this.updateIrqs();
        return this.finish('ok');
      }
      this.updateIrqs();
      return;
    }
    if (t.stage === 'data-out') {
      if (ep0.rxstpi || ep0.rxouti) return;
      ep0.rx = { bytes: t.req.data.slice(0, 64), pos: 0 };
      ep0.rxouti = true;
      t.stage = 'data-out-wait';
      this.updateIrqs();
      return;
    }
    if (t.stage === 'data-out-wait') {
      if (ep0.rxouti) return;
      t.stage = 'status-in';
    }
    if (t.stage === 'status-in') {
      if (ep0.inPending === null) return;
      const udaddr = this.cpu.data[R.UDADDR];
      if (udaddr & ADDEN && (udaddr & 0x7f) !== this.address) {
        // The device moved to its new address before the status stage: the host's IN at the old one goes unanswered.
        return;
      }
      const packet = ep0.inPending;
      ep0.inPending = null;
      this.updateIrqs();
      this.finish(packet.length ? 'overflow' : 'ok');
    }
  }

  finish(status) {
    const { req, data, holdsPipes } = this.transfer;
    this.transfer = null;
    this.log.push({ name: req.name, status, data, cycle: this.cpu.cycles });
    if (status === 'ok') this.done(req.setup);
    if (holdsPipes) this.takeBanks();
  }

  /** The host's side of a request the device has completed. */
  done(setup) {
    const [type, request, valueLo, valueHi, indexLo] = setup;
    const value = valueLo | (valueHi << 8);
    if (type === 0x00 && request === 5) {
      this.address = value & 0x7f;
      this.addressAt = this.cpu.cycles + SET_ADDRESS_RECOVERY;
    }
    if (type === 0x00 && request === 9) {
      this.configured = value !== 0;
      this.hostToggles.fill(0);
    }
    if (type === 0x02 && request === 1 && value === 0) this.hostToggles[indexLo & 7] = 0; // CLEAR_FEATURE(ENDPOINT_HALT)
    if (type === 0x01 && request === 11) { // SET_INTERFACE: its endpoints (CDC: 0 has EP1, 1 has EP2 and EP3)
      if (indexLo === 0) this.hostToggles[1] = 0;
      else this.hostToggles.fill(0, 2, 4);
    }
    if (type === 0x21 && request === 0x22) {
      this.lineState = value;
      if (value && this.openedAt === null) this.openedAt = this.cpu.cycles;
    }
  }

  /** Queue a control transfer after the script: {name, setup: 8 bytes, data?: bytes for a host-to-device stage}. */
  control(req) {
    this.script.push(req);
    if (this.attached) this.schedulePoll();
  }

  /**
   * The cable and the bus: 'unplug' (VBUS goes, the host with it: nothing is
   * taken or sent, the controller sees an idle bus), 'plug' (VBUS back: the
   * host resets the bus and enumerates again), 'suspend' (the host stops the
   * bus: no SOF, no traffic), 'resume'; 'zlp' sends a zero-length packet to EP2.
   */
  hostAction(action) {
    const { cpu } = this;
    if (action === 'unplug') {
      this.vbus = false;
      this.disconnect();
      cpu.data[R.USBINT] |= VBUSTI;
      cpu.addClockEvent(this.idle, SUSPEND_DETECT);
    } else if (action === 'plug') {
      this.vbus = true;
      this.suspended = false;
      cpu.data[R.USBINT] |= VBUSTI;
      this.checkAttach();
    } else if (action === 'suspend') {
      if (!this.attached) throw new Error('suspend: no host on the bus');
      this.suspended = true;
      cpu.clearClockEvent(this.sof);
      cpu.addClockEvent(this.idle, SUSPEND_DETECT);
    } else if (action === 'resume') {
      if (!this.suspended) throw new Error('resume: the bus is not suspended');
      this.suspended = false;
      cpu.clearClockEvent(this.idle);
      this.udint |= WAKEUPI | EORSMI;
      this.updateIrqs();
      cpu.addClockEvent(this.sof, CYCLES_PER_MS);
      this.takeBanks();
      this.schedulePoll();
    } else if (action === 'zlp') {
      this.rxQueue.push(null);
      this.pumpOut();
    } else {
      throw new Error(`unknown USB host action ${JSON.stringify(action)}; expected unplug, plug, suspend, resume or zlp`);
    }
  }

  /** Whether the host takes the banks the firmware hands over on EP3; resuming takes the waiting ones. */
  setReading(on) {
    this.reading = on;
    this.takeBanks();
  }

  /** Host -> device bytes, delivered through EP2 as the firmware frees banks. */
  serialWrite(bytes) {
    for (const b of bytes) this.rxQueue.push(b & 0xff);
    this.pumpOut();
  }

  pumpOut() {
    // Only once enumeration is over: before that the endpoints may still be
    // reset by the firmware's configuration code (UERST), losing the bytes.
    if (!this.configured || this.transfer || this.script.length || this.suspended || !this.attached) return;
    const ep = this.eps[CDC_RX];
    if (!ep.ready || ep.control || ep.isIn || ep.stalled) return;
    let added = false;
    while (this.rxQueue.length && ep.packets.length < ep.banks) {
      // A queued null is a zero-length packet; otherwise up to a packet of bytes.
      const n = this.rxQueue[0] === null ? 1 : this.rxQueue.findIndex((b, i) => b === null || i >= ep.size);
      const bytes = this.rxQueue.splice(0, n < 0 ? this.rxQueue.length : n).filter((b) => b !== null);
      // The device keeps the packet only if its toggle is the one it expects; it ACKs it either way.
      if (ep.toggle === this.hostToggles[CDC_RX]) {
        ep.packets.push({ bytes, pos: 0 });
        ep.toggle ^= 1;
        if (ep.packets.length === 1) ep.rxouti = true;
        added = true;
      } else {
        this.lost++;
        this.violation(`EP${CDC_RX}: a ${bytes.length}-byte packet dropped by the device (data toggle out of step)`);
      }
      this.hostToggles[CDC_RX] ^= 1;
    }
    if (added) this.updateIrqs();
  }

  /** A summary for the harness's callers. */
  status() {
    return {
      attached: this.attached,
      attachedAt: this.attachedAt,
      configured: this.configured,
      lineState: this.lineState,
      openedAt: this.openedAt,
      frame: this.frame,
      vbus: this.vbus,
      suspended: this.suspended,
      pendingInput: this.rxQueue.length,
      reading: this.reading,
      unreadBanks: this.eps[CDC_TX].inFlight.length,
      lost: this.lost,
      violations: this.violations,
      transfers: this.log,
    };
  }
}
