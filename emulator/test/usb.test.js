// Unit tests of the USB controller's register semantics the Arduino core relies on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CPU } from 'avr8js';
import { usb as R } from '../src/atmega32u4.js';
import { USB } from '../src/usb.js';

function controller() {
  const cpu = new CPU(new Uint16Array(0x4000), 2560);
  const sent = [];
  const usb = new USB(cpu, { pllLocked: () => true, onSerial: (b) => sent.push(b), script: 'none' });
  const select = (n, cfg0, cfg1) => {
    cpu.writeData(R.UENUM, n);
    cpu.writeData(R.UECONX, 0x01);
    cpu.writeData(R.UECFG0X, cfg0);
    cpu.writeData(R.UECFG1X, cfg1);
  };
  return { cpu, usb, sent, select };
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
  const { cpu, sent, select } = controller();
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

test('EP2: bytes arrive in packets of at most 64, the next after FIFOCON is cleared', () => {
  const { cpu, usb, select } = controller();
  select(2, 0x80, 0x36);
  usb.configured = true;
  usb.serialWrite(new Uint8Array(200).fill(7));
  assert.equal(cpu.readData(R.UEBCLX), 64);
  assert.equal(usb.rxQueue.length, 72); // two banks full, the rest waits
  for (let i = 0; i < 64; i++) assert.equal(cpu.readData(R.UEDATX), 7);
  assert.equal(cpu.readData(R.UEBCLX), 0);
  cpu.writeData(R.UEINTX, 0x6b);
  assert.equal(cpu.readData(R.UEBCLX), 64);
  assert.equal(usb.rxQueue.length, 8);
  assert.equal(cpu.readData(R.UEINTX) & 0x84, 0x84); // FIFOCON, RXOUTI
});
