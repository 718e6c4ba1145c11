import { randomBytes } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { crc32c } from "../../../../providers/broker/storage/crc32c";

// kafkajs's own (byte-at-a-time) CRC-32C serves as an independent reference.
const kafkajsCrc32c = require("kafkajs/src/protocol/recordBatch/crc32C") as (data: Buffer) => number;

const test = suite("crc32c");

test("matches the CRC-32C check value of '123456789'", () => {
  assert.is(crc32c(Buffer.from("123456789")), 0xe3069283);
});

test("is 0 for no bytes", () => {
  assert.is(crc32c(Buffer.alloc(0)), 0);
});

test("agrees with kafkajs on every length around the 8-byte stride", () => {
  const data = randomBytes(4096);
  for (const length of [1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4096]) {
    assert.is(crc32c(data.subarray(0, length)), kafkajsCrc32c(data.subarray(0, length)) >>> 0, `length ${length}`);
  }
});

test("covers only [start, end) of the buffer", () => {
  const data = randomBytes(100);
  assert.is(crc32c(data, 21, 90), crc32c(data.subarray(21, 90)));
});

test.run();
