/**
 * What a read_committed consumer of an exactly_once_v2 application's output topic sees: every committed record of
 * every partition, read with Sluice's fetcher, and the checks the exactly-once tests make on them.
 */
import { PartitionFetcher } from "../../../providers/kafka-client";
import { readToEnd, type ReadBack } from "../../helpers/read-to-end";

/** Every record of `topic` (all its partitions) a read_committed reader sees now, in partition and offset order. */
export async function committedRecords(bootstrap: string, topic: string): Promise<ReadBack[]> {
  const fetcher = new PartitionFetcher({ bootstrapServers: [bootstrap], clientId: "committed-outputs" });
  let partitions: number;
  try {
    await fetcher.metadata.refresh([topic]);
    partitions = fetcher.metadata.partitionCount(topic) ?? 0;
  } finally {
    fetcher.close();
  }
  const read = await readToEnd(bootstrap, topic, [...Array(partitions).keys()], "read_committed", 60_000);
  return [...read.records].sort((a, b) => a.partition - b.partition || a.offset - b.offset);
}

/** How often each key was written. */
export function keyCounts(records: readonly ReadBack[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { key } of records) counts.set(key ?? "", (counts.get(key ?? "") ?? 0) + 1);
  return counts;
}

/**
 * Each key's long values (a count topic's), in the order they were written. Appended in place: an uncached count topic
 * holds hundreds of thousands of records, and copying a key's values for each one took a minute of CPU.
 */
export function longsByKey(records: readonly ReadBack[]): Map<string, number[]> {
  const byKey = new Map<string, number[]>();
  for (const { key, valueBytes } of records) {
    const values = byKey.get(key ?? "") ?? [];
    values.push(Number(valueBytes!.readBigInt64BE()));
    byKey.set(key ?? "", values);
  }
  return byKey;
}

/** A count written again after a crash shows as a value that does not go up: the keys whose values ever fail to. */
export function countsWrittenTwice(byKey: ReadonlyMap<string, readonly number[]>): string[] {
  return [...byKey].filter(([, values]) => values.some((value, i) => i > 0 && value <= values[i - 1])).map(([key, values]) => `${key}: ${values.join(",")}`);
}
