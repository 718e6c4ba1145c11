/**
 * Makes sure every topic an application needs exists: its input and output topics (created with `num.partitions` when
 * missing and `auto.create.topics` allows it; otherwise a missing one stops the application, naming it), and its
 * repartition and changelog topics, always, with the partition count of the sub-topology they
 * belong to (the largest input of that sub-topology), as Kafka Streams does. It returns once every topic has its
 * leaders, also when another instance of the application was creating them at the same moment.
 *
 * Created topics get `replication.factor` (-1: the broker's default). The internal ones get the configs Kafka Streams
 * gives them, under the user's `topic.*`: a changelog is compacted, so that it keeps the latest value of each key
 * however old — and a window or session store's also deleted past the store's retention plus
 * `windowstore.changelog.additional.retention.ms`; a repartition topic keeps its records until the application
 * purges them (retention.ms=-1, DeleteRecords), in 50 MiB segments; all take their records' own timestamps.
 * Inputs of one sub-topology must have the same number of partitions (its tasks join them partition by partition), and
 * an existing internal topic must have its sub-topology's: otherwise the application stops with an error naming them.
 */
import type { ClusterAdmin } from "../../../kafka-client";
import type { StoreSpec } from "../../../../kernel/contracts/streams/stores";
import type { CompiledTopology } from "../../engine/compiled-topology";
import { DEFAULT_RETENTION_MS } from "../../state";

export interface TopicCreation {
  /** Whether missing input and output topics are created (`auto.create.topics`). */
  autoCreate: boolean;
  defaultPartitions: number;
  /** -1: the broker's default. */
  replicationFactor: number;
  /** Configs of the repartition and changelog topics created (`topic.*` without the prefix). */
  internalConfigs: Record<string, string>;
  /** Added to a window or session store's retention for its changelog's `retention.ms`. */
  windowChangelogAdditionalRetentionMs: number;
  /** Topics of the application's own outside its topology (a dead-letter topic), created with one partition. */
  singles: readonly string[];
}

export async function ensureTopics(admin: ClusterAdmin, topology: CompiledTopology, creation: TopicCreation): Promise<Map<string, number>> {
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
  const counts = present.length > 0 ? await admin.partitionCounts(present) : new Map<string, number>();
  // Every missing topic is sized first and all are created in one request: each creation waits for its leaders.
  const missing = new Map<string, number>();
  const size = (topic: string, partitions: number) => {
    if (counts.has(topic)) return;
    counts.set(topic, partitions);
    missing.set(topic, partitions);
  };
  for (const topic of external) size(topic, defaultPartitions);
  for (const topic of singles) size(topic, 1);
  const changelogs = new Map<string, StoreSpec>();
  // Sub-topologies are in creation order, so a repartition topic's writer is sized before its reader.
  for (const sub of topology.subTopologies) {
    const width = Math.max(defaultPartitions > 0 ? 1 : 0, ...sub.sourceTopics.map((topic) => counts.get(topic) ?? 0));
    const narrower = sub.sourceTopics.filter((topic) => (counts.get(topic) ?? width) !== width);
    if (narrower.length > 0) throw new Error(copartitioningError(sub.sourceTopics, counts, "are joined partition by partition"));
    for (const topic of sub.sinkTopics) if (topology.definition.repartitionTopics.has(topic)) size(topic, width);
    for (const store of sub.stores) {
      const changelog = topology.changelogTopic(store);
      changelogs.set(changelog, topology.storeSpec(store)!);
      size(changelog, width);
      if (counts.get(changelog) !== width) throw new Error(copartitioningError([changelog, ...sub.sourceTopics], counts, `hold store '${store}' of their tasks`));
    }
  }
  if (missing.size > 0) {
    const configsOf = (topic: string): Record<string, string> => {
      const store = changelogs.get(topic);
      const streams = store ? changelogConfigs(store, creation.windowChangelogAdditionalRetentionMs) : topology.definition.repartitionTopics.has(topic) ? REPARTITION_CONFIGS : undefined;
      return streams ? { ...streams, ...creation.internalConfigs } : {};
    };
    // Resolves once every partition has its leader, also while another instance's creation of them is under way.
    await admin.createTopics([...missing].map(([name, partitions]) => ({ name, partitions, replicationFactor: creation.replicationFactor, configs: configsOf(name) })));
  }
  return counts;
}

/** Kafka Streams' configs of a repartition topic: kept until purged by the application. */
const REPARTITION_CONFIGS: Readonly<Record<string, string>> = { "cleanup.policy": "delete", "retention.ms": "-1", "segment.bytes": "52428800", "message.timestamp.type": "CreateTime" };

/** Kafka Streams' configs of a store's changelog: compacted, and for window and session stores also deleted past their retention. */
function changelogConfigs(store: StoreSpec, additionalRetentionMs: number): Record<string, string> {
  if (store.type === "key_value" || store.type === "timestamped_key_value") return { "cleanup.policy": "compact", "message.timestamp.type": "CreateTime" };
  const retentionMs = (store.retentionMs ?? DEFAULT_RETENTION_MS) + additionalRetentionMs;
  return { "cleanup.policy": "compact,delete", "retention.ms": String(retentionMs), "message.timestamp.type": "CreateTime" };
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
