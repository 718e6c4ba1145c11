/**
 * Makes sure every topic an application needs exists: its input and output topics (created with `num.partitions` when
 * missing and `auto.create.topics` allows it; otherwise a missing one stops the application, naming it), and its
 * repartition and changelog topics, always, with the partition count of the sub-topology they
 * belong to (the largest input of that sub-topology), as Kafka Streams does. It returns once every topic has its
 * leaders, also when another instance of the application was creating them at the same moment.
 *
 * Created topics get `replication.factor` (-1: the broker's default); the internal ones also the `topic.*` configs,
 * and changelogs `cleanup.policy=compact`, so a store's changelog keeps its latest value per key however old — unless
 * the store asks otherwise (a stream-stream join's window stores, whose every record has a key of its own, are
 * `cleanup.policy=delete` with a retention, as in Kafka Streams).
 * Inputs of one sub-topology must have the same number of partitions (its tasks join them partition by partition), and
 * an existing internal topic must have its sub-topology's: otherwise the application stops with an error naming them.
 */
import type { Admin, ITopicConfig } from "kafkajs";
import type { CompiledTopology } from "../../engine/compiled-topology";

export interface TopicCreation {
  /** Whether missing input and output topics are created (`auto.create.topics`). */
  autoCreate: boolean;
  defaultPartitions: number;
  /** -1: the broker's default. */
  replicationFactor: number;
  /** Configs of the repartition and changelog topics created (`topic.*` without the prefix). */
  internalConfigs: Record<string, string>;
  /** Topics of the application's own outside its topology (a dead-letter topic), created with one partition. */
  singles: readonly string[];
}

export async function ensureTopics(admin: Admin, topology: CompiledTopology, creation: TopicCreation): Promise<Map<string, number>> {
  const { defaultPartitions, singles } = creation;
  const sinks = topology.subTopologies.flatMap((sub) => sub.sinkTopics).filter((topic) => !topology.definition.repartitionTopics.has(topic));
  const external = [...new Set([...topology.externalSourceTopics(), ...sinks])];
  const internal = topology.subTopologies.flatMap((sub) => [
    ...sub.sinkTopics.filter((topic) => topology.definition.repartitionTopics.has(topic)),
    ...sub.stores.map((store) => topology.changelogTopic(store)),
  ]);
  const existing = new Set(await admin.listTopics());
  const present = [...new Set([...external, ...internal, ...singles])].filter((topic) => existing.has(topic));
  if (!creation.autoCreate) assertExternalTopicsExist(topology, sinks, existing);
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
  /** Changelog topic → the configs its store asks for (see StoreDef.changelogConfigs). */
  const changelogs = new Map<string, Readonly<Record<string, string>>>();
  // Sub-topologies are in creation order, so a repartition topic's writer is sized before its reader.
  for (const sub of topology.subTopologies) {
    const width = Math.max(defaultPartitions > 0 ? 1 : 0, ...sub.sourceTopics.map((topic) => counts.get(topic) ?? 0));
    const narrower = sub.sourceTopics.filter((topic) => (counts.get(topic) ?? width) !== width);
    if (narrower.length > 0) throw new Error(copartitioningError(sub.sourceTopics, counts, "are joined partition by partition"));
    for (const topic of sub.sinkTopics) if (topology.definition.repartitionTopics.has(topic)) size(topic, width);
    for (const store of sub.stores) {
      const changelog = topology.changelogTopic(store);
      changelogs.set(changelog, topology.definition.stores.get(store)?.changelogConfigs ?? {});
      size(changelog, width);
      if (counts.get(changelog) !== width) throw new Error(copartitioningError([changelog, ...sub.sourceTopics], counts, `hold store '${store}' of their tasks`));
    }
  }
  if (missing.size > 0) {
    const configsOf = (topic: string): ITopicConfig["configEntries"] => {
      const internal = changelogs.has(topic) || topology.definition.repartitionTopics.has(topic);
      const changelog = changelogs.get(topic);
      const configs = internal ? { ...creation.internalConfigs, ...(changelog === undefined ? {} : { "cleanup.policy": "compact", ...changelog }) } : {};
      return Object.entries(configs).map(([name, value]) => ({ name, value }));
    };
    await admin.createTopics({
      // kafkajs's own wait polls the metadata only after its first retry delay (~100 ms, most of a start-up on one
      // broker); untilLed asks at once. It also covers another instance's creation under way, when kafkajs
      // answers at once, before the leaders are known.
      waitForLeaders: false,
      topics: [...missing].map(([topic, numPartitions]) => ({ topic, numPartitions, replicationFactor: creation.replicationFactor, configEntries: configsOf(topic) })),
    });
    await untilLed(admin, [...missing.keys()]);
  }
  return counts;
}

function assertExternalTopicsExist(topology: CompiledTopology, sinks: readonly string[], existing: ReadonlySet<string>): void {
  const missing = [
    ...topology.externalSourceTopics().filter((topic) => !existing.has(topic)).map((topic) => `${topic} (input)`),
    ...[...new Set(sinks)].filter((topic) => !existing.has(topic)).map((topic) => `${topic} (output)`),
  ];
  if (missing.length > 0) {
    throw new Error(`topics missing on the cluster: ${missing.join(", ")}; create them, or set streams.auto.create.topics=true to have Sluice create them`);
  }
}

function copartitioningError(topics: readonly string[], counts: Map<string, number>, why: string): string {
  const listed = topics.map((topic) => `${topic} (${counts.get(topic) ?? "?"})`).join(", ");
  return `topics ${listed} must have the same number of partitions: they ${why}; create them alike, or repartition the input`;
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
