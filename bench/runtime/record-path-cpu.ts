/**
 * The main thread's CPU per record of runtime-bench's stateless topology (mapValues + filter → topic) with no broker
 * and no network: fetched batches decoded, processed by a real task through the commit sequence, written into their
 * partitions' record batches and finished as the producer finishes them. A figure that this drifting machine moves far less than
 * records/s end to end, for comparing changes to the record path: run it before and after, in turns.
 * Prints, never asserts.
 *
 *   node dist/bench/runtime/record-path-cpu.js [--records=128000] [--rounds=7]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { silentLogger } from "../../kernel/logger";
import type { PartitionBatches, PartitionOffsets } from "../../providers/kafka-client";
import { encodeRecordBatches, FetchedRecords, finishBatches, type ProducerRecord } from "../../providers/kafka-protocol";
import { CommitSequence } from "../../providers/streams/kafka/processing/commit-sequence";
import { RecordCollector } from "../../providers/streams/kafka/processing/record-collector";
import { openRunTask } from "../../providers/streams/kafka/processing/run-task";
import { applicationConfig } from "../../providers/streams/streams-config";
import { buildTopology } from "../../providers/streams/engine/build-topology";
import { numberArgument } from "../bench-arguments";
import { statelessProvider } from "./stateless-topology";
import { bareTaskEnvironment } from "../../test/helpers/task-environment";

const RECORDS = numberArgument("records", 128_000);
const ROUNDS = numberArgument("rounds", 7);
const BATCHES = 8;
const PER_BATCH = Math.ceil(RECORDS / BATCHES);

const topology = buildTopology(statelessProvider("stateless", "in", "out"), applicationConfig([{ values: { "application.id": "stateless" }, source: "the bench" }]));

/** Fetched bytes of runtime-bench's input records: keys k0…k999, values of about 40 ASCII bytes. */
function fetchedBatches(): Buffer[] {
  return Array.from({ length: BATCHES }, (_, batch) => {
    const records: ProducerRecord[] = [];
    for (let i = 0; i < PER_BATCH; i++) {
      const n = batch * PER_BATCH + i;
      records.push({ key: Buffer.from(`k${n % 1000}`), value: Buffer.from(`record number ${n} with some payload text`), timestamp: 1_700_000_000_000 + n });
    }
    return Buffer.concat(encodeRecordBatches(records, 1 << 20).map(({ bytes }) => bytes));
  });
}

async function main(): Promise<void> {
  const batches = fetchedBatches();
  let encodedBytes = 0;
  // The producer's own work on a send, without its network: each partition's batches finished (header, CRC).
  const sender = {
    send: async (partitions: PartitionBatches[]): Promise<PartitionOffsets[]> =>
      partitions.map(({ topic, partition, batches }) => {
        let count = 0;
        for (const batch of finishBatches(batches)) {
          encodedBytes += batch.bytes.length;
          count += batch.count;
        }
        return { topic, partition, baseOffset: 0, lastOffset: count - 1, producerId: -1n };
      }),
  };
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-record-path-"));
  const collector = new RecordCollector(sender, () => 4, () => undefined);
  const task = await openRunTask({
    topology,
    subTopologyId: 0,
    partition: 0,
    stateDir,
    env: bareTaskEnvironment("stateless", stateDir, (record) => collector.collect(record)),
    counters: { read: () => undefined, write: () => undefined },
    logger: silentLogger,
  });
  const sequence = new CommitSequence({ topology, collector, metrics: { consumed: () => undefined, lag: () => undefined, storeCommit: () => undefined } });
  const round = async () => {
    for (const bytes of batches) {
      // The same records again each round: the task is told it has applied none of them.
      task.positions.inputs.set("in", 0, 0);
      const records = new FetchedRecords(bytes, 0, "in-0");
      await sequence.process(task, { topic: "in", partition: 0, records, nextOffset: PER_BATCH, highWatermark: PER_BATCH, lastStableOffset: PER_BATCH }, { consumedOffset: -1, consumedTimestamp: -1 });
      await collector.flush([]);
    }
  };
  try {
    for (let warmUp = 0; warmUp < 5; warmUp++) await round();
    const microsPerRecord: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const started = process.hrtime.bigint();
      await round();
      microsPerRecord.push(Number(process.hrtime.bigint() - started) / 1e3 / (BATCHES * PER_BATCH));
    }
    microsPerRecord.sort((a, b) => a - b);
    const median = microsPerRecord[Math.floor(ROUNDS / 2)];
    console.log(`stateless record path, no broker: median ${median.toFixed(3)} us/record over ${ROUNDS} rounds of ${BATCHES * PER_BATCH} records (${(1 / median).toFixed(2)} M records/s; ${encodedBytes} bytes encoded)`);
  } finally {
    await task.state.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
