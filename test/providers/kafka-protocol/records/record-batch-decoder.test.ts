import { gzipSync } from "node:zlib";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { crc32c, CorruptRecordError, encodeRecordBatch, encodeRecordBatches, FetchedRecords, type ConsumedRecord, type ProducerRecord } from "../../../../providers/kafka-protocol";

const text = (value: string) => Buffer.from(value);

/** A batch as a broker stores it: the encoder's bytes with the base offset the log gave them. */
function storedBatch(records: ProducerRecord[], baseOffset: number): Buffer {
  const batch = Buffer.from(encodeRecordBatch(records));
  batch.writeBigInt64BE(BigInt(baseOffset), 0);
  return batch;
}

/** Rewrites a batch's attributes (and its CRC, which covers them). */
function withAttributes(batch: Buffer, attributes: number): Buffer {
  const copy = Buffer.from(batch);
  copy.writeInt16BE(attributes, 21);
  copy.writeUInt32BE(crc32c(copy.subarray(21)), 17);
  return copy;
}

/** The same batch with its records gzip-compressed, as a gzip producer writes it. */
function gzipped(batch: Buffer): Buffer {
  const compressed = gzipSync(batch.subarray(61));
  const copy = Buffer.concat([batch.subarray(0, 61), compressed]);
  copy.writeInt32BE(copy.length - 12, 8);
  return withAttributes(copy, 1);
}

function readAll(records: FetchedRecords): ConsumedRecord[] {
  const read: ConsumedRecord[] = [];
  for (let record = records.read(); record !== undefined; record = records.read()) read.push(record);
  return read;
}

const shape = (record: ConsumedRecord) => ({
  offset: record.offset,
  timestamp: record.timestamp,
  key: record.key?.toString() ?? null,
  value: record.value?.toString() ?? null,
  headers: record.headers === undefined ? undefined : Object.fromEntries(Object.entries(record.headers).map(([name, value]) => [name, value?.toString() ?? null])),
});

const FIRST: ProducerRecord[] = [
  { key: text("a"), value: text("one"), timestamp: 1_700_000_000_000 },
  { key: null, value: text("no key"), timestamp: 1_700_000_000_005 },
  { key: text("tombstone"), value: null, timestamp: 1_699_999_999_990 },
  { key: text("h"), value: text("x".repeat(300)), timestamp: 1_700_000_000_007, headers: { origin: "0.1@in:4", "ünï": text("çø") } },
];
const SECOND: ProducerRecord[] = [
  { key: text("b"), value: text("two"), timestamp: 1_700_000_001_000 },
  { key: text("c"), value: text("three"), timestamp: 1_700_000_001_001 },
];

test("records of consecutive batches read back with their offsets, timestamps, keys, values and headers", () => {
  const records = new FetchedRecords(Buffer.concat([storedBatch(FIRST, 2 ** 40), storedBatch(SECOND, 2 ** 40 + 4)]), 0, "topic t partition 0");
  assert.is(records.nextOffset, 2 ** 40 + 6);
  assert.equal(readAll(records).map(shape), [
    { offset: 2 ** 40, timestamp: 1_700_000_000_000, key: "a", value: "one", headers: undefined },
    { offset: 2 ** 40 + 1, timestamp: 1_700_000_000_005, key: null, value: "no key", headers: undefined },
    { offset: 2 ** 40 + 2, timestamp: 1_699_999_999_990, key: "tombstone", value: null, headers: undefined },
    { offset: 2 ** 40 + 3, timestamp: 1_700_000_000_007, key: "h", value: "x".repeat(300), headers: { origin: "0.1@in:4", "ünï": "çø" } },
    { offset: 2 ** 40 + 4, timestamp: 1_700_000_001_000, key: "b", value: "two", headers: undefined },
    { offset: 2 ** 40 + 5, timestamp: 1_700_000_001_001, key: "c", value: "three", headers: undefined },
  ]);
  assert.is(records.read(), undefined);
});

