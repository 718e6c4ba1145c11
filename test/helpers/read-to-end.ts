/** Reading a topic back the way a transactions test checks it: every record up to the end an isolation level sees. */
import { PartitionFetcher, type IsolationLevel } from "../../providers/kafka-client";

export interface ReadBack {
  partition: number;
  offset: number;
  key: string | null;
  value: string | null;
  /** The value's bytes, for values that are not text. */
  valueBytes: Buffer | null;
}

export interface ReadToEnd {
  records: ReadBack[];
  /** Per partition, where reading stopped: its end as the isolation level sees it (read_committed: the last stable offset). */
  ends: Record<number, number>;
}

/** The records of `partitions` from offset 0 to their ends (taken when the read starts), read with Sluice's fetcher. */
export async function readToEnd(bootstrap: string, topic: string, partitions: number[], isolationLevel: IsolationLevel, timeoutMs = 20_000): Promise<ReadToEnd> {
  const fetcher = new PartitionFetcher({ bootstrapServers: [bootstrap], clientId: `read-to-end-${isolationLevel}`, isolationLevel, maxWaitMs: 50 });
  try {
    await fetcher.metadata.refresh([topic]);
    const ends = Object.fromEntries((await fetcher.latestOffsets({ [topic]: partitions })).map(({ partition, offset }) => [partition, offset]));
    const positions = new Map(partitions.map((partition) => [partition, 0]));
    const records: ReadBack[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const wanted = [...positions].filter(([partition, offset]) => offset < ends[partition]).map(([partition, offset]) => ({ topic, partition, offset }));
      if (wanted.length === 0) return { records, ends };
      if (Date.now() > deadline) throw new Error(`reading ${topic} ${isolationLevel}: still short of ${JSON.stringify(ends)} at ${JSON.stringify(Object.fromEntries(positions))}`);
      const answer = await fetcher.fetch(wanted);
      if (answer.errors.length > 0) await fetcher.recover(answer.errors, `reading ${topic}`);
      for (const batch of answer.batches) {
        for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) {
          records.push({ partition: batch.partition, offset: record.offset, key: record.key?.toString() ?? null, value: record.value?.toString() ?? null, valueBytes: record.value === null ? null : Buffer.from(record.value) });
        }
        positions.set(batch.partition, batch.nextOffset);
      }
    }
  } finally {
    fetcher.close();
  }
}

/** The values read, in partition and offset order. */
export function valuesOf({ records }: ReadToEnd): (string | null)[] {
  return [...records].sort((a, b) => a.partition - b.partition || a.offset - b.offset).map(({ value }) => value);
}
