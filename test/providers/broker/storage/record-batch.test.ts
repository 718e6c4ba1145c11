import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BrokerError, ErrorCode } from "../../../../providers/broker/protocol/error-codes";
import {
  compressionCodec,
  readBatchHeader,
  splitBatches,
  validateBatch,
  withBaseOffset,
} from "../../../../providers/broker/storage/record-batch";
import { batchOf, encodeBatch } from "./record-batch-encoder";

const test = suite("record batch v2");

function assertBrokerError(run: () => unknown, code: number): void {
  try {
    run();
  } catch (error) {
    assert.instance(error, BrokerError);
    assert.is((error as BrokerError).code, code, (error as Error).message);
    return;
  }
  assert.unreachable("expected a BrokerError");
}

test("readBatchHeader reads every header field", () => {
  const batch = encodeBatch({
    baseOffset: 42n,
    baseTimestamp: 1000n,
    records: [{ value: "a" }, { value: "b", timestampDelta: 7 }, { value: "c", timestampDelta: 3 }],
  });
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
  assert.is(validateBatch(batchOf(5)).recordCount, 5);
});

test("validateBatch rejects another magic as UNSUPPORTED_FOR_MESSAGE_FORMAT", () => {
  assertBrokerError(() => validateBatch(encodeBatch({ magic: 1, records: [{ value: "a" }] })), ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT);
});

test("validateBatch rejects a flipped bit as CORRUPT_MESSAGE", () => {
  const batch = batchOf(3);
  batch[batch.length - 2] ^= 0x10;
  assertBrokerError(() => validateBatch(batch), ErrorCode.CORRUPT_MESSAGE);
});

test("validateBatch rejects a length field that disagrees with the bytes", () => {
  assertBrokerError(() => validateBatch(batchOf(3).subarray(0, 70)), ErrorCode.CORRUPT_MESSAGE);
  assertBrokerError(() => validateBatch(Buffer.concat([batchOf(3), Buffer.alloc(4)])), ErrorCode.CORRUPT_MESSAGE);
  assertBrokerError(() => validateBatch(Buffer.alloc(10)), ErrorCode.CORRUPT_MESSAGE);
});

test("splitBatches cuts a records field into its batches", () => {
  const batches = [batchOf(1, "a"), batchOf(4, "b"), batchOf(2, "c")];
  const split = splitBatches(Buffer.concat(batches));
  assert.is(split.length, 3);
  split.forEach((part, i) => assert.ok(part.equals(batches[i])));
  assert.equal(splitBatches(Buffer.alloc(0)), []);
});

test("splitBatches rejects a truncated or garbled last batch", () => {
  const whole = Buffer.concat([batchOf(1), batchOf(2)]);
  assertBrokerError(() => splitBatches(whole.subarray(0, whole.length - 1)), ErrorCode.CORRUPT_MESSAGE);
  assertBrokerError(() => splitBatches(Buffer.concat([whole, Buffer.alloc(5)])), ErrorCode.CORRUPT_MESSAGE);
  assertBrokerError(() => splitBatches(Buffer.concat([whole, Buffer.alloc(20)])), ErrorCode.CORRUPT_MESSAGE);
});

test("withBaseOffset rewrites only the base offset and keeps the CRC valid", () => {
  const original = batchOf(3);
  const moved = withBaseOffset(original, 1234n);
  assert.is(readBatchHeader(moved).baseOffset, 1234n);
  assert.is(readBatchHeader(original).baseOffset, 0n);
  assert.ok(moved.subarray(8).equals(original.subarray(8)));
  validateBatch(moved);
});

test("a gzip batch encoded by kafkajs's producer code validates", async () => {
  // kafkajs exports no encoder publicly; its internal producer encoder is an independent reference.
  const { RecordBatch } = require("kafkajs/src/protocol/recordBatch/v0");
  const Record = require("kafkajs/src/protocol/recordBatch/record/v0");
  const records = [Record({ key: "k", value: "hello", offsetDelta: 0 }), Record({ value: "world", offsetDelta: 1 })];
  const encoder = await RecordBatch({ compression: 1, records, lastOffsetDelta: 1 });
  const header = validateBatch(encoder.buffer as Buffer);
  assert.is(header.recordCount, 2);
  assert.is(compressionCodec(header), 1);
});

test.run();