test("keys and values are ranges of the bytes they were read from, null ones of size -1, in plain and gzip batches", () => {
  for (const set of [storedBatch(FIRST, 0), gzipped(storedBatch(FIRST, 0))]) {
    const ranges = readAll(new FetchedRecords(set, 0, "t-0")).map((record) => [
      record.keySize < 0 ? null : record.bytes.toString("utf8", record.keyStart, record.keyStart + record.keySize),
      record.valueSize < 0 ? null : record.bytes.toString("utf8", record.valueStart, record.valueStart + record.valueSize),
      record.keySize,
      record.valueSize,
    ]);
    assert.equal(ranges, [
      ["a", "one", 1, 3],
      [null, "no key", -1, 6],
      ["tombstone", null, 9, -1],
      ["h", "x".repeat(300), 1, 300],
    ]);
  }
});

test("header names that change from record to record are each read as they are", () => {
  const headed: ProducerRecord[] = [
    { key: null, value: text("1"), timestamp: 1, headers: { origin: "a", trace: "t1" } },
    { key: null, value: text("2"), timestamp: 2, headers: { origin: "b" } },
    { key: null, value: text("3"), timestamp: 3, headers: { origiN: "c", origin: "d" } },
    { key: null, value: text("4"), timestamp: 4, headers: { trace: "t4", origin: "e" } },
  ];
  assert.equal(readAll(new FetchedRecords(storedBatch(headed, 0), 0, "t-0")).map((record) => shape(record).headers), [
    { origin: "a", trace: "t1" },
    { origin: "b" },
    { origiN: "c", origin: "d" },
    { trace: "t4", origin: "e" },
  ]);
});

test("one header's value is found in place, without decoding the others; absent, none is", () => {
  const headed: ProducerRecord[] = [
    { key: text("k"), value: text("1"), timestamp: 1, headers: { trace: "t1", origin: "12.0@in:3" } },
    { key: null, value: null, timestamp: 2, headers: { origin: "7.1@in:0" } },
    { key: null, value: text("x".repeat(300)), timestamp: 3, headers: { origiN: "c", origins: "d", trace: "e" } },
    { key: null, value: text("4"), timestamp: 4 },
  ];
  const name = text("origin");
  const range = { start: -1, end: -1 };
  const found = readAll(new FetchedRecords(storedBatch(headed, 0), 0, "t-0")).map((record) =>
    record.headerValueRange(name, range) ? record.bytes.toString("utf8", range.start, range.end) : null,
  );
  assert.equal(found, ["12.0@in:3", "7.1@in:0", null, null]);
});

test("records before the fetch offset are skipped, within a batch and whole batches", () => {
  const set = Buffer.concat([storedBatch(FIRST, 10), storedBatch(SECOND, 14)]);
  assert.equal(readAll(new FetchedRecords(set, 12, "t-0")).map((record) => record.offset), [12, 13, 14, 15]);
  assert.equal(readAll(new FetchedRecords(set, 15, "t-0")).map((record) => record.offset), [15]);
  const past = new FetchedRecords(set, 16, "t-0");
  assert.equal(readAll(past), []);
  assert.is(past.nextOffset, 16);
});

test("a trailing partial batch is left for the next fetch, and a set with no whole batch has no next offset", () => {
  const whole = storedBatch(FIRST, 0);
  const cut = storedBatch(SECOND, 4).subarray(0, 40);
  const records = new FetchedRecords(Buffer.concat([whole, cut]), 0, "t-0");
  assert.is(records.nextOffset, 4);
  assert.is(readAll(records).length, 4);
  assert.is(new FetchedRecords(cut, 4, "t-0").nextOffset, -1);
  assert.is(new FetchedRecords(Buffer.alloc(0), 0, "t-0").nextOffset, -1);
});

