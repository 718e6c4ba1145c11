/** What only the file store does: its layout on disk, reopening, recovery from torn writes, the offsets journal. */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FileLogStore } from "../../../../providers/broker/storage/file-log-store";
import type { LogStore } from "../../../../providers/broker/storage/log-store";
import { MemoryLogStore } from "../../../../providers/broker/storage/memory-log-store";
import type { LogStoreConfig } from "../../../../providers/broker/storage/partitioned-log-store";
import { readBatchHeader, splitBatches } from "../../../../providers/kafka-protocol/records/record-batch";
import { batchOf, FOREVER, recordingLogger, storeConfig, tempDataDir } from "./log-store-fixture";

const test = suite("file log store on disk");

const FIRST_SEGMENT = "00000000000000000000.log";

/** Runs `steps` against a store opened freshly each time on the same directory. */
async function withReopenedStores(
  overrides: Partial<LogStoreConfig>,
  ...steps: ((store: LogStore, dataDir: string) => Promise<void>)[]
): Promise<void> {
  const dataDir = tempDataDir();
  try {
    for (const step of steps) {
      const store = new FileLogStore(storeConfig(dataDir, overrides));
      await store.open();
      try {
        await step(store, dataDir);
      } finally {
        await store.close();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test("lays out topics as Kafka does: <topic>-<partition>/<20-digit base offset>.log and a settings file", () =>
  withReopenedStores({ segmentBytes: 300 }, async (store, dataDir) => {
    await store.createTopic("clicks", { partitions: 2, retentionMs: null, retentionBytes: null });
    const log = store.partition("clicks", 1)!;
    const batches = [batchOf(3, "a", 40), batchOf(3, "b", 40), batchOf(3, "c", 40)];
    for (const batch of batches) await log.append(batch);
    assert.equal(readdirSync(path.join(dataDir, "clicks-1")).sort(), [FIRST_SEGMENT, "00000000000000000003.log", "00000000000000000006.log"]);
    const onDisk = readFileSync(path.join(dataDir, "clicks-1", "00000000000000000003.log"));
    assert.is(readBatchHeader(onDisk).baseOffset, 3n);
    assert.ok(onDisk.subarray(8).equals(batches[1].subarray(8)));
    assert.ok(existsSync(path.join(dataDir, "clicks-0", FIRST_SEGMENT)));
    assert.equal(JSON.parse(readFileSync(path.join(dataDir, "topics", "clicks.json"), "utf8")), {
      partitions: 2,
      retentionMs: null,
      retentionBytes: null,
      topicId: store.topics().get("clicks")!.topicId,
    });
  }));

test("a reopened store keeps topics (with their ids), batches, offsets and committed offsets", () => {
  let before: Buffer = Buffer.alloc(0);
  let topicId: string | undefined;
  return withReopenedStores(
    { segmentBytes: 500 },
    async (store) => {
      await store.createTopic("t", { partitions: 2, retentionMs: 1000, retentionBytes: 5000 });
      for (let i = 0; i < 12; i++) await store.partition("t", i % 2)!.append(batchOf(2, `v${i}`, 30, 1000 + i));
      await store.offsets.commit("group", [{ topic: "t", partition: 1, offset: 4n, metadata: "meta" }], 77n);
      before = (await store.partition("t", 0)!.read(0n, 1 << 20)).toBuffer();
      topicId = store.topics().get("t")!.topicId;
    },
    async (store) => {
      assert.equal(store.topics().get("t"), { partitions: 2, retentionMs: 1000, retentionBytes: 5000, topicId });
      const log = store.partition("t", 0)!;
      assert.is(log.logEndOffset(), 12n);
      assert.ok((await log.read(0n, 1 << 20)).toBuffer().equals(before));
      assert.equal(await log.offsetForTimestamp(1005n), { offset: 6n, timestamp: 1006n });
      assert.equal(store.offsets.fetch("group", "t", 1), { offset: 4n, metadata: "meta", commitTimestamp: 77n });
      assert.is((await log.append(batchOf(1))).baseOffset, 12n);
    },
    async (store) => {
      assert.is(store.partition("t", 0)!.logEndOffset(), 13n);
    },
  );
});

test("retention survives a reopen: logStartOffset stays where deletion moved it", () =>
  withReopenedStores(
    { segmentBytes: 300 },
    async (store) => {
      await store.createTopic("t", { partitions: 1, retentionMs: null, retentionBytes: 600 });
      for (let i = 0; i < 10; i++) await store.partition("t", 0)!.append(batchOf(2, `v${i}`, 40));
      await store.enforceRetention(Date.now());
      assert.ok(store.partition("t", 0)!.logStartOffset() > 0n);
    },
    async (store) => {
      const log = store.partition("t", 0)!;
      assert.ok(log.logStartOffset() > 0n);
      assert.ok(log.sizeInBytes() <= 600);
      assert.is(log.logEndOffset(), 20n);
    },
  ));

for (const [name, damage] of [
  ["half a batch", (file: string) => appendFileSync(file, batchOf(4, "torn").subarray(0, 40))],
  ["a header whose length runs past the end", (file: string) => appendFileSync(file, batchOf(4, "torn").subarray(0, 70))],
  ["garbage", (file: string) => appendFileSync(file, Buffer.from("this is not a record batch at all, just noise".repeat(3)))],
  ["a few zero bytes", (file: string) => appendFileSync(file, Buffer.alloc(9))],
] as const) {
  test(`a torn tail (${name}) is cut off on open and the earlier batches stay intact`, () => {
    const logger = recordingLogger();
    let intact: Buffer = Buffer.alloc(0);
    let segmentFile = "";
    return withReopenedStores(
      { logger },
      async (store, dataDir) => {
        await store.createTopic("t", FOREVER);
        for (let i = 0; i < 3; i++) await store.partition("t", 0)!.append(batchOf(2, `v${i}`));
        intact = (await store.partition("t", 0)!.read(0n, 1 << 20)).toBuffer();
        segmentFile = path.join(dataDir, "t-0", FIRST_SEGMENT);
      },
      async () => {
        damage(segmentFile);
      },
      async (store) => {
        const log = store.partition("t", 0)!;
        assert.is(log.logEndOffset(), 6n);
        assert.ok((await log.read(0n, 1 << 20)).toBuffer().equals(intact));
        assert.is(statSync(segmentFile).size, intact.length);
        const warning = logger.lines.find((line) => line.level === "warn");
        assert.ok(warning, "the truncation is logged");
        assert.match(JSON.stringify(warning!.fields), segmentFile);
        assert.is((await log.append(batchOf(1))).baseOffset, 6n);
      },
    );
  });
}

test("a last batch with a bad CRC is cut off on open", () => {
  let segmentFile = "";
  return withReopenedStores(
    {},
    async (store, dataDir) => {
      await store.createTopic("t", FOREVER);
      await store.partition("t", 0)!.append(batchOf(2, "good"));
      await store.partition("t", 0)!.append(batchOf(2, "bad"));
      segmentFile = path.join(dataDir, "t-0", FIRST_SEGMENT);
    },
    async () => {
      const bytes = readFileSync(segmentFile);
      bytes[bytes.length - 3] ^= 0x01;
      writeFileSync(segmentFile, bytes);
    },
    async (store) => {
      const log = store.partition("t", 0)!;
      assert.is(log.logEndOffset(), 2n);
      const batches = splitBatches(await log.read(0n, 1 << 20));
      assert.is(batches.length, 1);
    },
  );
});

test("committed offsets survive a torn last journal line", () => {
  const logger = recordingLogger();
  return withReopenedStores(
    { logger },
    async (store) => {
      await store.offsets.commit("g", [{ topic: "t", partition: 0, offset: 10n, metadata: null }], 1n);
    },
    async (_store, dataDir) => {
      appendFileSync(path.join(dataDir, "committed-offsets.log"), '{"commit":{"group":"g","ts":"2","entr');
    },
    async (store) => {
      assert.equal(store.offsets.fetch("g", "t", 0), { offset: 10n, metadata: null, commitTimestamp: 1n });
      assert.ok(logger.lines.some((line) => line.level === "warn"));
      await store.offsets.commit("g", [{ topic: "t", partition: 0, offset: 11n, metadata: null }], 3n);
    },
    async (store) => {
      assert.equal(store.offsets.fetch("g", "t", 0), { offset: 11n, metadata: null, commitTimestamp: 3n });
    },
  );
});

test("the committed-offsets journal is compacted once it has grown", () =>
  withReopenedStores(
    {},
    async (store, dataDir) => {
      const journal = path.join(dataDir, "committed-offsets.log");
      const commits = Array.from({ length: 20_000 }, (_, i) =>
        store.offsets.commit("g", [{ topic: "t", partition: i % 4, offset: BigInt(i), metadata: null }], BigInt(i)),
      );
      await Promise.all(commits);
      assert.ok(statSync(journal).size > 1 << 20, "the journal grew past the compaction threshold");
      await store.offsets.commit("g", [{ topic: "t", partition: 0, offset: 99_999n, metadata: "last" }], 1n);
      assert.ok(statSync(journal).size < 4096, `compacted to ${statSync(journal).size} bytes`);
    },
    async (store) => {
      assert.equal(store.offsets.fetch("g", "t", 0), { offset: 99_999n, metadata: "last", commitTimestamp: 1n });
      assert.equal(store.offsets.fetch("g", "t", 3), { offset: 19_999n, metadata: null, commitTimestamp: 19_999n });
    },
  ));

test("deleteTopic removes its directories and settings, also after a reopen", () =>
  withReopenedStores(
    {},
    async (store, dataDir) => {
      await store.createTopic("gone", { ...FOREVER, partitions: 2 });
      await store.createTopic("kept", FOREVER);
      await store.partition("gone", 1)!.append(batchOf(1));
      await store.deleteTopic("gone");
      assert.is(existsSync(path.join(dataDir, "gone-0")), false);
      assert.is(existsSync(path.join(dataDir, "gone-1")), false);
      assert.is(existsSync(path.join(dataDir, "topics", "gone.json")), false);
    },
    async (store) => {
      assert.equal([...store.topics().keys()], ["kept"]);
    },
  ));

test("partition directories left by an interrupted deletion are removed on open", () =>
  withReopenedStores(
    {},
    async (store, dataDir) => {
      await store.createTopic("kept", FOREVER);
      mkdirSync(path.join(dataDir, "orphan-0"));
      writeFileSync(path.join(dataDir, "orphan-0", FIRST_SEGMENT), batchOf(1));
    },
    async (store, dataDir) => {
      assert.is(existsSync(path.join(dataDir, "orphan-0")), false);
      assert.ok(existsSync(path.join(dataDir, "kept-0", FIRST_SEGMENT)));
      assert.is(store.topics().has("orphan"), false);
    },
  ));

test("a consumer reading in order, its next batches read ahead, gets what the memory store gives: across segments, appends and a changed maxBytes", () =>
  withReopenedStores({ segmentBytes: 2000 }, async (store) => {
    const reference = new MemoryLogStore(storeConfig("", { segmentBytes: 2000 }));
    await reference.open();
    await store.createTopic("t", FOREVER);
    await reference.createTopic("t", FOREVER);
    const [log, expected] = [store.partition("t", 0)!, reference.partition("t", 0)!];
    let appended = 0;
    const append = async (count: number) => {
      for (const end = appended + count; appended < end; appended++) {
        const batch = batchOf(2, `b${appended}`, 60);
        await log.append(batch);
        await expected.append(batch);
      }
    };
    await append(4);
    const batchBytes = batchOf(2, "b0", 60).length;
    let offset = 0n;
    for (let read = 0; offset < log.logEndOffset(); read++) {
      const maxBytes = (read < 6 ? 3 : 2) * batchBytes;
      const bytes = await log.read(offset, maxBytes);
      assert.ok(bytes.toBuffer().equals((await expected.read(offset, maxBytes)).toBuffer()), `read ${read} at offset ${offset}`);
      const last = readBatchHeader(splitBatches(bytes).at(-1)!.toBuffer());
      offset = last.baseOffset + BigInt(last.lastOffsetDelta) + 1n;
      // The next batches grow while read ahead: a read ahead of fewer of them must not be served.
      if (read % 2 === 0 && appended < 24) await append(1);
    }
    assert.is(offset, BigInt(2 * appended));
    await reference.close();
  }));

test.run();
