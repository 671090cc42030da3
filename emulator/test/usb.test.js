// Unit tests of the USB controller's register semantics (what the Arduino core
// and the game's own device rely on) and of the host's strictness.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CPU } from 'avr8js';
import { usb as R } from '../src/atmega32u4.js';
import { USB } from '../src/usb.js';

const MS = 16000;

/** A controller on a CPU that runs no code: the tests play the firmware's part by hand. */
function controller({ host = false } = {}) {
  const cpu = new CPU(new Uint16Array(0x4000), 2560);
  const sent = [];
  const usb = new USB(cpu, { pllLocked: () => true, onSerial: (b) => sent.push(b), script: 'none' });
  const select = (n, cfg0, cfg1) => {
    cpu.writeData(R.UENUM, n);
    cpu.writeData(R.UECONX, 0x01);
    cpu.writeData(R.UECFG0X, cfg0);
    cpu.writeData(R.UECFG1X, cfg1);
  };
  if (host) { // a host on the bus that has configured the device
    usb.attached = true;
    usb.configured = true;
  }
  return { cpu, usb, sent, select };
}

/** Advance the clock, letting the host poll as it does every 200 cycles. */
function hostTime(cpu, usb, cycles) {
  for (let end = cpu.cycles + cycles; cpu.cycles < end;) {
    cpu.cycles += 200;
    usb.hostPoll();
  }
}

/** The firmware's side of a SETUP: its 8 bytes read, the bank freed (0xF3). */
function takeSetup(cpu) {
  assert.equal(cpu.readData(R.UEINTX) & 0x08, 0x08, 'a SETUP waits');
  const setup = Array.from({ length: 8 }, () => cpu.readData(R.UEDATX));
  cpu.writeData(R.UEINTX, 0xf3);
  return setup;
}

/** A host with EP0 ready at address 0, nothing sent yet. */
function attached() {
  const c = controller({ host: true });
  c.select(0, 0x00, 0x32);
  c.usb.configured = false;
  return c;
}

test('UDINT: writing 0 clears a flag, writing 1 does not set one; USB_GEN is a level', () => {
  const { cpu, usb } = controller();
  cpu.writeData(R.UDIEN, 0x0d);
  usb.udint = 0x04;
  usb.updateIrqs();
  assert.equal(cpu.nextInterrupt, R.genInterrupt);
  cpu.writeData(R.UDINT, 0xff);
  assert.equal(cpu.readData(R.UDINT), 0x04);
  cpu.writeData(R.UDINT, 0xfb);
  assert.equal(cpu.readData(R.UDINT), 0);
  assert.equal(cpu.nextInterrupt, -1);
});

test('EP0: 0xF2 after a SETUP sends nothing, the next 0xFE sends one empty packet', () => {
  const { cpu, usb, select } = controller();
  select(0, 0x00, 0x32);
  cpu.writeData(R.UEIENX, 0x08);
  const ep0 = usb.eps[0];
  ep0.rx = { bytes: [0, 9, 1, 0, 0, 0, 0, 0], pos: 0 };
  ep0.rxstpi = true;
  usb.updateIrqs();
  assert.equal(cpu.nextInterrupt, R.comInterrupt);
  assert.equal(cpu.readData(R.UEINTX) & 0x09, 0x08); // RXSTPI, no TXINI
  for (let i = 0; i < 8; i++) cpu.readData(R.UEDATX);
  cpu.writeData(R.UEINTX, 0xf2);
  assert.equal(ep0.inPending, null);
  assert.equal(cpu.readData(R.UEINTX) & 0x09, 0x01); // bank free: TXINI
  assert.equal(cpu.nextInterrupt, -1);
  cpu.writeData(R.UEINTX, 0xfe);
  assert.deepEqual(ep0.inPending, []);
  cpu.writeData(R.UEINTX, 0xfe); // TXINI already 0: nothing more
  assert.deepEqual(ep0.inPending, []);
  assert.equal(cpu.readData(R.UEINTX) & 0x01, 0);
});

test('EP3: only a FIFOCON clear hands a bank over; empty banks are not delivered', () => {
  const { cpu, sent, select } = controller({ host: true });
  select(3, 0x81, 0x36);
  cpu.writeData(R.UEDATX, 0x41);
  cpu.writeData(R.UEDATX, 0x42);
  assert.equal(cpu.readData(R.UEBCLX), 2);
  cpu.writeData(R.UEINTX, 0xfe); // TXINI clear alone
  assert.deepEqual(sent, []);
  cpu.writeData(R.UEINTX, 0x3a);
  assert.deepEqual(sent, [[0x41, 0x42]]);
  cpu.writeData(R.UEINTX, 0x3a);
  assert.equal(sent.length, 1);
  assert.equal(cpu.readData(R.UEINTX) & 0xa1, 0xa1); // FIFOCON, RWAL, TXINI
});

