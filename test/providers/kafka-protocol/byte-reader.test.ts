import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ByteReader } from "../../../providers/kafka-protocol/byte-reader";
import { ByteWriter } from "../../../providers/kafka-protocol/byte-writer";
import { ChunkedBytes } from "../../../providers/kafka-protocol/chunked-bytes";
import { MalformedMessageError } from "../../../providers/kafka-protocol/malformed-message-error";

const test = suite("ByteReader over chunks");

const records = Buffer.alloc(5000, 7);

/** One of each kind of value, as a frame body. */
function encoded(): Buffer {
  const writer = new ByteWriter();
  writer.int32(0);
  writer.int8(-5);
  writer.int16(-300);
  writer.int32(123456789);
  writer.int64(-(2n ** 40n));
  writer.nullableString("héllo");
  writer.nullableString(null);
  writer.nullableBytes(Buffer.from([1, 2, 3]));
  writer.nullableRecords(ChunkedBytes.of(records));
  writer.nullableRecords(null);
  writer.boolean(true);
  return Buffer.concat(writer.finishFrame()).subarray(4);
}

function readAll(reader: ByteReader): unknown[] {
  return [
    reader.int8(),
    reader.int16(),
    reader.int32(),
    reader.int64(),
    reader.nullableString(),
    reader.nullableString(),
    reader.nullableBytes(),
    reader.nullableRecords()?.toBuffer(),
    reader.nullableRecords(),
    reader.boolean(),
  ];
}

const expected = [-5, -300, 123456789, -(2n ** 40n), "héllo", null, Buffer.from([1, 2, 3]), records, null, true];

test("reads every value the same whether the frame is one buffer or cut at any byte", () => {
  const body = encoded();
  assert.equal(readAll(new ByteReader(body)), expected);
  for (let cut = 1; cut < 40; cut++) {
    const chunks = new ChunkedBytes([body.subarray(0, cut), body.subarray(cut, cut + 3), body.subarray(cut + 3)]);
    assert.equal(readAll(new ByteReader(chunks)), expected, `cut at ${cut}`);
  }
});

test("a record set comes back as views of the chunks it arrived in", () => {
  const writer = new ByteWriter();
  writer.int32(0);
  writer.nullableRecords(ChunkedBytes.of(records));
  const body = Buffer.concat(writer.finishFrame()).subarray(4);
  const chunks = new ChunkedBytes([body.subarray(0, 1000), body.subarray(1000, 3000), body.subarray(3000)]);
  const read = new ByteReader(chunks).nullableRecords()!;
  assert.is(read.chunks.length, 3);
  assert.ok(read.chunks.every((chunk) => chunk.buffer === body.buffer));
  assert.ok(read.toBuffer().equals(records));
});

test("reading past the end of the frame is a MalformedMessageError", () => {
  const reader = new ByteReader(new ChunkedBytes([Buffer.from([0, 0]), Buffer.from([0])]));
  assert.throws(() => reader.int32(), (error: unknown) => error instanceof MalformedMessageError);
});

test.run();
