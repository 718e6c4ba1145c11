/**
 * A task as the Kafka runner holds it: the stream task, its local state, the input positions it has
 * applied, and the plan to bring its stores up to date from their changelogs.
 */
import type { TopicPartitionOffset } from "../../../kafka-client";
import type { Header } from "../../../../kernel/contracts/streams/processor";
import type { LevelDbConfigSetter } from "../../../../kernel/contracts/streams/stores";
import { type CompiledTopology, taskIdOf } from "../../engine/compiled-topology";
import { countingStore } from "../../engine/counting-store";
import { StreamTask, type TaskEnvironment } from "../../engine/stream-task";
import type { ComponentLogger } from "../../../../kernel/logger";
import type { CacheBudget } from "../../state/record-cache";
import { openTaskState, type TaskState } from "../../state/task-state";
import { decodeWriter } from "../changelog/changelog-fence";
import type { RestoreProgress, RestoreTarget } from "../changelog/changelog-restorer";
import { decodeChangelogPositions, TaskPositions } from "../changelog/task-positions";
import type { TopicEnds } from "../topics/topic-ends";
import { TopicPartitionMap } from "../topics/topic-partition";

export interface StoreCounters {
  read(store: string): void;
  write(store: string): void;
}

export interface RunTask {
  id: string;
  subTopologyId: number;
  partition: number;
  task: StreamTask;
  state: TaskState;
  /** What the task has applied: committed with its stores. */
  positions: TaskPositions;
  /** Store → offset of the last changelog record its committed data includes (or of the task's fence, after it). */
  changelogPositions: Map<string, number>;
  /** The producer id of the task's fences once written (see changelog-fence); its commits must land under it. */
  changelogWriter?: bigint;
  restoring: boolean;
  restored: Map<string, RestoreProgress>;
  /** Input records (`topic:partition:offset`) written to the dead-letter topic by a run that did not commit them. */
  deadLettered: Set<string>;
}

export interface OpenTaskOptions {
  topology: CompiledTopology;
  subTopologyId: number;
  partition: number;
  stateDir: string;
  configSetter?: LevelDbConfigSetter;
  /** The run's record cache bytes; none: updates are not folded. */
  cacheBudget?: CacheBudget;
  env: TaskEnvironment;
  counters: StoreCounters;
  logger: ComponentLogger;
}

export async function openRunTask(options: OpenTaskOptions): Promise<RunTask> {
  const { topology, subTopologyId, partition } = options;
  const id = taskIdOf(subTopologyId, partition);
  let currentTimestamp = () => Date.now();
  let currentHeaders: () => readonly Header[] | undefined = () => undefined;
  const state = await openTaskState({
    stateDir: options.stateDir,
    applicationId: topology.applicationId,
    taskId: id,
    stores: topology.storeSpecsOf(subTopologyId),
    configSetter: options.configSetter,
    cacheBudget: options.cacheBudget,
    currentTimestamp: () => currentTimestamp(),
    currentHeaders: () => currentHeaders(),
    logger: options.logger,
  });
  const stores = {
    store: (name: string) =>
      countingStore(
        state.store(name),
        () => options.counters.read(name),
        () => options.counters.write(name),
      ),
    readOnly: (name: string) => state.readOnly(name),
    spec: (name: string) => state.spec(name),
  };
  const task = new StreamTask(topology, subTopologyId, partition, stores, options.env);
  currentTimestamp = () => Math.max(task.currentRecordTimestamp, 0);
  currentHeaders = () => task.currentHeaders();
  return {
    id,
    subTopologyId,
    partition,
    task,
    state,
    ...committedPositions(state),
    restoring: false,
    deadLettered: new Set(),
    restored: new Map(topology.subTopologies[subTopologyId].stores.map((store) => [store, { records: 0 }])),
  };
}

/**
 * Why the task's local state cannot belong to the topics as they are now, or undefined when it can: a position
 * checkpointed past the end of its input partition or changelog means the topics were deleted and created again
 * (or a broker's memory store started empty) since the state was written. Kept, it would skip the new records
 * as already applied. Or a store's data is laid out for another store type than the topology's now.
 */
