/**
 * Makes sure every topic an application needs exists: its input and output topics (created with `num.partitions` when
 * missing and `auto.create.topics` allows it; otherwise a missing one stops the application, naming it), and its
 * repartition and changelog topics, always, with the partition count of the sub-topology they
 * belong to, as Kafka Streams does. It returns once every topic has its
 * leaders, also when another instance of the application was creating them at the same moment.
 *
 * Created topics get `replication.factor` (-1: the broker's default). The internal ones get the configs Kafka Streams
 * gives them, under the user's `topic.*`: a changelog is compacted, so that it keeps the latest value of each key
 * however old — and a window or session store's also deleted past the store's retention plus
 * `windowstore.changelog.additional.retention.ms` (a stream-stream join's window stores only deleted), a versioned
 * store's compacted no sooner than its history retention plus a day; a repartition topic keeps its records until the application
 * purges them (retention.ms=-1, DeleteRecords), in 50 MiB segments; all take their records' own timestamps.
 * Inputs of one sub-topology must have the same number of partitions (its tasks join them partition by partition):
 * a repartition topic gets the number of the inputs it is read with (see subTopologyWidths), and an input topic or an
 * explicitly sized repartition topic that differs stops the application with an error naming them; so does an
 * existing internal topic of another size, as in Kafka Streams.
 */
import type { ClusterAdmin } from "../../../kafka-client";
import type { StoreSpec } from "../../../../kernel/contracts/streams/stores";
import type { CompiledTopology } from "../../engine/compiled-topology";
import { describeLinks } from "../../topology/sub-topologies";
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
    ...topology.loggedStoresOf(sub.id).map((store) => topology.changelogTopic(store)),
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
  const widthOf = subTopologyWidths(topology, counts, defaultPartitions);
  for (const sub of topology.subTopologies) {
    const { partitions: width, inputs } = widthOf(sub.id);
    // Input topics of another size stopped widthOf: only an internal topic that existed already can differ here.
    const sizeInternal = (topic: string) => {
      size(topic, width);
      if (counts.get(topic) !== width) throw new Error(existingInternalTopicError(topic, counts.get(topic)!, width, inputs));
    };
    for (const topic of sub.sourceTopics) if (topology.definition.repartitionTopics.has(topic)) sizeInternal(topic);
    for (const store of topology.loggedStoresOf(sub.id)) {
      const changelog = topology.changelogTopic(store);
      changelogs.set(changelog, topology.storeSpec(store)!);
      sizeInternal(changelog);
    }
  }
  if (missing.size > 0) {
    const configsOf = (topic: string): Record<string, string> => {
      const store = changelogs.get(topic);
      const streams = store ? kafkaStreamsChangelogConfigs(store, creation.windowChangelogAdditionalRetentionMs) : topology.definition.repartitionTopics.has(topic) ? REPARTITION_CONFIGS : undefined;
      // A store's own changelog configs (withLoggingEnabled) come over the application's, as in Kafka Streams.
      return streams ? { ...streams, ...creation.internalConfigs, ...store?.changelogConfigs } : {};
    };
    // Resolves once every partition has its leader, also while another instance's creation of them is under way.
    await admin.createTopics([...missing].map(([name, partitions]) => ({ name, partitions, replicationFactor: creation.replicationFactor, configs: configsOf(name) })));
  }
  return counts;
}

/** How many tasks (partitions) a sub-topology has, and the input topics whose partitions set that. */
interface Width {
  partitions: number;
  inputs: readonly string[];
}

/**
 * How many tasks (partitions) each sub-topology has, as Kafka Streams sizes its co-partition groups: a sub-topology
 * reading input topics, or repartition topics of a fixed size, has as many as those (which must agree); one reading
 * only repartition topics, as many as the widest sub-topology writing them. Its repartition inputs then get that many
 * partitions, so a re-keyed stream meets the partitions of the table it joins.
 */
