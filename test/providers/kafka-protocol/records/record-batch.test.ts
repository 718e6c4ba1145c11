import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ChunkedBytes } from "../../../../providers/kafka-protocol/chunked-bytes";
import { ApiError, ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { compressionCodec, readBatchHeader, splitBatches, validateBatch, encodeRecordBatch } from "../../../../providers/kafka-protocol";
import { batchOf } from "../../broker/storage/log-store-fixture";

const whole = (buffer: Buffer) => ChunkedBytes.of(buffer);

/** `buffer` cut into chunks at `cuts`, as a socket might deliver it. */
function cutAt(buffer: Buffer, ...cuts: number[]): ChunkedBytes {
  const edges = [0, ...cuts, buffer.length];
  return new ChunkedBytes(edges.slice(1).map((end, i) => buffer.subarray(edges[i], end)));
}

const test = suite("record batch v2");

function assertBrokerError(run: () => unknown, code: number): void {
  try {
    run();
  } catch (error) {
    assert.instance(error, ApiError);
    assert.is((error as ApiError).code, code, (error as Error).message);
    return;
  }
  assert.unreachable("expected a ApiError");
}

test("readBatchHeader reads every header field", () => {
  const batch = encodeRecordBatch([1000, 1007, 1003].map((timestamp) => ({ key: null, value: Buffer.from("v"), timestamp })));
  batch.writeBigInt64BE(42n, 0);
  const header = readBatchHeader(batch);
  assert.is(header.baseOffset, 42n);
  assert.is(header.batchLength, batch.length - 12);
  assert.is(header.magic, 2);
  assert.is(header.lastOffsetDelta, 2);
  assert.is(header.recordCount, 3);
  assert.is(header.baseTimestamp, 1000n);
  assert.is(header.maxTimestamp, 1007n);
  assert.is(header.producerId, -1n);
  assert.is(header.producerEpoch, -1);
  assert.is(header.baseSequence, -1);
  assert.is(compressionCodec(header), 0);
});

test("validateBatch accepts a well-formed batch", () => {
  assert.is(validateBatch(whole(batchOf(5))).recordCount, 5);
});

test("validateBatch reads a batch cut into chunks anywhere, its header too", () => {
  const batch = batchOf(4, "chunked", 100);
  for (const cuts of [[1], [17], [20, 21, 22], [30, 60], [61, 200], [batch.length - 1]]) {
    assert.is(validateBatch(cutAt(batch, ...cuts)).recordCount, 4, `cut at ${cuts.join(",")}`);
  }
  const corrupt = Buffer.from(batch);
  corrupt[corrupt.length - 1] ^= 0x01;
  assertBrokerError(() => validateBatch(cutAt(corrupt, 40, 300)), ErrorCode.CORRUPT_MESSAGE);
});

test("validateBatch rejects another magic as UNSUPPORTED_FOR_MESSAGE_FORMAT", () => {
  const oldFormat = batchOf(1);
  oldFormat[16] = 1; // magic
  assertBrokerError(() => validateBatch(whole(oldFormat)), ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT);
});

test("validateBatch rejects a flipped bit as CORRUPT_MESSAGE", () => {
  const batch = batchOf(3);
  batch[batch.length - 2] ^= 0x10;
  assertBrokerError(() => validateBatch(whole(batch)), ErrorCode.CORRUPT_MESSAGE);
});

test("validateBatch rejects a length field that disagrees with the bytes", () => {
  assertBrokerError(() => validateBatch(whole(batchOf(3).subarray(0, 70))), ErrorCode.CORRUPT_MESSAGE);
  assertBrokerError(() => validateBatch(whole(Buffer.concat([batchOf(3), Buffer.alloc(4)]))), ErrorCode.CORRUPT_MESSAGE);
  assertBrokerError(() => validateBatch(whole(Buffer.alloc(10))), ErrorCode.CORRUPT_MESSAGE);
});

test("splitBatches cuts a records field into its batches", () => {
  const batches = [batchOf(1, "a"), batchOf(4, "b"), batchOf(2, "c")];
  const split = splitBatches(whole(Buffer.concat(batches)));
  assert.is(split.length, 3);
  split.forEach((part, i) => assert.ok(part.toBuffer().equals(batches[i])));
  assert.equal(splitBatches(ChunkedBytes.EMPTY), []);
});

test("splitBatches cuts records spread over chunks into views of those chunks", () => {
  const batches = [batchOf(1, "a"), batchOf(4, "b", 300), batchOf(2, "c")];
  const records = Buffer.concat(batches);
  // Cut inside the second batch's length field, inside its records, and exactly between two batches.
  const cuts = [batches[0].length + 10, batches[0].length + 200, batches[0].length + batches[1].length];
  const split = splitBatches(cutAt(records, ...cuts));
  assert.equal(split.map((part) => part.chunks.length), [1, 3, 1]);
  split.forEach((part, i) => assert.ok(part.toBuffer().equals(batches[i])));
  split.forEach((part) => validateBatch(part));
});

test("splitBatches rejects a truncated or garbled last batch", () => {
  const two = Buffer.concat([batchOf(1), batchOf(2)]);
  assertBrokerError(() => splitBatches(whole(two.subarray(0, two.length - 1))), ErrorCode.CORRUPT_MESSAGE);
  assertBrokerError(() => splitBatches(whole(Buffer.concat([two, Buffer.alloc(5)]))), ErrorCode.CORRUPT_MESSAGE);
  assertBrokerError(() => splitBatches(whole(Buffer.concat([two, Buffer.alloc(20)]))), ErrorCode.CORRUPT_MESSAGE);
});

test("a gzip batch encoded by kafkajs's producer code validates", async () => {
  // kafkajs exports no encoder publicly; its internal producer encoder is an independent reference.
  const { RecordBatch } = require("kafkajs/src/protocol/recordBatch/v0");
  const Record = require("kafkajs/src/protocol/recordBatch/record/v0");
  const records = [Record({ key: "k", value: "hello", offsetDelta: 0 }), Record({ value: "world", offsetDelta: 1 })];
  const encoder = await RecordBatch({ compression: 1, records, lastOffsetDelta: 1 });
  const header = validateBatch(whole(encoder.buffer as Buffer));
  assert.is(header.recordCount, 2);
  assert.is(compressionCodec(header), 1);
});

test.run();
