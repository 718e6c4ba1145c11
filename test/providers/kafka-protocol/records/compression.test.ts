/** Record batches in every Kafka codec: written by Sluice's encoder and read back by its decoder, byte formats included. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compressSync as snappyBlock } from "snappy";
import { codecsReady, COMPRESSION_TYPES, codecId, FetchedRecords, encodeRecordBatches, BATCH_HEADER_SIZE, BatchField, crc32c } from "../../../../providers/kafka-protocol";

const records = Array.from({ length: 200 }, (_, i) => ({
  key: Buffer.from(`key-${i % 7}`),
  value: Buffer.from(`value ${i} `.repeat(5)),
  timestamp: 1_700_000_000_000 + i,
  headers: i % 3 === 0 ? { trace: `t-${i}` } : undefined,
}));

function decodeAll(batch: Buffer) {
  const fetched = new FetchedRecords(batch, 0, "test topic 0");
  const read = [];
  for (let record = fetched.read(); record !== undefined; record = fetched.read()) read.push(record);
  return read;
}

test("a batch written in each codec is marked with it, smaller than plain for these records, and read back exactly", async () => {
  await codecsReady();
  const plainSize = encodeRecordBatches(records, Infinity)[0].bytes.length;
  for (const type of COMPRESSION_TYPES) {
    const [batch] = encodeRecordBatches(records, Infinity, codecId(type));
    assert.is(batch.bytes.readInt16BE(BatchField.attributes) & 0x07, codecId(type), type);
    if (type !== "none") assert.ok(batch.bytes.length < plainSize / 2, `${type}: ${batch.bytes.length} of ${plainSize} bytes`);
    const read = decodeAll(batch.bytes);
    assert.equal(read.map((record) => [record.offset, record.key?.toString(), record.value?.toString(), record.timestamp, record.headers?.trace?.toString()]),
      records.map((record, i) => [i, record.key.toString(), record.value.toString(), record.timestamp, record.headers?.trace]), type);
  }
});

test("snappy in the xerial framing Java clients write is read too", async () => {
  const [plain] = encodeRecordBatches(records.slice(0, 20), Infinity);
  const section = plain.bytes.subarray(BATCH_HEADER_SIZE);
  // Two blocks, as a Java client splits a large batch: magic, version 1, compatible version 1, then length-prefixed blocks.
  const halves = [section.subarray(0, 100), section.subarray(100)].map((part) => snappyBlock(part) as Buffer);
  const header = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]);
  const framed = Buffer.concat([header, ...halves.flatMap((block) => [lengthOf(block), block])]);
  const batch = Buffer.concat([plain.bytes.subarray(0, BATCH_HEADER_SIZE), framed]);
  batch.writeInt32BE(batch.length - 12, BatchField.batchLength);
  batch.writeInt16BE(codecId("snappy"), BatchField.attributes);
  batch.writeUInt32BE(crc32c(batch.subarray(BatchField.attributes)), BatchField.crc);
  assert.equal(decodeAll(batch).map((record) => record.value?.toString()), records.slice(0, 20).map((record) => record.value.toString()));
});

function lengthOf(block: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(block.length);
  return length;
}

test.run();