test('EP3: with both banks waiting for a host that does not read, RWAL drops and a byte written is a violation', () => {
  const { cpu, usb, sent, select } = controller({ host: true });
  usb.setReading(false);
  select(3, 0x81, 0x36);
  for (const b of [1, 2]) {
    cpu.writeData(R.UEDATX, b);
    cpu.writeData(R.UEINTX, 0x7e);
  }
  assert.equal(cpu.readData(R.UEINTX) & 0x20, 0); // no RWAL
  cpu.writeData(R.UEDATX, 3);
  assert.match(usb.violations[0].text, /no room/);
  usb.setReading(true);
  assert.deepEqual(sent, [[1], [2]]);
});

test('EP2: bytes arrive in packets of at most 64, the next after FIFOCON is cleared', () => {
  const { cpu, usb, select } = controller({ host: true });
  select(2, 0x80, 0x36);
  usb.serialWrite(new Uint8Array(200).fill(7));
  assert.equal(cpu.readData(R.UEBCLX), 64);
  assert.equal(usb.rxQueue.length, 72); // two banks full, the rest waits
  for (let i = 0; i < 64; i++) assert.equal(cpu.readData(R.UEDATX), 7);
  assert.equal(cpu.readData(R.UEBCLX), 0);
  cpu.readData(R.UEDATX);
  assert.match(usb.violations[0].text, /no byte/); // read past the packet
  cpu.writeData(R.UEINTX, 0x6b);
  assert.equal(cpu.readData(R.UEBCLX), 64);
  assert.equal(usb.rxQueue.length, 8);
  assert.equal(cpu.readData(R.UEINTX) & 0x84, 0x84); // FIFOCON, RXOUTI
});

test('EP2: a zero-length packet holds a bank (RXOUTI, FIFOCON, no byte) until FIFOCON is cleared', () => {
  const { cpu, usb, select } = controller({ host: true });
  select(2, 0x80, 0x36);
  usb.hostAction('zlp');
  usb.serialWrite([0x61]);
  assert.equal(cpu.readData(R.UEBCLX), 0);
  assert.equal(cpu.readData(R.UEINTX) & 0xa4, 0x84); // RXOUTI, FIFOCON, no RWAL
  cpu.writeData(R.UEINTX, 0x7b);
  assert.equal(cpu.readData(R.UEBCLX), 1);
  assert.equal(cpu.readData(R.UEDATX), 0x61);
});

test('data toggles: CLEAR_FEATURE(ENDPOINT_HALT) restarts the host at DATA0; a device that does not (RSTDT) loses a packet', () => {
  for (const rstdt of [true, false]) {
    const { cpu, usb, select } = controller({ host: true });
    select(2, 0x80, 0x36);
    usb.serialWrite([1]);
    cpu.readData(R.UEDATX);
    cpu.writeData(R.UEINTX, 0x7b); // DATA0 taken: both sides at DATA1
    usb.hostToggles[2] = 0; // what a host does after CLEAR_FEATURE(ENDPOINT_HALT) on 0x02
    if (rstdt) cpu.writeData(R.UECONX, 0x19); // the firmware's answer: STALLRQC | RSTDT | EPEN
    usb.serialWrite([2]);
    assert.equal(cpu.readData(R.UEBCLX), rstdt ? 1 : 0);
    assert.equal(usb.lost, rstdt ? 0 : 1);
  }
});

test('clearing EPEN resets an endpoint: its banks emptied, its toggle back to DATA0', () => {
  const { cpu, usb, sent, select } = controller({ host: true });
  select(3, 0x81, 0x36);
  cpu.writeData(R.UEDATX, 9);
  cpu.writeData(R.UEINTX, 0x7e); // DATA0 sent: the device at DATA1
  assert.equal(usb.eps[3].toggle, 1);
  cpu.writeData(R.UEDATX, 8); // a half-filled bank
  cpu.writeData(R.UECONX, 0);
  assert.equal(usb.eps[3].toggle, 0);
  assert.equal(usb.eps[3].inBuf.length, 0);
  usb.hostToggles[3] = 0; // as after SET_CONFIGURATION
  select(3, 0x81, 0x36);
  cpu.writeData(R.UEDATX, 7);
  cpu.writeData(R.UEINTX, 0x7e);
  assert.deepEqual(sent, [[9], [7]]);
  assert.equal(usb.lost, 0);
});

