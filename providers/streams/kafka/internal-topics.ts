/**
 * Makes sure every topic an application needs exists: its input and output topics (created with
 * `num.partitions` when missing), and its repartition and changelog topics with the partition count of the sub-topology they
 * belong to (the largest input of that sub-topology), as Kafka Streams does.
 */
import type { Admin } from "kafkajs";
import type { CompiledTopology } from "../engine/compiled-topology";

export async function ensureTopics(admin: Admin, topology: CompiledTopology, defaultPartitions: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const existing = new Set(await admin.listTopics());
  const describe = async (topics: string[]) => {
    const present = topics.filter((topic) => existing.has(topic));
    if (present.length === 0) return;
    const { topics: metadata } = await admin.fetchTopicMetadata({ topics: present });
    for (const topic of metadata) counts.set(topic.name, topic.partitions.length);
  };
  const create = async (wanted: Map<string, number>) => {
    const missing = [...wanted].filter(([topic]) => !existing.has(topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map(([topic, numPartitions]) => ({ topic, numPartitions, replicationFactor: 1 })),
    });
    for (const [topic, partitions] of missing) {
      existing.add(topic);
      counts.set(topic, partitions);
    }
  };

  const sinks = topology.subTopologies.flatMap((sub) => sub.sinkTopics).filter((topic) => !topology.definition.repartitionTopics.has(topic));
  const inputs = [...new Set([...topology.externalSourceTopics(), ...sinks])];
  await describe(inputs);
  await create(new Map(inputs.filter((topic) => !counts.has(topic)).map((topic) => [topic, defaultPartitions])));

  // Sub-topologies are in creation order, so a repartition topic's writer is sized before its reader.
  for (const sub of topology.subTopologies) {
    await describe(sub.sourceTopics);
    const known = sub.sourceTopics.map((topic) => counts.get(topic) ?? 0);
    const width = Math.max(defaultPartitions > 0 ? 1 : 0, ...known);
    const writes = new Map<string, number>();
    for (const topic of sub.sinkTopics) {
      if (topology.definition.repartitionTopics.has(topic)) writes.set(topic, width);
    }
    for (const store of sub.stores) writes.set(topology.changelogTopic(store), width);
    await describe([...writes.keys()]);
    await create(new Map([...writes].filter(([topic]) => !counts.has(topic))));
  }
  return counts;
}
