// Winbond W25Q128JV serial flash: the Arduboy FX's and Mini's 16 MB chip on
// the SPI bus, seen byte by byte (standard SPI, mode 0, one byte out for each
// byte in). What it follows, from the W25Q128JV datasheet:
//
// - 16 MiB: 65,536 pages of 256 B, 4 KB sectors, 32 KB and 64 KB blocks.
//   Erased bytes read 0xFF; programming only clears bits (1 -> 0), erasing
//   sets a whole sector or block back to 0xFF. Shipped erased.
// - /CS going low starts an instruction, its first byte the opcode; /CS
//   going high ends it. While deselected the chip ignores the bus. DO is not
//   driven while the chip takes in an opcode, an address or dummy bytes (the
//   harness reads an undriven line as 0xFF).
// - Addresses are 24 bits, most significant byte first.
// - 0x03 Read Data: the byte at the address, then the next ones for as long
//   as /CS stays low, across pages, sectors and the whole array (after the
//   last byte comes byte 0).
// - 0x0B Fast Read: the same after one dummy byte (8 clocks) past the address.
// - 0x9F JEDEC ID: EF (Winbond), 40 (memory type), 18 (capacity, 2^24 bytes);
//   the model drives nothing after them.
// - 0x05 / 0x35 Read Status Register 1 / 2, output continuously: each byte
//   is the register's value at that moment, so BUSY can be polled in one
//   instruction. SR1: bit 0 BUSY, bit 1 WEL (the protection bits stay 0).
//   SR2 is 0x02: QE set, as the W25Q128JV-IQ parts ship it.
// - 0xAB Release Power-down / Device ID: after three dummy bytes the device
//   ID 0x17, continuously. /CS high ends power-down; the chip takes
//   instructions again tRES1 = 3 us later.
// - 0xB9 Power-down: entered when /CS goes high; from then on every
//   instruction but 0xAB is ignored, the status reads too.
// - 0x06 Write Enable / 0x04 Write Disable: set / clear WEL (Write Enable
//   Latch) when /CS goes high.
// - 0x02 Page Program (WEL must be set): address, then data bytes into a page
//   buffer, the address wrapping inside its 256-byte page (past 256 bytes the
//   later bytes replace the earlier ones); the buffer is ANDed into the page
//   when /CS goes high after at least one whole data byte.
// - 0x20 / 0x52 / 0xD8 Sector Erase 4 KB / Block Erase 32 KB / 64 KB (WEL
//   must be set): the sector or block that holds the address.
// - 0xC7 / 0x60 Chip Erase (WEL must be set).
// - One-byte instructions (06, 04, B9, C7, 60) and the erases run only when
//   /CS goes high right after their last byte (no extra bytes).
// - Program and erase are self-timed from /CS going high: BUSY reads 1 for
//   tPP 0.4 ms, tSE 45 ms, tBE1 120 ms, tBE2 150 ms, tCE 40 s (the typical
//   figures), then BUSY and WEL read 0. While BUSY every instruction but the
//   status reads is ignored.
// - An instruction that is ignored, lacks WEL or is cut short changes nothing.
//
// Time is the CPU's cycle count (now()), so the busy times follow the
// emulated clock. The chip starts powered up and idle, as after its own
// power-on (a bootloader that powers it down is not modelled). Not modelled: the status register writes (0x01, 0x31,
// 0x11, 0x50) and the protection they set, suspend/resume, dual and quad
// I/O, the ID reads 0x90/0x4B/0x5A, the security registers, software reset
// (0x66, 0x99), tDP and the maximum times.

export const SIZE = 1 << 24;
const MASK = SIZE - 1;
const PAGE = 256;
const JEDEC_ID = [0xef, 0x40, 0x18];
const DEVICE_ID = 0x17;
const STATUS2 = 0x02;
const BUSY = 0x01;
const WEL = 0x02;
const IDLE = 0xff; // DO not driven
const RELEASE_US = 3; // tRES1

/** Erase instructions: bytes erased and the typical time in microseconds. */
const ERASES = {
  0x20: { bytes: 4096, us: 45_000 },
  0x52: { bytes: 32 * 1024, us: 120_000 },
  0xd8: { bytes: 64 * 1024, us: 150_000 },
};
const CHIP_ERASE_US = 40_000_000;
const PROGRAM_US = 400;
const ADDRESSED = new Set([0x03, 0x0b, 0x02, 0x20, 0x52, 0xd8]);