test("gzip batches are read; control batches are skipped but still move the next offset", () => {
  const control = withAttributes(storedBatch([{ key: text("\u0000\u0000\u0000\u0000"), value: text("marker"), timestamp: 1 }], 4), 0x20);
  const records = new FetchedRecords(Buffer.concat([gzipped(storedBatch(FIRST, 0)), control, storedBatch(SECOND, 5)]), 0, "t-0");
  assert.is(records.nextOffset, 7);
  assert.equal(readAll(records).map((record) => [record.offset, record.value?.toString() ?? null]), [
    [0, "one"],
    [1, "no key"],
    [2, null],
    [3, "x".repeat(300)],
    [5, "two"],
    [6, "three"],
  ]);
});

test("a batch stamped with log-append time gives every record the batch's max timestamp", () => {
  const batch = withAttributes(storedBatch(SECOND, 0), 0x08);
  batch.writeBigInt64BE(1_800_000_000_000n, 35);
  batch.writeUInt32BE(crc32c(batch.subarray(21)), 17);
  assert.equal(readAll(new FetchedRecords(batch, 0, "t-0")).map((record) => record.timestamp), [1_800_000_000_000, 1_800_000_000_000]);
});

test("corrupt bytes, other magics and unreadable codecs fail with an error naming the partition and offset", () => {
  const flipped = storedBatch(FIRST, 30);
  flipped[100] ^= 0xff;
  assert.throws(() => new FetchedRecords(flipped, 0, "topic t partition 3"), (error: Error) => error instanceof CorruptRecordError && /topic t partition 3: batch at offset 30 fails its CRC-32C check/.test(error.message));

  const magic1 = storedBatch(FIRST, 0);
  magic1[16] = 1;
  assert.throws(() => new FetchedRecords(magic1, 0, "t-0"), /magic 1; only magic 2/);

  // Marked snappy, but its records are not snappy data; codec 5 does not exist.
  const snappy = new FetchedRecords(withAttributes(storedBatch(FIRST, 8), 2), 0, "topic t partition 1");
  assert.throws(() => snappy.read(), /topic t partition 1: batch at offset 8 \(snappy\) cannot be decompressed/);
  const unknown = new FetchedRecords(withAttributes(storedBatch(FIRST, 8), 5), 0, "topic t partition 1");
  assert.throws(() => unknown.read(), /topic t partition 1: batch at offset 8 \(codec 5\) cannot be decompressed: unknown compression codec 5/);

  const lying = storedBatch(SECOND, 0);
  lying[61] = 0x7e; // first record's length prefix: 63 bytes, more than it holds
  const fixed = withAttributes(lying, 0);
  assert.throws(() => readAll(new FetchedRecords(fixed, 0, "t-0")), (error: Error) => error instanceof CorruptRecordError && /batch at offset 0/.test(error.message));
});

test.run();

test("the producer id of each record's batch is known after reading it; -1 before the first read and for a producer without one", () => {
  const stamped = (records: ProducerRecord[], baseOffset: number, producerId: bigint) => {
    const batch = encodeRecordBatches(records, Number.POSITIVE_INFINITY, 0, { producerId, producerEpoch: 0, baseSequence: 0 })[0].bytes;
    batch.writeBigInt64BE(BigInt(baseOffset), 0);
    return batch;
  };
  const record = (value: string) => ({ key: null, value: text(value), timestamp: 1 });
  const recordSet = Buffer.concat([stamped([record("a"), record("b")], 0, 41n), storedBatch([record("c")], 2), stamped([record("d")], 3, 7n)]);
  const records = new FetchedRecords(recordSet, 0, "t-0");
  assert.is(records.producerId, -1n);
  const writers: string[] = [];
  for (let read = records.read(); read !== undefined; read = records.read()) writers.push(`${read.value}:${records.producerId}`);
  assert.equal(writers, ["a:41", "b:41", "c:-1", "d:7"]);
});
