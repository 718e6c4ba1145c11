import { randomBytes } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { crc32c, crc32cImplementation, crc32cOfChunks } from "../../../../providers/kafka-protocol";
import { crc32cSliceBy8 } from "../../../../providers/kafka-protocol/records/crc32c-slice-by-8";

// kafkajs's own (byte-at-a-time) CRC-32C serves as an independent reference.
const kafkajsCrc32c = require("kafkajs/src/protocol/recordBatch/crc32C") as (data: Buffer) => number;

const implementations = { "the exported crc32c": crc32c, "the JavaScript fallback": crc32cSliceBy8 };

for (const [name, checksum] of Object.entries(implementations)) {
  const test = suite(`crc32c: ${name}`);

  test("matches the CRC-32C check value of '123456789'", () => {
    assert.is(checksum(Buffer.from("123456789")), 0xe3069283);
  });

  test("is 0 for no bytes", () => {
    assert.is(checksum(Buffer.alloc(0)), 0);
  });

  test("agrees with kafkajs on every length around the 8-byte stride", () => {
    const data = randomBytes(4096);
    for (const length of [1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4096]) {
      assert.is(checksum(data.subarray(0, length)), kafkajsCrc32c(data.subarray(0, length)) >>> 0, `length ${length}`);
    }
  });

  test("continues from the CRC of the bytes before", () => {
    const data = randomBytes(1000);
    for (const cut of [0, 1, 13, 500, 999, 1000]) {
      assert.is(checksum(data.subarray(cut), checksum(data.subarray(0, cut))), checksum(data), `cut at ${cut}`);
    }
  });

  test.run();
}

const chunked = suite("crc32cOfChunks");

chunked("is the CRC-32C of the chunks' bytes back to back", () => {
  const data = randomBytes(70_000);
  const chunks = [data.subarray(0, 3), data.subarray(3, 3), data.subarray(3, 65_536), data.subarray(65_536)];
  assert.is(crc32cOfChunks(chunks), kafkajsCrc32c(data) >>> 0);
  assert.is(crc32cOfChunks([]), 0);
});

chunked.run();

const platform = suite("crc32c: platform");

platform("the native binding is installed here (a supported platform)", () => {
  assert.is(crc32cImplementation, "native");
});

platform.run();
