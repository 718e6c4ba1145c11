/** Behaviour both stores share, run against the memory store and the file store. */
import { gzipSync } from "node:zlib";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ChunkedBytes } from "../../../../providers/kafka-protocol/chunked-bytes";
import { ApiError, ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import type { LogStore, PartitionLog } from "../../../../providers/broker/storage/log-store";
import { crc32c, encodeRecordBatch, readBatchHeader, splitBatches } from "../../../../providers/kafka-protocol";
import { batchOf, FOREVER, STORE_KINDS, withStore } from "./log-store-fixture";

async function rejectsWith(promise: Promise<unknown>, code: number): Promise<void> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, ApiError, String(error));
    assert.is((error as ApiError).code, code, (error as Error).message);
    return;
  }
  assert.unreachable(`expected ApiError ${code}`);
}

async function topicPartition(store: LogStore, settings = FOREVER): Promise<PartitionLog> {
  await store.createTopic("orders", settings);
  const log = store.partition("orders", 0);
  assert.ok(log);
  return log;
}

/** `batch` with its records gzip-compressed, as a producer set to gzip would send it (attributes 1, CRC redone). */
function gzipped(batch: Buffer): Buffer {
  const compressed = Buffer.concat([batch.subarray(0, 61), gzipSync(batch.subarray(61))]);
  compressed.writeInt32BE(compressed.length - 12, 8);
  compressed.writeInt16BE(1, 21);
  compressed.writeUInt32BE(crc32c(compressed.subarray(21)), 17);
  return compressed;
}

function baseOffsetsOf(read: ChunkedBytes): bigint[] {
  return splitBatches(read).map((batch) => readBatchHeader(batch.toBuffer()).baseOffset);
}

