/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) in plain JavaScript, slice-by-8: eight 256-entry
 * tables let the main loop consume eight bytes per step. About 0.3 GB/s: the fallback where the native
 * binding is not installed.
 */

const POLYNOMIAL = 0x82f63b78;
const TABLE_SIZE = 256;

function buildTables(): Int32Array {
  const tables = new Int32Array(8 * TABLE_SIZE);
  for (let n = 0; n < TABLE_SIZE; n++) {
    let crc = n;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ POLYNOMIAL : crc >>> 1;
    tables[n] = crc;
  }
  for (let n = 0; n < TABLE_SIZE; n++) {
    let crc = tables[n];
    for (let slice = 1; slice < 8; slice++) {
      crc = tables[crc & 0xff] ^ (crc >>> 8);
      tables[slice * TABLE_SIZE + n] = crc;
    }
  }
  return tables;
}

const T = buildTables();

/** CRC-32C of `data`, continuing from `previous` (the CRC-32C of the bytes before it), unsigned. */
export function crc32cSliceBy8(data: Uint8Array, previous = 0): number {
  let crc = ~previous;
  let i = 0;
  const end = data.length;
  const fastEnd = end - (end & 7);
  while (i < fastEnd) {
    const lo = crc ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
    const hi = data[i + 4] | (data[i + 5] << 8) | (data[i + 6] << 16) | (data[i + 7] << 24);
    crc =
      T[7 * TABLE_SIZE + (lo & 0xff)] ^
      T[6 * TABLE_SIZE + ((lo >>> 8) & 0xff)] ^
      T[5 * TABLE_SIZE + ((lo >>> 16) & 0xff)] ^
      T[4 * TABLE_SIZE + (lo >>> 24)] ^
      T[3 * TABLE_SIZE + (hi & 0xff)] ^
      T[2 * TABLE_SIZE + ((hi >>> 8) & 0xff)] ^
      T[TABLE_SIZE + ((hi >>> 16) & 0xff)] ^
      T[hi >>> 24];
    i += 8;
  }
  while (i < end) crc = T[(crc ^ data[i++]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}
