/**
 * CRC-32C (Castagnoli), the checksum of Kafka record batches (magic 2), validated on every produced batch.
 * The native binding (@node-rs/crc32, ~2 GB/s) is an optional per-platform package: absent on platforms it
 * has no build for and under `npm install --omit=optional`. Then the portable JavaScript version serves,
 * some twenty times slower.
 */
import { crc32cSliceBy8 } from "./crc32c-slice-by-8";

type Crc32c = (data: Uint8Array, previous?: number) => number;

function loadNative(): Crc32c | null {
  try {
    const native = (require("@node-rs/crc32") as { crc32c: (input: Uint8Array, initialState?: number) => number }).crc32c;
    return (data, previous = 0) => native(data, previous) >>> 0;
  } catch {
    return null;
  }
}

const native = loadNative();

/** Which implementation `crc32c` is in this process. */
export const crc32cImplementation: "native" | "javascript" = native ? "native" : "javascript";

/** CRC-32C of `data`, continuing from `previous` (the CRC-32C of the bytes before it), unsigned. */
export const crc32c: Crc32c = native ?? crc32cSliceBy8;

/** CRC-32C of the chunks' bytes, back to back. */
export function crc32cOfChunks(chunks: readonly Uint8Array[]): number {
  let crc = 0;
  for (const chunk of chunks) crc = crc32c(chunk, crc);
  return crc;
}
