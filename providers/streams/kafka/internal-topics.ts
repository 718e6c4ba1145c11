/**
 * Makes sure every topic an application needs exists: its input and output topics (created with
 * `num.partitions` when missing), and its repartition and changelog topics with the partition count of the sub-topology they
 * belong to (the largest input of that sub-topology), as Kafka Streams does. It returns once every topic has its
 * leaders, also when another instance of the application was creating them at the same moment.
 */
import type { Admin } from "kafkajs";
import type { CompiledTopology } from "../engine/compiled-topology";

/** `singles`: topics of the application's own outside its topology (a dead-letter topic), created with one partition. */
export async function ensureTopics(admin: Admin, topology: CompiledTopology, defaultPartitions: number, singles: readonly string[] = []): Promise<Map<string, number>> {
  const sinks = topology.subTopologies.flatMap((sub) => sub.sinkTopics).filter((topic) => !topology.definition.repartitionTopics.has(topic));
  const external = [...new Set([...topology.externalSourceTopics(), ...sinks])];
  const internal = topology.subTopologies.flatMap((sub) => [
    ...sub.sinkTopics.filter((topic) => topology.definition.repartitionTopics.has(topic)),
    ...sub.stores.map((store) => topology.changelogTopic(store)),
  ]);
  const existing = new Set(await admin.listTopics());
  const present = [...new Set([...external, ...internal, ...singles])].filter((topic) => existing.has(topic));
  const counts = new Map<string, number>();
  if (present.length > 0) {
    const { topics } = await admin.fetchTopicMetadata({ topics: present });
    for (const topic of topics) counts.set(topic.name, topic.partitions.length);
  }
  // Every missing topic is sized first and all are created in one request: each creation waits for its leaders.
  const missing = new Map<string, number>();
  const size = (topic: string, partitions: number) => {
    if (counts.has(topic)) return;
    counts.set(topic, partitions);
    missing.set(topic, partitions);
  };
  for (const topic of external) size(topic, defaultPartitions);
  for (const topic of singles) size(topic, 1);
  // Sub-topologies are in creation order, so a repartition topic's writer is sized before its reader.
  for (const sub of topology.subTopologies) {
    const width = Math.max(defaultPartitions > 0 ? 1 : 0, ...sub.sourceTopics.map((topic) => counts.get(topic) ?? 0));
    for (const topic of sub.sinkTopics) if (topology.definition.repartitionTopics.has(topic)) size(topic, width);
    for (const store of sub.stores) size(topology.changelogTopic(store), width);
  }
  if (missing.size > 0) {
    const created = await admin.createTopics({
      waitForLeaders: true,
      topics: [...missing].map(([topic, numPartitions]) => ({ topic, numPartitions, replicationFactor: 1 })),
    });
    // Another instance's creation was under way: kafkajs then answers at once, before the leaders are known.
    if (!created) await untilLed(admin, [...missing.keys()]);
  }
  return counts;
}

const LEADER_WAIT_MS = 30_000;

async function untilLed(admin: Admin, topics: string[]): Promise<void> {
  const deadline = Date.now() + LEADER_WAIT_MS;
  for (let delayMs = 20; ; delayMs = Math.min(delayMs * 2, 1_000)) {
    const listed = new Set(await admin.listTopics());
    if (topics.every((topic) => listed.has(topic))) {
      const { topics: layouts } = await admin.fetchTopicMetadata({ topics });
      if (layouts.every((layout) => layout.partitions.length > 0 && layout.partitions.every((partition) => partition.leader >= 0))) return;
    }
    if (Date.now() >= deadline) throw new Error(`topics ${topics.join(", ")} still have no leaders after ${LEADER_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}
