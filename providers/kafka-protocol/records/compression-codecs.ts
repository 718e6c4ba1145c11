/**
 * The record batch compression codecs of Kafka (the batch attributes' low three bits): none, gzip, snappy, lz4 and
 * zstd, both ways.
 * - snappy: Java clients write the xerial framing (a magic header, then length-prefixed blocks), librdkafka writes a
 *   plain block; both are read. Sluice writes a plain block, which every client reads.
 * - lz4: the LZ4 frame format.
 * - zstd: a WebAssembly build that ships inside its npm package (Node 20's zlib has no zstd, and the native packages
 *   fetch their binaries at install). Its module loads asynchronously: `codecsReady()` resolves once it is usable,
 *   and the fetcher and the producer wait for it before their first use.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import * as zstd from "@bokuweb/zstd-wasm";
import { compressFrameSync, decompressFrameSync } from "lz4-napi";
import { compressSync as snappyCompress, uncompressSync as snappyUncompress } from "snappy";

export const COMPRESSION_TYPES = ["none", "gzip", "snappy", "lz4", "zstd"] as const;
export type CompressionType = (typeof COMPRESSION_TYPES)[number];

/** The codec id a batch's attributes carry. */
export function codecId(type: CompressionType): number {
  return COMPRESSION_TYPES.indexOf(type);
}

export function codecName(id: number): string {
  return COMPRESSION_TYPES[id] ?? `codec ${id}`;
}

const ZSTD_LEVEL = 3;
let zstdLoaded = false;
let zstdFailure: unknown;
const zstdLoading = zstd.init().then(
  () => void (zstdLoaded = true),
  (error: unknown) => void (zstdFailure = error),
);

/** Resolves once every codec can be used. */
export function codecsReady(): Promise<void> {
  return zstdLoading;
}

// "\x82SNAPPY\0": the xerial framing's magic, followed by a version and a compatible version (int32 each).
const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_SIZE = 16;

function snappyDecompress(data: Buffer): Buffer {
  if (data.length < XERIAL_HEADER_SIZE || !data.subarray(0, XERIAL_MAGIC.length).equals(XERIAL_MAGIC)) return snappyUncompress(data) as Buffer;
  const blocks: Buffer[] = [];
  for (let position = XERIAL_HEADER_SIZE; position < data.length; ) {
    const size = data.readInt32BE(position);
    position += 4;
    if (size < 0 || position + size > data.length) throw new Error("a snappy block runs past the end of its batch");
    blocks.push(snappyUncompress(data.subarray(position, position + size)) as Buffer);
    position += size;
  }
  return blocks.length === 1 ? blocks[0] : Buffer.concat(blocks);
}

function requireZstd(): void {
  if (zstdFailure !== undefined) throw new Error(`the zstd codec could not be loaded: ${String(zstdFailure)}`);
  if (!zstdLoaded) throw new Error("the zstd codec is still loading (await codecsReady() first)");
}

/** The records section of a batch compressed with codec `id`, uncompressed. */
export function decompress(id: number, data: Buffer): Buffer {
  switch (id) {
    case 1:
      return gunzipSync(data);
    case 2:
      return snappyDecompress(data);
    case 3:
      return decompressFrameSync(data);
    case 4:
      requireZstd();
      return Buffer.from(zstd.decompress(data));
    default:
      throw new Error(`unknown compression codec ${id}`);
  }
}

/** `data` compressed with codec `id` (not 0). */
export function compress(id: number, data: Buffer): Buffer {
  switch (id) {
    case 1:
      return gzipSync(data);
    case 2:
      return snappyCompress(data) as Buffer;
    case 3:
      return compressFrameSync(data);
    case 4:
      requireZstd();
      return Buffer.from(zstd.compress(data, ZSTD_LEVEL));
    default:
      throw new Error(`unknown compression codec ${id}`);
  }
}
