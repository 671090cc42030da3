// SSD1306 128x64 OLED fed from the SPI bus. DC (PD4) selects command or data,
// CS (PD6) must be low, RST (PD7) driven low resets the controller (an
// undriven RST counts as high, so firmware that never touches it still works). The display RAM
// is 8 pages x 128 columns, one byte = 8 vertical pixels, LSB on top.
// A frame is counted each time the write pointer wraps past the end of the
// addressing window (horizontal or vertical mode), i.e. once per full update.

const WIDTH = 128;
const PAGES = 8;
const DDRD = 0x2a;
const PORTD = 0x2b;
const DC = 1 << 4;
const CS = 1 << 6;
const RST = 1 << 7;

// Parameter byte counts of multi-byte commands.
const PARAMS = {
  0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0x81: 1, 0x8d: 1,
  0xa3: 2, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1,
};

export class SSD1306 {
  /** @param {import('avr8js').CPU} cpu */
  constructor(cpu) {
    this.cpu = cpu;
    this.ram = new Uint8Array(WIDTH * PAGES);
    this.frames = 0;
    this.onFrame = () => {};
    this.reset();
    this.wasInReset = false;
  }

  /** Power-on register values (datasheet section 8.9 and the command table). */
  reset() {
    this.mode = 2; // page addressing
    this.colStart = 0; this.colEnd = WIDTH - 1;
    this.pageStart = 0; this.pageEnd = PAGES - 1;
    this.col = 0; this.page = 0;
    this.on = false;
    this.invert = false;
    this.allOn = false;
    this.segRemap = false; // A0
    this.comReverse = false; // C0
    this.command = [];
  }

  /** Called for every byte the CPU shifts out over SPI. */
  spiByte(value) {
    const portd = this.cpu.data[PORTD];
    if (this.inReset()) return;
    if (portd & CS) return;
    if (portd & DC) this.data(value);
    else this.commandByte(value);
  }

  inReset() {
    const { data } = this.cpu;
    return (data[DDRD] & RST) !== 0 && (data[PORTD] & RST) === 0;
  }

  /** Called on every port D change: RST going low resets the controller. */
  portChanged() {
    const low = this.inReset();
    if (low && !this.wasInReset) this.reset();
    this.wasInReset = low;
  }

  commandByte(value) {
    const cmd = this.command;
    cmd.push(value);
    const need = PARAMS[cmd[0]] ?? 0;
    if (cmd.length <= need) return;
    this.command = [];
    const [op, a, b] = cmd;
    if (op === 0x20) this.mode = a & 3;
    else if (op === 0x21) { this.colStart = a & 0x7f; this.colEnd = b & 0x7f; this.col = this.colStart; }
    else if (op === 0x22) { this.pageStart = a & 7; this.pageEnd = b & 7; this.page = this.pageStart; }
    else if (op === 0xa0 || op === 0xa1) this.segRemap = op === 0xa1;
    else if (op === 0xa4 || op === 0xa5) this.allOn = op === 0xa5;
    else if (op === 0xa6 || op === 0xa7) this.invert = op === 0xa7;
    else if (op === 0xae || op === 0xaf) this.on = op === 0xaf;
    else if (op === 0xc0 || op === 0xc8) this.comReverse = op === 0xc8;
    else if (op >= 0xb0 && op <= 0xb7) this.page = op & 7; // page mode only
    else if (op <= 0x0f) this.col = (this.col & 0x70) | op;
    else if (op >= 0x10 && op <= 0x17) this.col = ((op & 7) << 4) | (this.col & 0x0f);
    // Everything else (contrast, charge pump, scrolling, timing, multiplex, start line) leaves the picture we model alone.
  }

  data(value) {
    this.ram[this.page * WIDTH + this.col] = value;
    if (this.mode === 0) {
      if (this.col < this.colEnd) this.col++;
      else {
        this.col = this.colStart;
        if (this.page < this.pageEnd) this.page++;
        else { this.page = this.pageStart; this.frameDone(); }
      }
    } else if (this.mode === 1) {
      if (this.page < this.pageEnd) this.page++;
      else {
        this.page = this.pageStart;
        if (this.col < this.colEnd) this.col++;
        else { this.col = this.colStart; this.frameDone(); }
      }
    } else {
      this.col = this.col < WIDTH - 1 ? this.col + 1 : 0; // page mode: wraps within the page
    }
  }

  frameDone() {
    this.frames++;
    this.onFrame(this.frames);
  }

  /**
   * The picture as seen on the Arduboy (whose panel is mounted so that A1 and
   * C8 give the upright image), in the same layout as the RAM: 1024 bytes,
   * page-major, LSB on top.
   */
  picture() {
    const out = new Uint8Array(WIDTH * PAGES);
    if (!this.on) return out;
    if (this.allOn) return out.fill(this.invert ? 0 : 0xff);
    for (let page = 0; page < PAGES; page++) {
      for (let col = 0; col < WIDTH; col++) {
        const srcCol = this.segRemap ? col : WIDTH - 1 - col;
        const srcPage = this.comReverse ? page : PAGES - 1 - page;
        let v = this.ram[srcPage * WIDTH + srcCol];
        if (!this.comReverse) v = reverseBits(v);
        out[page * WIDTH + col] = this.invert ? ~v & 0xff : v;
      }
    }
    return out;
  }
}

function reverseBits(v) {
  let r = 0;
  for (let i = 0; i < 8; i++) if (v & (1 << i)) r |= 0x80 >> i;
  return r;
}
