/**
 * Child process for the kill -9 test: appends batches and commits offsets to a FileLogStore in
 * `process.argv[2]` forever, printing "ack <offset>" once each append and its commit resolved.
 */
import { FileLogStore } from "../../../../providers/broker/storage/file-log-store";
import { batchOf, storeConfig } from "./log-store-fixture";

async function appendForever(dataDir: string): Promise<void> {
  const store = new FileLogStore(storeConfig(dataDir, { segmentBytes: 64 * 1024 }));
  await store.open();
  if (!store.topics().has("t")) await store.createTopic("t", { partitions: 1, retentionMs: null, retentionBytes: null });
  const log = store.partition("t", 0)!;
  for (let i = 0; ; i++) {
    const { baseOffset } = await log.append(batchOf(3, `r${i}`, 200));
    await store.offsets.commit("g", [{ topic: "t", partition: 0, offset: baseOffset, metadata: null }], BigInt(i));
    process.stdout.write(`ack ${baseOffset}\n`);
  }
}

void appendForever(process.argv[2]);