export class W25Q128 {
  /**
   * @param {() => number} now the CPU cycle count
   * @param {number} clockHz CPU cycles per second
   */
  constructor(now = () => 0, clockHz = 16_000_000) {
    this.memory = new Uint8Array(SIZE).fill(0xff);
    this.now = now;
    this.cyclesPerUs = clockHz / 1_000_000;
    this.selected = false;
    this.wel = false;
    this.cycleEnd = null; // cycle at which the program or erase under way ends
    this.poweredDown = false;
    this.readyAt = 0; // cycle from which instructions are taken after a release from power-down
    this.pageBuffer = new Uint8Array(PAGE);
    this.op = null;
    this.count = 0; // bytes of the current instruction, its opcode included
    this.address = 0;
    this.ignored = false;
  }

  /** BUSY: a program or erase is under way. When one ends, WEL clears with it. */
  get busy() {
    if (this.cycleEnd !== null && this.now() >= this.cycleEnd) {
      this.cycleEnd = null;
      this.wel = false;
    }
    return this.cycleEnd !== null;
  }

  get status1() {
    return (this.busy ? BUSY : 0) | (this.wel ? WEL : 0);
  }

  /** /CS low (true) or high (false); going high ends the instruction and runs it. */
  select(on) {
    if (on === this.selected) return;
    this.selected = on;
    if (on) {
      this.op = null;
      this.count = 0;
    } else if (this.op !== null && !this.ignored) {
      this.finish();
    }
  }

  /** One byte in on DI; returns the byte the chip drives on DO meanwhile. */
  transfer(byte) {
    if (!this.selected) return IDLE;
    const n = this.count++;
    if (n === 0) {
      this.op = byte;
      this.ignored = !this.accepts(byte);
      if (byte === 0x02) this.pageBuffer.fill(0xff);
      return IDLE;
    }
    if (this.ignored) return IDLE;
    if (ADDRESSED.has(this.op) && n <= 3) {
      this.address = n === 1 ? byte << 16 : this.address | (byte << (8 * (3 - n)));
      return IDLE;
    }
    switch (this.op) {
      case 0x03: return this.memory[(this.address + n - 4) & MASK];
      case 0x0b: return n === 4 ? IDLE : this.memory[(this.address + n - 5) & MASK];
      case 0x02:
        this.pageBuffer[(this.address + n - 4) & (PAGE - 1)] = byte;
        return IDLE;
      case 0x9f: return n <= 3 ? JEDEC_ID[n - 1] : IDLE;
      case 0x05: return this.status1;
      case 0x35: return STATUS2;
      case 0xab: return n >= 4 ? DEVICE_ID : IDLE;
      default: return IDLE;
    }
  }

  /** Whether an instruction with this opcode is taken now. */
  accepts(op) {
    if (this.now() < this.readyAt) return false;
    if (this.poweredDown) return op === 0xab;
    if (this.busy) return op === 0x05 || op === 0x35;
    return true;
  }

  /** /CS went high: run what the instruction asked for, if it was complete. */
  finish() {
    const { op, count } = this;
    if (op === 0xab) {
      if (this.poweredDown) this.readyAt = this.now() + RELEASE_US * this.cyclesPerUs;
      this.poweredDown = false;
    } else if (count === 1 && op === 0x06) {
      this.wel = true;
    } else if (count === 1 && op === 0x04) {
      this.wel = false;
    } else if (count === 1 && op === 0xb9) {
      this.poweredDown = true;
    } else if (this.wel) {
      this.programOrErase(op, count);
    }
  }

  /** Page program, sector, block or chip erase (WEL set): the memory changes now, BUSY for its time. */
  programOrErase(op, count) {
    if (op === 0x02 && count > 4) {
      const base = this.address & ~(PAGE - 1);
      for (let i = 0; i < PAGE; i++) this.memory[base + i] &= this.pageBuffer[i];
      this.startCycle(PROGRAM_US);
    } else if (ERASES[op] && count === 4) {
      const { bytes, us } = ERASES[op];
      const base = this.address & ~(bytes - 1);
      this.memory.fill(0xff, base, base + bytes);
      this.startCycle(us);
    } else if ((op === 0xc7 || op === 0x60) && count === 1) {
      this.memory.fill(0xff);
      this.startCycle(CHIP_ERASE_US);
    }
  }

  startCycle(us) {
    this.cycleEnd = this.now() + us * this.cyclesPerUs;
  }

  /** `length` bytes of the memory from `address`, as they are (no instruction). */
  read(address, length) {
    this.check(address, length);
    return this.memory.slice(address, address + length);
  }

  /** Put `bytes` into the memory at `address` as they are (no programming rule): images and tests. */
  write(address, bytes) {
    this.check(address, bytes.length);
    this.memory.set(bytes, address);
  }

  check(address, length) {
    if (!Number.isSafeInteger(address) || !Number.isSafeInteger(length) || address < 0 || length < 0
        || address + length > SIZE) {
      throw new Error(`${length} bytes at ${address} do not fit in the flash chip's ${SIZE} bytes (addresses 0-${MASK})`);
    }
  }
}
