import { suite } from "uvu";
import * as assert from "uvu/assert";
import { longSerde, stringSerde } from "../../../../providers/streams/serdes/builtin-serdes";

const test = suite("builtin serdes");

const javaLongBytes = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt(value));
  return bytes;
};

test("long writes Kafka's 8-byte big-endian two's complement and reads it back, across the 32-bit boundaries", () => {
  const values = [0, 1, -1, 255, 2 ** 31 - 1, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, -(2 ** 32), -(2 ** 32) - 1, 123_456_789_012, -987_654_321_098, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
  for (const value of values) {
    const bytes = longSerde.serialize(value);
    assert.equal(bytes, javaLongBytes(value), `bytes of ${value}`);
    assert.is(longSerde.deserialize(bytes), value, `read back ${value}`);
  }
});

test("long refuses what it cannot write exactly and bytes that are not 8 long", () => {
  assert.throws(() => longSerde.serialize(1.5), /not a safe integer/);
  assert.throws(() => longSerde.serialize(2 ** 60), /not a safe integer/);
  assert.throws(() => longSerde.deserialize(Buffer.alloc(4)), /expected 8 bytes/);
});

test("long reads values beyond 2^53 written by other clients as the nearest number", () => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(2n ** 62n + 1n);
  assert.is(longSerde.deserialize(bytes), 2 ** 62);
});

test("string is UTF-8 both ways", () => {
  for (const text of ["", "word", "Grüße, 世界 🌊"]) assert.is(stringSerde.deserialize(stringSerde.serialize(text)), text);
  assert.equal(stringSerde.serialize("é"), Buffer.from([0xc3, 0xa9]));
});

test.run();