for (const kind of STORE_KINDS) {
  const test = suite(`${kind} log store`);

  test("append assigns consecutive offsets across batches", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      assert.is((await log.append(batchOf(3))).baseOffset, 0n);
      assert.is((await log.append(batchOf(2))).baseOffset, 3n);
      const all = await log.appendAll([batchOf(1), batchOf(4)].map(ChunkedBytes.of));
      assert.is(all.baseOffset, 5n);
      assert.is(all.logStartOffset, 0n);
      assert.is(log.logEndOffset(), 10n);
      assert.equal(baseOffsetsOf(await log.read(0n, 1 << 20)), [0n, 3n, 5n, 6n]);
    }));

  test("a batch that arrived in several chunks is stored with its offset and read back byte for byte", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      await log.append(batchOf(2));
      const batch = batchOf(3, "chunked", 500);
      // Cut inside the base offset field (which the log rewrites), inside the header and inside the records.
      const chunks = new ChunkedBytes([batch.subarray(0, 5), batch.subarray(5, 30), batch.subarray(30, 900), batch.subarray(900)]);
      assert.is((await log.appendAll([chunks])).baseOffset, 2n);
      const [, stored] = splitBatches(await log.read(0n, 1 << 20));
      assert.is(readBatchHeader(stored.toBuffer()).baseOffset, 2n);
      assert.ok(stored.toBuffer().subarray(8).equals(batch.subarray(8)));
    }));

  test("concurrent appends get distinct offsets in call order", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => log.append(batchOf(1 + (i % 3)))));
      let expected = 0n;
      results.forEach((result, i) => {
        assert.is(result.baseOffset, expected);
        expected += BigInt(1 + (i % 3));
      });
      assert.is(log.logEndOffset(), expected);
      assert.is(splitBatches(await log.read(0n, 1 << 20)).length, 200);
    }));

  test("read returns whole batches from the one holding the offset, within maxBytes but at least one", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      const batches = [batchOf(3, "a"), batchOf(3, "b"), batchOf(3, "c")];
      for (const batch of batches) await log.append(batch);
      assert.equal(baseOffsetsOf(await log.read(4n, 1 << 20)), [3n, 6n]);
      assert.equal(baseOffsetsOf(await log.read(0n, 1)), [0n]);
      assert.equal(baseOffsetsOf(await log.read(0n, batches[0].length + batches[1].length)), [0n, 3n]);
      assert.equal(baseOffsetsOf(await log.read(0n, batches[0].length + batches[1].length - 1)), [0n]);
      assert.is((await log.read(9n, 100)).length, 0);
    }));

  test("read rejects offsets outside the log", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      await log.append(batchOf(2));
      await rejectsWith(log.read(3n, 100), ErrorCode.OFFSET_OUT_OF_RANGE);
      await rejectsWith(log.read(-1n, 100), ErrorCode.OFFSET_OUT_OF_RANGE);
    }));

  test("offsetForTimestamp finds the first record stamped at or after the time, inside its batch, compressed or not, as Kafka does", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      const stamped = (prefix: string, timestamps: number[]) =>
        encodeRecordBatch(timestamps.map((timestamp, i) => ({ key: null, value: Buffer.from(`${prefix}-${i}`), timestamp })));
      await log.append(stamped("plain", [1000, 1100, 1200, 1300]));
      await log.append(gzipped(stamped("gzip", [1400, 1350, 1500])));
      assert.equal(await log.offsetForTimestamp(1150n), { offset: 2n, timestamp: 1200n });
      assert.equal(await log.offsetForTimestamp(1300n), { offset: 3n, timestamp: 1300n });
      assert.equal(await log.offsetForTimestamp(1320n), { offset: 4n, timestamp: 1400n });
      assert.equal(await log.offsetForTimestamp(1450n), { offset: 6n, timestamp: 1500n });
      // Never below the log start: the records before it do not count.
      await log.deleteRecordsBefore(5n);
      assert.equal(await log.offsetForTimestamp(1150n), { offset: 5n, timestamp: 1350n });
    }));

  test("recordWithMaxTimestamp finds the first record with the largest timestamp, inside its batch (Kafka's MAX_TIMESTAMP)", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      assert.is(await log.recordWithMaxTimestamp(), null);
      const stamped = (timestamps: number[]) => encodeRecordBatch(timestamps.map((timestamp, i) => ({ key: null, value: Buffer.from(`r${i}`), timestamp })));
      await log.append(stamped([1000, 1300, 1100]));
      await log.append(gzipped(stamped([1200, 1500, 1400])));
      await log.append(stamped([1500, 900]));
      assert.equal(await log.recordWithMaxTimestamp(), { offset: 4n, timestamp: 1500n });
    }));

  test("offsetForTimestamp skips batches stamped earlier, whatever their order", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      await log.append(batchOf(2, "a", 0, 1000));
      await log.append(batchOf(2, "b", 0, 3000));
      await log.append(batchOf(2, "c", 0, 2000));
      assert.equal(await log.offsetForTimestamp(0n), { offset: 0n, timestamp: 1000n });
      assert.equal(await log.offsetForTimestamp(1001n), { offset: 2n, timestamp: 3000n });
      assert.equal(await log.offsetForTimestamp(2500n), { offset: 2n, timestamp: 3000n });
      assert.is(await log.offsetForTimestamp(3001n), null);
    }));

  test("a batch with a bad CRC or another magic is rejected and nothing is stored", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      const corrupt = batchOf(2);
      corrupt[corrupt.length - 1] ^= 0xff;
      await rejectsWith(log.append(corrupt), ErrorCode.CORRUPT_MESSAGE);
      await rejectsWith(log.appendAll([batchOf(1), corrupt].map(ChunkedBytes.of)), ErrorCode.CORRUPT_MESSAGE);
      const oldFormat = batchOf(1);
      oldFormat[16] = 1; // magic
      await rejectsWith(log.append(oldFormat), ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT);
      assert.is(log.logEndOffset(), 0n);
      assert.is(log.sizeInBytes(), 0);
    }));

  test("a compressed batch comes back byte for byte, except its assigned base offset", () =>
    withStore(kind, async (store) => {
      const log = await topicPartition(store);
      await log.append(batchOf(5));
      const gzip = gzipped(batchOf(2, "compressed"));
      const { baseOffset } = await log.append(gzip);
      const read = (await log.read(baseOffset, 1 << 20)).toBuffer();
      assert.is(readBatchHeader(read).baseOffset, 5n);
      assert.is(read.length, gzip.length);
      assert.ok(read.subarray(8).equals(gzip.subarray(8)));
    }));

  test("segments roll at segmentBytes and reads cross them", () =>
    withStore(
      kind,
      async (store) => {
        const log = await topicPartition(store);
        for (let i = 0; i < 20; i++) await log.append(batchOf(2, `b${i}`, 50));
        for (let offset = 0n; offset < 40n; offset++) {
          const [first] = baseOffsetsOf(await log.read(offset, 1));
          assert.is(first, offset - (offset % 2n));
        }
        const size = log.sizeInBytes();
        assert.ok(size > 600, `stored ${size} bytes`);
      },
      { segmentBytes: 600 },
    ));

  test("retention by size deletes the oldest segments and moves logStartOffset", () =>
    withStore(
      kind,
      async (store) => {
        const log = await topicPartition(store, { partitions: 1, retentionMs: null, retentionBytes: 1000 });
        for (let i = 0; i < 30; i++) await log.append(batchOf(2, `b${i}`, 50));
        const before = log.sizeInBytes();
        await store.enforceRetention(Date.now());
        assert.ok(log.sizeInBytes() <= 1000, `kept ${log.sizeInBytes()} of ${before} bytes`);
        assert.ok(log.logStartOffset() > 0n);
        assert.is(log.logEndOffset(), 60n);
        await rejectsWith(log.read(0n, 100), ErrorCode.OFFSET_OUT_OF_RANGE);
        assert.is(baseOffsetsOf(await log.read(log.logStartOffset(), 1))[0], log.logStartOffset());
        assert.is((await log.append(batchOf(1))).logStartOffset, log.logStartOffset());
      },
      { segmentBytes: 400 },
    ));

  test("retention by time deletes segments whose batches are all old, the active one too", () =>
    withStore(
      kind,
      async (store) => {
        const log = await topicPartition(store, { partitions: 1, retentionMs: 60_000, retentionBytes: null });
        const now = 10_000_000;
        for (let i = 0; i < 10; i++) await log.append(batchOf(2, "old", 50, now - 120_000));
        for (let i = 0; i < 3; i++) await log.append(batchOf(2, "new", 50, now - 1_000));
        await store.enforceRetention(now);
        assert.ok(log.logStartOffset() > 0n && log.logStartOffset() <= 20n, `start ${log.logStartOffset()}`);
        assert.equal(await log.offsetForTimestamp(0n), { offset: log.logStartOffset(), timestamp: BigInt(now - 1_000) });
        await store.enforceRetention(now + 120_000);
        assert.is(log.logStartOffset(), 26n);
        assert.is(log.logEndOffset(), 26n);
        assert.is(log.sizeInBytes(), 0);
        assert.is((await log.append(batchOf(1))).baseOffset, 26n);
      },
      { segmentBytes: 400 },
    ));

  test("topics are created once, named validly, and deleted with their committed offsets", () =>
    withStore(kind, async (store) => {
      await store.createTopic("a", { partitions: 3, retentionMs: 5, retentionBytes: null });
      const { topicId, ...settings } = store.topics().get("a")!;
      assert.equal(settings, { partitions: 3, retentionMs: 5, retentionBytes: null });
      assert.match(topicId!, /^[A-Za-z0-9_-]{22}$/, "a new topic gets a Kafka Uuid as its id");
      assert.ok(store.partition("a", 2));
      assert.is(store.partition("a", 3), undefined);
      await rejectsWith(store.createTopic("a", FOREVER), ErrorCode.TOPIC_ALREADY_EXISTS);
      await rejectsWith(store.createTopic("../evil", FOREVER), ErrorCode.INVALID_TOPIC_EXCEPTION);
      await rejectsWith(store.createTopic("b", { ...FOREVER, partitions: 0 }), ErrorCode.INVALID_PARTITIONS);
      await store.offsets.commit("g", [{ topic: "a", partition: 1, offset: 7n, metadata: null }], 1n);
      const log = store.partition("a", 0);
      await store.deleteTopic("a");
      assert.is(store.topics().has("a"), false);
      assert.is(store.partition("a", 0), undefined);
      assert.is(store.offsets.fetch("g", "a", 1), undefined);
      await rejectsWith(log!.append(batchOf(1)), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      await rejectsWith(store.deleteTopic("a"), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      await store.createTopic("a", FOREVER);
      assert.is(store.partition("a", 0)!.logEndOffset(), 0n);
    }));

  test("committed offsets are stored per group, topic and partition", () =>
    withStore(kind, async (store) => {
      await store.offsets.commit(
        "g1",
        [
          { topic: "t", partition: 0, offset: 5n, metadata: "m" },
          { topic: "t", partition: 1, offset: 9n, metadata: null },
        ],
        100n,
      );
      await store.offsets.commit("g1", [{ topic: "t", partition: 0, offset: 6n, metadata: null }], 200n);
      await store.offsets.commit("g2", [{ topic: "u", partition: 0, offset: 1n, metadata: null }], 300n);
      assert.equal(store.offsets.fetch("g1", "t", 0), { offset: 6n, metadata: null, commitTimestamp: 200n });
      assert.equal(store.offsets.fetch("g1", "t", 1), { offset: 9n, metadata: null, commitTimestamp: 100n });
      assert.is(store.offsets.fetch("g1", "u", 0), undefined);
      assert.equal([...store.offsets.groupOffsets("g1").get("t")!.keys()].sort(), [0, 1]);
      assert.equal(store.offsets.groups().sort(), ["g1", "g2"]);
    }));

  test("append listeners hear about every partition written", () =>
    withStore(kind, async (store) => {
      await store.createTopic("t", { ...FOREVER, partitions: 2 });
      const heard: string[] = [];
      store.onAppend((topic, partition) => heard.push(`${topic}-${partition}`));
      await store.partition("t", 1)!.append(batchOf(1));
      await store.partition("t", 0)!.append(batchOf(1));
      assert.equal(heard, ["t-1", "t-0"]);
    }));

  test("a closed store rejects further calls", async () => {
    let log: PartitionLog | undefined;
    let closed: LogStore | undefined;
    await withStore(kind, async (store) => {
      log = await topicPartition(store);
      closed = store;
    });
    await rejectsWith(log!.append(batchOf(1)), ErrorCode.NOT_LEADER_OR_FOLLOWER);
    await rejectsWith(log!.read(0n, 1), ErrorCode.NOT_LEADER_OR_FOLLOWER);
    await rejectsWith(closed!.createTopic("x", FOREVER), ErrorCode.NOT_LEADER_OR_FOLLOWER);
    await rejectsWith(closed!.offsets.commit("g", [], 0n), ErrorCode.NOT_LEADER_OR_FOLLOWER);
    assert.throws(() => closed!.topics(), /closed/);
  });

  test.run();
}