test('UDADDR: UADD and ADDEN written at once is a violation (datasheet 22.7); UADD, then ADDEN, is not', () => {
  const { cpu, usb } = controller();
  cpu.writeData(R.UDADDR, 5);
  cpu.writeData(R.UDADDR, 0x85);
  assert.deepEqual(usb.violations, []);
  cpu.writeData(R.UDADDR, 0);
  cpu.writeData(R.UDADDR, 0x86);
  assert.equal(usb.violations.length, 1);
});

test('SET_ADDRESS: the status stage at the old address, the new one 2 ms later; too early or too late fails', () => {
  const setAddress = { name: 'SET_ADDRESS', setup: [0, 5, 5, 0, 0, 0, 0, 0] };
  const getStatus = { name: 'GET_STATUS', setup: [0x80, 0, 0, 0, 0, 0, 2, 0] };
  for (const firmware of ['right', 'early', 'never']) {
    const { cpu, usb } = attached();
    usb.control(setAddress);
    usb.control(getStatus);
    hostTime(cpu, usb, 400);
    takeSetup(cpu);
    if (firmware === 'early') cpu.writeData(R.UDADDR, 5 | 0x80);
    else cpu.writeData(R.UDADDR, 5);
    cpu.writeData(R.UEINTX, 0xfe); // the status stage's zero-length packet
    hostTime(cpu, usb, 400);
    if (firmware === 'right') {
      assert.equal(cpu.readData(R.UEINTX) & 0x01, 0x01, 'the ZLP taken: TXINI again');
      cpu.writeData(R.UDADDR, cpu.readData(R.UDADDR) | 0x80);
    }
    hostTime(cpu, usb, 3 * MS);
    const [first, second] = usb.log;
    if (firmware === 'right') {
      assert.equal(first.status, 'ok');
      takeSetup(cpu); // GET_STATUS reached the device at its new address
      cpu.writeData(R.UEDATX, 0);
      cpu.writeData(R.UEDATX, 0);
      cpu.writeData(R.UEINTX, 0xfe);
      hostTime(cpu, usb, 400);
      assert.equal(usb.log[1].status, 'ok');
    } else if (firmware === 'early') {
      assert.equal(first, undefined); // the host still waits for its status stage...
      hostTime(cpu, usb, 50 * MS);
      assert.equal(usb.log[0].status, 'timeout'); // ...in vain
    } else {
      assert.equal(first.status, 'ok');
      assert.equal(second.status, 'no answer');
    }
  }
});

test('a control read longer than wLength fails (babble); a STALL fails the transfer', () => {
  const { cpu, usb } = attached();
  usb.control({ name: 'GET_CONFIGURATION', setup: [0x80, 8, 0, 0, 0, 0, 1, 0] });
  usb.control({ name: 'SET_DESCRIPTOR', setup: [0x00, 7, 0, 1, 0, 0, 0, 0] });
  hostTime(cpu, usb, 400);
  takeSetup(cpu);
  cpu.writeData(R.UEDATX, 1);
  cpu.writeData(R.UEDATX, 2);
  cpu.writeData(R.UEINTX, 0xfe);
  hostTime(cpu, usb, 400);
  takeSetup(cpu);
  cpu.writeData(R.UECONX, 0x21);
  hostTime(cpu, usb, 400);
  assert.deepEqual(usb.log.map((t) => t.status), ['overflow', 'stall']);
});

test('unplug: the host goes and the bus idles into a suspend (SUSPI); plug: attached again, a bus reset', () => {
  const { cpu, usb } = controller();
  cpu.writeData(R.USBCON, 0x90);
  cpu.writeData(R.UDCON, 0);
  assert.equal(usb.attached, false); // 'none': no VBUS
  usb.hostAction('plug');
  assert.equal(usb.attached, true);
  assert.equal(cpu.readData(R.USBSTA) & 1, 1);
  usb.hostAction('unplug');
  assert.equal(usb.attached, false);
  assert.equal(cpu.readData(R.USBSTA) & 1, 0);
  while (cpu.cycles < 4 * MS) {
    cpu.cycles += 100;
    cpu.tick();
  }
  assert.equal(cpu.readData(R.UDINT) & 0x01, 0x01);
  usb.hostAction('plug');
  while (cpu.cycles < 7 * MS) {
    cpu.cycles += 100;
    cpu.tick();
  }
  assert.equal(cpu.readData(R.UDINT) & 0x08, 0x08); // EORSTI
});
