import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ReadBuffers } from "../../../../providers/broker/storage/read-buffers";

const test = suite("read buffers");

test("a buffer given back is lent again for a read of a similar size, and not before it came back", () => {
  const buffers = new ReadBuffers(8 << 20);
  const first = buffers.take(1_000_000);
  assert.is(first.length, 1_000_000);
  const second = buffers.take(1_000_000);
  assert.is.not(second.buffer, first.buffer);
  buffers.giveBack([Buffer.from("header"), first.subarray(0, 10), Buffer.from("tail")]);
  const third = buffers.take(900_000);
  assert.is(third.buffer, first.buffer);
  assert.is(third.length, 900_000);
  assert.is.not(buffers.take(1_000_000).buffer, first.buffer);
});

test("only what it lent comes back, once, within its limit of free memory", () => {
  const buffers = new ReadBuffers(1 << 20);
  const small = buffers.take(1000);
  const lent = [buffers.take(1 << 20), buffers.take(1 << 20)];
  buffers.giveBack([small, Buffer.allocUnsafeSlow(1 << 20), ...lent, lent[0]]);
  // Room for one of the two: the other is left to the garbage collector.
  assert.is(buffers.take(1 << 20).buffer, lent[0].buffer);
  const next = buffers.take(1 << 20).buffer;
  assert.ok(next !== lent[0].buffer && next !== lent[1].buffer);
});

test.run();
