import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ChunkedBytes } from "../../../../providers/kafka-protocol/chunked-bytes";
import {
  compressionCodec,
  encodeRecordBatch,
  encodeRecordBatches,
  finishBatches,
  type ProducerRecord,
  readBatchHeader,
  RecordBatchAppender,
  validateBatch,
} from "../../../../providers/kafka-protocol";
import { recordsOf } from "../../../helpers/record-batches";

const test = suite("kafka client: record batch encoder");

const record = (value: string, timestamp: number, key: string | null = "k"): ProducerRecord => ({
  key: key === null ? null : Buffer.from(key),
  value: Buffer.from(value),
  timestamp,
});

test("the header carries count, offsets, base and max timestamps, no producer, and a CRC the broker accepts", () => {
  const batch = encodeRecordBatch([record("a", 1_000), record("b", 1_007), record("c", 1_003, null), { key: null, value: null, timestamp: 990 }]);
  const header = validateBatch(ChunkedBytes.of(batch));
  assert.is(header.baseOffset, 0n);
  assert.is(header.batchLength, batch.length - 12);
  assert.is(header.partitionLeaderEpoch, -1);
  assert.is(header.magic, 2);
  assert.is(header.attributes, 0);
  assert.is(compressionCodec(header), 0);
  assert.is(header.lastOffsetDelta, 3);
  assert.is(header.recordCount, 4);
  assert.is(header.baseTimestamp, 1_000n);
  assert.is(header.maxTimestamp, 1_007n);
  assert.is(header.producerId, -1n);
  assert.is(header.producerEpoch, -1);
  assert.is(header.baseSequence, -1);
});

test("a record is laid out as length, attributes, zig-zag varint deltas, key, value and headers", () => {
  const batch = encodeRecordBatch([
    record("x", 5_000),
    { key: null, value: Buffer.from("yz"), timestamp: 4_999, headers: { h: "v", b: Buffer.from([0xff]) } },
  ]);
  const records = [...batch.subarray(61)];
  // length 8 (zig-zag 16), attributes, timestamp delta 0, offset delta 0, key "k", value "x", no headers
  assert.equal(records.slice(0, 9), [16, 0, 0, 0, 2, 0x6b, 2, 0x78, 0]);
  // length 16 (32), attributes, timestamp delta -1 (1), offset delta 1 (2), null key (-1 → 1), value "yz",
  // two headers: "h" = "v", "b" = 0xff
  assert.equal(records.slice(9), [32, 0, 1, 2, 1, 4, 0x79, 0x7a, 4, 2, 0x68, 2, 0x76, 2, 0x62, 2, 0xff]);
});

test("timestamp deltas beyond 32 bits are written as varlongs the broker still accepts", () => {
  const batch = encodeRecordBatch([record("old", 5), record("new", 1_700_000_000_000)]);
  const header = validateBatch(ChunkedBytes.of(batch));
  assert.is(header.baseTimestamp, 5n);
  assert.is(header.maxTimestamp, 1_700_000_000_000n);
  // The first record takes 11 bytes. The second: length, attributes, zig-zag(1_699_999_999_995) in 6 varint
  // bytes, then offset delta 1.
  const second = batch.subarray(61 + 11);
  assert.is(second[1], 0);
  assert.is(second[2 + 5] & 0x80, 0);
  assert.ok(second.subarray(2, 2 + 5).every((byte) => (byte & 0x80) !== 0));
  assert.is(second[2 + 6], 2);
});

test("records beyond the batch bound are cut into consecutive batches, each within it and valid", () => {
  const value = "v".repeat(100_000);
  const records = Array.from({ length: 25 }, (_, i) => record(`${i}:${value}`, 1_000 + i));
  const batches = encodeRecordBatches(records, 1_000_000);
  assert.is(batches.length, 3);
  assert.equal(
    batches.map((batch) => batch.count),
    [9, 9, 7],
  );
  let first = 0;
  for (const { bytes, count } of batches) {
    assert.ok(bytes.length <= 1_000_000, `batch of ${bytes.length} bytes`);
    const header = validateBatch(ChunkedBytes.of(bytes));
    assert.is(header.recordCount, count);
    assert.is(header.baseTimestamp, BigInt(1_000 + first));
    first += count;
  }
});

