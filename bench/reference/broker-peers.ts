/**
 * The brokers side by side under kcat: each round produces 1 KiB values to a new one-partition topic of each broker
 * and consumes them back (bench/broker/kcat-throughput), the brokers in turns, and gives the embedded broker's MB/s
 * as a share of Apache Kafka's.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Admin } from "kafkajs";
import { eventually } from "../../test/helpers/eventually";
import { kcatRows, mbPerSecond } from "../broker/kcat-throughput";

export interface PeerBroker {
  name: "embedded broker" | "Apache Kafka";
  bootstrap: string;
  /** Called with each new topic before it is measured: throws unless the durability under test is in force on it. */
  checkTopic?: (topic: string) => Promise<void>;
}

export interface KcatRound {
  produce: { embedded: number; kafka: number };
  consume: { embedded: number; kafka: number };
}

const VALUE_BYTES = 1024;

export function adminOf(bootstrap: string) {
  return new Kafka({ clientId: "peers-bench", brokers: bootstrap.split(","), logLevel: logLevel.NOTHING }).admin();
}

/**
 * Creates the topics and waits until every partition has a leader. Not kafkajs' waitForLeaders: a busy Kafka broker
 * can answer metadata of a topic its controller just made with UNKNOWN_TOPIC_OR_PARTITION, which that does not retry.
 */
export async function createReadyTopics(admin: Admin, topics: string[], partitions: number): Promise<void> {
  await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: partitions })) });
  await eventually(
    async () => {
      const metadata = await admin.fetchTopicMetadata({ topics });
      return metadata.topics.every((topic) => topic.partitions.length === partitions && topic.partitions.every((partition) => partition.leader >= 0));
    },
    { timeoutMs: 60_000, intervalMs: 100, what: `leaders of ${topics.join(", ")}` },
  );
}

/** MB/s of kcat producing and then consuming `megabytes` on a new topic, deleted afterwards. */
async function measureBroker(broker: PeerBroker, dir: string, megabytes: number, topic: string): Promise<{ produce: number; consume: number }> {
  const admin = adminOf(broker.bootstrap);
  await admin.connect();
  try {
    await createReadyTopics(admin, [topic], 1);
    await broker.checkTopic?.(topic);
    const [produced, consumed] = await kcatRows(broker.bootstrap, dir, VALUE_BYTES, megabytes, topic);
    await admin.deleteTopics({ topics: [topic] });
    return { produce: mbPerSecond(produced), consume: mbPerSecond(consumed) };
  } finally {
    await admin.disconnect();
  }
}

/** `rounds` rounds, the brokers in turns (which goes first alternates); `label` names the topics. */
export async function kcatRounds(embedded: PeerBroker, kafka: PeerBroker, rounds: number, megabytes: number, label: string): Promise<KcatRound[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "peers-kcat-"));
  const results: KcatRound[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? [embedded, kafka] : [kafka, embedded];
      const figures = new Map<PeerBroker, { produce: number; consume: number }>();
      for (const broker of order) figures.set(broker, await measureBroker(broker, dir, megabytes, `peers-kcat-${label}-${round}`));
      const [ours, theirs] = [figures.get(embedded)!, figures.get(kafka)!];
      results.push({ produce: { embedded: ours.produce, kafka: theirs.produce }, consume: { embedded: ours.consume, kafka: theirs.consume } });
    }
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
