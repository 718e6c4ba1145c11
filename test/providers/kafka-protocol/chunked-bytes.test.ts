import { randomBytes } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ChunkedBytes } from "../../../providers/kafka-protocol/chunked-bytes";

const test = suite("ChunkedBytes");

const data = randomBytes(100);
const chunked = new ChunkedBytes([data.subarray(0, 10), data.subarray(10, 11), data.subarray(11, 60), data.subarray(60)]);

test("its length is the sum of its chunks and toBuffer joins them", () => {
  assert.is(chunked.length, 100);
  assert.ok(chunked.toBuffer().equals(data));
  assert.is(ChunkedBytes.EMPTY.length, 0);
});

test("slice gives the same bytes as slicing the joined buffer, for every range", () => {
  for (let start = 0; start <= 100; start += 3) {
    for (let end = start; end <= 100; end += 7) {
      const slice = chunked.slice(start, end);
      assert.ok(slice.toBuffer().equals(data.subarray(start, end)), `[${start}, ${end})`);
      assert.ok(slice.chunks.every((chunk) => chunk.length > 0), `no empty chunk in [${start}, ${end})`);
    }
  }
});

test("slice shares memory with the chunks instead of copying", () => {
  const slice = chunked.slice(5, 70);
  assert.is(slice.chunks.length, 4);
  const copy = Buffer.from(data);
  const shared = new ChunkedBytes([copy.subarray(0, 50), copy.subarray(50)]).slice(40, 60);
  copy[45] ^= 0xff;
  assert.is(shared.toBuffer()[5], copy[45]);
});

test("contiguous is a view inside one chunk and a copy across chunks", () => {
  const inside = chunked.contiguous(20, 30);
  assert.ok(inside.equals(data.subarray(20, 50)));
  assert.is(inside.buffer, data.buffer);
  const across = chunked.contiguous(5, 20);
  assert.ok(across.equals(data.subarray(5, 25)));
  assert.ok(chunked.contiguous(59, 2).equals(data.subarray(59, 61)));
});

test.run();