test("a record larger than the bound gets a batch of its own; no records give no batches", () => {
  const batches = encodeRecordBatches([record("small", 1), record("x".repeat(2_000), 2), record("small", 3)], 1_000);
  assert.equal(
    batches.map((batch) => batch.count),
    [1, 1, 1],
  );
  assert.ok(readBatchHeader(batches[1].bytes).batchLength > 2_000);
  assert.equal(encodeRecordBatches([]), []);
});

test("a string key or value is written as its UTF-8: the same batches, cut at the same records, as with its Buffer", () => {
  const values = ["", "word", "an ASCII value longer than thirty-two characters", "ünï", "çø ".repeat(20), "lone \ud800 surrogate", "x".repeat(300)];
  const texts: ProducerRecord[] = values.map((value, i) => ({ key: i % 2 === 0 ? `k${i}` : values[values.length - 1 - i], value, timestamp: 1_000 + i }));
  const buffers = texts.map((text) => ({ ...text, key: Buffer.from(text.key as string, "utf8"), value: Buffer.from(text.value as string, "utf8") }));
  assert.equal(encodeRecordBatch(texts), encodeRecordBatch(buffers));
  const cut = encodeRecordBatches(texts, 400);
  assert.ok(cut.length > 1, `${cut.length} batches`);
  assert.equal(cut, encodeRecordBatches(buffers, 400));
});

test("records appended one at a time are read back exactly, however far their batches grew, each within the bound", () => {
  const records = Array.from({ length: 5_000 }, (_, i) => ({ key: `k${i % 100}`, value: `value ${i} `.repeat(1 + (i % 7)), timestamp: 1_000 + (i % 13) }));
  const appender = new RecordBatchAppender(50_000);
  for (const record of records) appender.append(record);
  assert.is(appender.appended, 5_000);
  const open = appender.take();
  assert.ok(open.length > 3, `${open.length} batches`);
  assert.equal(recordsOf(open), records);
  for (const { bytes } of finishBatches(open)) assert.ok(bytes.length <= 50_000 && validateBatch(ChunkedBytes.of(bytes)).recordCount > 0);
  assert.is(appender.appended, 0);
  assert.equal(appender.take(), []);
});

test("each take holds the records appended since the last one, in a batch of its own base and max timestamps", () => {
  const appender = new RecordBatchAppender();
  appender.append({ key: "a", value: "1", timestamp: 50 });
  appender.append({ key: "b", value: "2", timestamp: 40 });
  const first = appender.take();
  appender.append({ key: "c", value: "3", timestamp: 30 });
  appender.append({ key: null, value: null, timestamp: 90, headers: { h: "v" } });
  const second = appender.take();
  assert.equal(
    [...first, ...second].map(({ count, baseTimestamp, maxTimestamp }) => [count, baseTimestamp, maxTimestamp]),
    [
      [2, 50, 50],
      [2, 30, 90],
    ],
  );
  assert.equal(recordsOf(first), [
    { key: "a", value: "1", timestamp: 50 },
    { key: "b", value: "2", timestamp: 40 },
  ]);
  assert.equal(recordsOf(second), [
    { key: "c", value: "3", timestamp: 30 },
    { key: null, value: null, timestamp: 90, headers: { h: "v" } },
  ]);
});

test("finishing stamps a producer's sequences batch after batch, and the CRC covers the stamp", () => {
  const appender = new RecordBatchAppender(200);
  for (let i = 0; i < 12; i++) appender.append({ key: "k", value: `a value of some length ${i}`, timestamp: i });
  const batches = finishBatches(appender.take(), 0, { producerId: 7n, producerEpoch: 2, baseSequence: 2 ** 31 - 3 });
  assert.ok(batches.length > 2, `${batches.length} batches`);
  let sequence = 2 ** 31 - 3;
  for (const { bytes, count } of batches) {
    const header = validateBatch(ChunkedBytes.of(bytes));
    assert.equal([header.producerId, header.producerEpoch, header.baseSequence], [7n, 2, sequence]);
    sequence = (sequence + count) % 2 ** 31;
  }
});

test.run();