function subTopologyWidths(topology: CompiledTopology, counts: Map<string, number>, defaultPartitions: number): (id: number) => Width {
  const { repartitionTopics, repartitionPartitions } = topology.definition;
  const widths = new Map<number, Width>();
  const computing = new Set<number>();
  const widthOf = (id: number): Width => {
    const known = widths.get(id);
    if (known !== undefined) return known;
    const sub = topology.subTopologies[id];
    const fixed = sub.sourceTopics.flatMap((topic) => {
      const count = repartitionTopics.has(topic) ? repartitionPartitions.get(topic) : counts.get(topic);
      return count === undefined ? [] : [[topic, count] as const];
    });
    if (new Set(fixed.map(([, count]) => count)).size > 1) {
      throw new Error(copartitioningError(fixed.map(([topic]) => topic), new Map(fixed), `are joined partition by partition${describeLinks(sub)}`));
    }
    computing.add(id);
    const writers = sub.sourceTopics
      .filter((topic) => repartitionTopics.has(topic))
      .flatMap((topic) => topology.subTopologies.filter((writer) => writer.sinkTopics.includes(topic) && !computing.has(writer.id)))
      .map((writer) => widthOf(writer.id));
    const partitions = fixed.length > 0 ? fixed[0][1] : Math.max(defaultPartitions > 0 ? 1 : 0, ...writers.map((writer) => writer.partitions));
    const inputs = fixed.length > 0 ? fixed.map(([topic]) => topic) : writers.filter((writer) => writer.partitions === partitions).flatMap((writer) => writer.inputs);
    computing.delete(id);
    const width = { partitions, inputs: [...new Set(inputs)] };
    widths.set(id, width);
    return width;
  };
  return widthOf;
}

/** Kafka Streams' configs of a repartition topic: kept until purged by the application. */
const REPARTITION_CONFIGS: Readonly<Record<string, string>> = { "cleanup.policy": "delete", "retention.ms": "-1", "segment.bytes": "52428800", "message.timestamp.type": "CreateTime" };

/**
 * Kafka Streams' configs of a store's changelog: compacted, and for window and session stores also deleted past their
 * retention — only deleted for a window store that retains duplicates (a stream-stream join's), whose every record
 * has a key of its own; a versioned store's compacted only once a version is older than the history retention plus a
 * day. What the store asks for (StoreSpec.changelogConfigs) goes over these and the application's.
 */
function kafkaStreamsChangelogConfigs(store: StoreSpec, additionalRetentionMs: number): Record<string, string> {
  return { ...kindConfigs(store, additionalRetentionMs), "message.timestamp.type": "CreateTime" };
}

/** Kafka Streams' extra compaction lag of a versioned store's changelog (a fixed day, not the window stores' config). */
const VERSIONED_ADDITIONAL_COMPACTION_LAG_MS = 24 * 60 * 60 * 1000;

function kindConfigs(store: StoreSpec, additionalRetentionMs: number): Record<string, string> {
  if (store.type === "key_value" || store.type === "timestamped_key_value") return { "cleanup.policy": "compact" };
  // Compaction must leave the versions still inside the history retention: each is a record of the same key.
  if (store.type === "versioned_key_value") return { "cleanup.policy": "compact", "min.compaction.lag.ms": String((store.historyRetentionMs ?? 0) + VERSIONED_ADDITIONAL_COMPACTION_LAG_MS) };
  const retentionMs = String((store.retentionMs ?? DEFAULT_RETENTION_MS) + additionalRetentionMs);
  return { "cleanup.policy": store.retainDuplicates ? "delete" : "compact,delete", "retention.ms": retentionMs };
}

/**
 * The partition counts of output topics a TopicNameExtractor named, known only once records name them: those
 * missing are created as `ensureTopics` creates outputs (or stop the application, naming them).
 */
export async function ensureNamedOutputTopics(admin: ClusterAdmin, topics: readonly string[], creation: TopicCreation): Promise<Map<string, number>> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((topic) => !existing.has(topic));
  if (missing.length > 0) {
    if (!creation.autoCreate) {
      throw new Error(`topics missing on the cluster: ${missing.map((topic) => `${topic} (output named by a TopicNameExtractor)`).join(", ")}; create them, or set streams.auto.create.topics=true to have Sluice create them`);
    }
    // Resolves once every partition has its leader.
    await admin.createTopics(missing.map((name) => ({ name, partitions: creation.defaultPartitions, replicationFactor: creation.replicationFactor })));
  }
  return admin.partitionCounts([...topics]);
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

/** Kafka Streams refuses an existing internal topic of another size too ("has invalid partitions"). */
function existingInternalTopicError(topic: string, partitions: number, expected: number, inputs: readonly string[]): string {
  const plural = (count: number) => `${count} partition${count === 1 ? "" : "s"}`;
  const sizing = inputs.filter((input) => input !== topic);
  const why = sizing.length === 0 ? "" : ` (the partitions of ${sizing.join(", ")}, which size its tasks)`;
  return `internal topic ${topic} has ${plural(partitions)}, expected ${expected}${why}; delete it so that it is created again`;
}