export async function staleStateReason(ends: TopicEnds, topology: CompiledTopology, task: Pick<RunTask, "state" | "partition" | "positions" | "changelogPositions">): Promise<string | undefined> {
  const mismatch = task.state.layoutMismatch();
  if (mismatch !== undefined) return mismatch;
  const checks: { topic: string; next: number }[] = [];
  for (const [{ topic, partition }, next] of task.positions.inputs.entries()) if (partition === task.partition) checks.push({ topic, next });
  for (const [store, position] of task.changelogPositions) checks.push({ topic: topology.changelogTopic(store), next: position + 1 });
  for (const { topic, next } of checks) {
    const end = (await ends.of(topic, task.partition))?.high ?? 0;
    if (next > end) return `${topic}:${task.partition} ends at offset ${end}, the local state has applied it up to ${next}`;
  }
  return undefined;
}

/** The group's committed offsets, as the consumer took its assignment over at them (-1: none). */
export function committedOffsets(offsets: readonly TopicPartitionOffset[]): TopicPartitionMap<number> {
  const committed = new TopicPartitionMap<number>();
  for (const { topic, partition, offset } of offsets) committed.set(topic, partition, offset);
  return committed;
}

/**
 * Whether the task's local state has applied at least what the group committed for each of its input
 * partitions. When it has not, another member processed the task since this state was written: its stores
 * miss that member's updates, which only the changelog holds.
 */
export function localStateIsCurrent(committed: TopicPartitionMap<number>, topology: CompiledTopology, task: RunTask): boolean {
  return topology.subTopologies[task.subTopologyId].sourceTopics.every(
    (topic) => (committed.get(topic, task.partition) ?? -1) <= (task.positions.inputs.get(topic, task.partition) ?? -1),
  );
}

/** Whether the task's local state has committed something, and at least what the group has: it needs no restore. */
export function localStateIsAuthoritative(committed: TopicPartitionMap<number>, topology: CompiledTopology, task: RunTask): boolean {
  return !task.positions.isEmpty() && localStateIsCurrent(committed, topology, task);
}

/**
 * What to read from each changelog, up to `ends` (store → the task's fence there under at_least_once, the
 * changelog's end under exactly_once_v2). Intact local state that is at or ahead of the group's committed input
 * offsets is authoritative: a changelog tail beyond its checkpoint comes from a batch that was never committed and
 * will be processed again, so applying it would count that batch twice (under exactly_once_v2 that tail is an aborted
 * transaction's, which a read_committed restore would skip anyway). Otherwise (no local state, or another instance
 * moved the task on meanwhile) the store replays its changelog from its checkpoint: under at_least_once with the
 * partition's writer there as the owner to begin with, under exactly_once_v2 every committed transaction.
 */
export function planRestore(committed: TopicPartitionMap<number>, ends: ReadonlyMap<string, number>, topology: CompiledTopology, task: RunTask, exactlyOnce: boolean): RestoreTarget[] {
  const stores = topology.loggedStoresOf(task.subTopologyId);
  const localIsCurrent = localStateIsAuthoritative(committed, topology, task);
  const writers = task.state.checkpoint().changelogWriters;
  return stores.map((store) => {
    const to = ends.get(store)!;
    const position = task.changelogPositions.get(store);
    const from = localIsCurrent ? to : position === undefined ? 0 : position + 1;
    const target = { state: task.state, store, topic: topology.changelogTopic(store), partition: task.partition, from, to, restored: task.restored.get(store)! };
    if (exactlyOnce) return { ...target, followMarkers: false, skipFences: true };
    return { ...target, followMarkers: stores.length === 1, writer: decodeWriter(writers[store]) };
  });
}

/**
 * Under exactly_once_v2, after a restore from the changelogs: the restored state holds every committed transaction,
 * so it is exact at the group's committed offsets, which become the task's positions (its repartition origins start
 * afresh: read_committed, a repartition topic holds no record sent twice).
 */
export async function commitRestoredPositions(committed: TopicPartitionMap<number>, topology: CompiledTopology, task: RunTask): Promise<void> {
  const positions = TaskPositions.decode({});
  for (const topic of topology.subTopologies[task.subTopologyId].sourceTopics) {
    const offset = committed.get(topic, task.partition);
    if (offset !== undefined && offset >= 0) positions.inputs.set(topic, task.partition, offset);
  }
  await task.state.commit({ inputPositions: positions.encode(), replaceInputPositions: true });
}

/** The positions the task's state last committed: after opening, and again after a restore that followed commit markers. */
export function committedPositions(state: TaskState): Pick<RunTask, "positions" | "changelogPositions"> {
  const checkpoint = state.checkpoint();
  return {
    positions: TaskPositions.decode(checkpoint.inputPositions),
    changelogPositions: decodeChangelogPositions(checkpoint.changelogPositions),
  };
}
