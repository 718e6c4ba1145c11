import { suite } from "uvu";
import * as assert from "uvu/assert";
import { MemorySegmentStorage } from "../../../../providers/broker/storage/memory-segment-storage";
import { ReadAhead } from "../../../../providers/broker/storage/read-ahead";

const test = suite("read ahead");

async function segmentOf(text: string): Promise<MemorySegmentStorage> {
  const storage = new MemorySegmentStorage();
  await storage.write([Buffer.from(text)], 0);
  return storage;
}

test("a read started hands its bytes to the fetch that asks for exactly them, once", async () => {
  const segment = await segmentOf("0123456789");
  const ahead = new ReadAhead(1 << 20, 1_000);
  ahead.start(segment, 2, 5, 0);
  assert.is(ahead.take(segment, 2, 4), undefined, "another length is another read");
  ahead.start(segment, 2, 5, 0);
  assert.is((await ahead.take(segment, 2, 5))!.toBuffer().toString(), "23456");
  assert.is(ahead.take(segment, 2, 5), undefined);
});

// The broker answered fetches UNKNOWN_SERVER_ERROR after this: the new read went into the map the stale one's drop
// had just taken out, so it was never found, and dropping it later threw.
test("a read started on a segment whose only earlier read went stale is found, and goes stale cleanly", async () => {
  const segment = await segmentOf("0123456789");
  const other = await segmentOf("abcdefghij");
  const ahead = new ReadAhead(1 << 20, 1_000);
  ahead.start(segment, 0, 3, 0);
  ahead.start(segment, 3, 3, 5_000);
  assert.is((await ahead.take(segment, 3, 3))?.toBuffer().toString(), "345");
  ahead.start(segment, 6, 3, 10_000);
  ahead.start(other, 0, 3, 20_000);
  assert.is(ahead.take(segment, 6, 3), undefined, "stale reads are dropped");
  assert.is((await ahead.take(other, 0, 3))?.toBuffer().toString(), "abc");
});

test("reads beyond the byte bound are not started", async () => {
  const segment = await segmentOf("0123456789");
  const ahead = new ReadAhead(6, 1_000);
  ahead.start(segment, 0, 4, 0);
  ahead.start(segment, 4, 4, 0);
  assert.is(ahead.take(segment, 4, 4), undefined);
  assert.is((await ahead.take(segment, 0, 4))?.toBuffer().toString(), "0123");
});

test.run();
