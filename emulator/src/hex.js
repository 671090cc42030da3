// Intel HEX -> flash image. Written here (not taken from avr8js's demo) so the
// harness reports bad files with a line number instead of silently loading junk.

/**
 * Parse Intel HEX text into a flash byte image (unprogrammed bytes = 0xFF).
 * @param {string} text
 * @param {number} size flash size in bytes
 * @returns {Uint8Array}
 */
export function parseHex(text, size) {
  const flash = new Uint8Array(size).fill(0xff);
  let base = 0;
  let records = 0;
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (!line) continue;
    const where = `line ${n + 1}`;
    if (line[0] !== ':' || line.length < 11 || line.length % 2 === 0 || /[^0-9a-fA-F]/.test(line.slice(1))) {
      throw new Error(`bad Intel HEX record at ${where}`);
    }
    const bytes = Buffer.from(line.slice(1), 'hex');
    const count = bytes[0];
    if (bytes.length !== count + 5) throw new Error(`bad record length at ${where}`);
    let sum = 0;
    for (const b of bytes) sum = (sum + b) & 0xff;
    if (sum !== 0) throw new Error(`bad checksum at ${where}`);
    const offset = (bytes[1] << 8) | bytes[2];
    const type = bytes[3];
    const data = bytes.subarray(4, 4 + count);
    if (type === 0x00) {
      const addr = base + offset;
      if (addr + count > size) throw new Error(`data beyond flash (0x${addr.toString(16)}) at ${where}`);
      flash.set(data, addr);
      records++;
    } else if (type === 0x01) {
      break;
    } else if (type === 0x02) {
      base = ((data[0] << 8) | data[1]) << 4;
    } else if (type === 0x04) {
      base = ((data[0] << 8) | data[1]) << 16;
    } // 0x03/0x05 (start address) carry nothing for an AVR image.
  }
  if (!records) throw new Error('no data records in the Intel HEX file');
  return flash;
}
