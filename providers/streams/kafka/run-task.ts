/**
 * A task as the Kafka runner holds it: the stream task, its local state, the input positions it has
 * applied, and the plan to bring its stores up to date from their changelogs.
 */
import type { Admin } from "kafkajs";
import type { LevelDbConfigSetter } from "../../../kernel/contracts/streams/stores";
import { type CompiledTopology, taskIdOf } from "../engine/compiled-topology";
import { countingStore } from "../engine/counting-store";
import { StreamTask, type TaskEnvironment } from "../engine/stream-task";
import type { ComponentLogger } from "../../../kernel/logger";
import { openTaskState, type TaskState } from "../state/task-state";
import type { RestoreProgress, RestoreTarget } from "./changelog-restorer";
import { DEAD_LETTER_POSITION_PREFIX } from "./dead-letters";
import { ORIGIN_POSITION_PREFIX, OriginMarks } from "./repartition-origin";
import type { TopicEnds } from "./topic-ends";

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
  /** `topic:partition` → next offset to apply. */
  inputPositions: Record<string, string>;
  /** The repartition records applied, kept in `inputPositions` (see repartition-origin). */
  origins: OriginMarks;
  changelogPositions: Record<string, string>;
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
  env: TaskEnvironment;
  counters: StoreCounters;
  logger: ComponentLogger;
}

export async function openRunTask(options: OpenTaskOptions): Promise<RunTask> {
  const { topology, subTopologyId, partition } = options;
  const id = taskIdOf(subTopologyId, partition);
  let currentTimestamp = () => Date.now();
  const state = await openTaskState({
    stateDir: options.stateDir,
    applicationId: topology.applicationId,
    taskId: id,
    stores: topology.storeSpecsOf(subTopologyId),
    configSetter: options.configSetter,
    currentTimestamp: () => currentTimestamp(),
    logger: options.logger,
  });
  const stores = {
    store: (name: string) =>
      countingStore(
        state.store(name),
        () => options.counters.read(name),
        () => options.counters.write(name),
      ),
  };
  const task = new StreamTask(topology, subTopologyId, partition, stores, options.env);
  currentTimestamp = () => Math.max(task.currentStreamTime, 0);
  const checkpoint = state.checkpoint();
  const inputPositions = { ...checkpoint.inputPositions };
  return {
    id,
    subTopologyId,
    partition,
    task,
    state,
    inputPositions,
    origins: new OriginMarks(inputPositions),
    changelogPositions: { ...checkpoint.changelogPositions },
    restoring: false,
    deadLettered: new Set(),
    restored: new Map(topology.subTopologies[subTopologyId].stores.map((store) => [store, { records: 0 }])),
  };
}

/**
 * Why the task's local state cannot belong to the topics as they are now, or undefined when it can: a position
 * checkpointed past the end of its input partition or changelog means the topics were deleted and created again
 * (or a broker's memory store started empty) since the state was written. Kept, it would skip the new records
 * as already applied.
 */
export async function staleStateReason(ends: TopicEnds, topology: CompiledTopology, task: RunTask): Promise<string | undefined> {
  const checks: { topic: string; next: number }[] = [];
  for (const [key, offset] of Object.entries(task.inputPositions)) {
    const colon = key.lastIndexOf(":");
    // Origin marks ("origin:<topic>:<partition>") are offsets of another task's input, checked by that task.
    if (key.startsWith(ORIGIN_POSITION_PREFIX) || key.startsWith(DEAD_LETTER_POSITION_PREFIX) || Number(key.slice(colon + 1)) !== task.partition) continue;
    checks.push({ topic: key.slice(0, colon), next: Number(offset) });
  }
  for (const [store, position] of Object.entries(task.changelogPositions)) checks.push({ topic: topology.changelogTopic(store), next: Number(position) + 1 });
  for (const { topic, next } of checks) {
    const end = (await ends.of(topic, task.partition))?.high ?? 0;
    if (next > end) return `${topic}:${task.partition} ends at offset ${end}, the local state has applied it up to ${next}`;
  }
  return undefined;
}

/** The group's committed offsets of the input partitions of `tasks`, keyed `topic:partition` (-1: none). */
export async function committedInputs(admin: Admin, topology: CompiledTopology, tasks: readonly RunTask[]): Promise<Map<string, number>> {
  const topics = [...new Set(tasks.flatMap((task) => topology.subTopologies[task.subTopologyId].sourceTopics))];
  const committed = new Map<string, number>();
  if (topics.length === 0) return committed;
  for (const { topic, partitions } of await admin.fetchOffsets({ groupId: topology.applicationId, topics })) {
    for (const { partition, offset } of partitions) committed.set(`${topic}:${partition}`, Number(offset));
  }
  return committed;
}

/**
 * Whether the task's local state has applied at least what the group committed for each of its input
 * partitions. When it has not, another member processed the task since this state was written: its stores
 * miss that member's updates, which only the changelog holds.
 */
export function localStateIsCurrent(committed: Map<string, number>, topology: CompiledTopology, task: RunTask): boolean {
  return topology.subTopologies[task.subTopologyId].sourceTopics.every((topic) => {
    const key = `${topic}:${task.partition}`;
    return (committed.get(key) ?? -1) <= Number(task.inputPositions[key] ?? -1);
  });
}

/**
 * What to read from each changelog. Intact local state that is at or ahead of the group's committed input
 * offsets is authoritative: a changelog tail beyond its checkpoint comes from a batch that was never
 * committed and will be processed again, so applying it would count that batch twice. Otherwise (no local
 * state, or another instance moved the task on meanwhile) the store replays its changelog from its checkpoint.
 */
export async function planRestore(committed: Map<string, number>, ends: TopicEnds, topology: CompiledTopology, task: RunTask): Promise<RestoreTarget[]> {
  const sub = topology.subTopologies[task.subTopologyId];
  if (sub.stores.length === 0) return [];
  const hasLocalState = Object.keys(task.inputPositions).length > 0;
  const localIsCurrent = hasLocalState && localStateIsCurrent(committed, topology, task);
  const targets: RestoreTarget[] = [];
  for (const store of sub.stores) {
    const topic = topology.changelogTopic(store);
    const end = (await ends.of(topic, task.partition))?.high ?? 0;
    const position = task.changelogPositions[store];
    const from = localIsCurrent ? end : position === undefined ? 0 : Number(position) + 1;
    targets.push({ state: task.state, store, topic, partition: task.partition, from, to: end, restored: task.restored.get(store)!, followMarkers: sub.stores.length === 1 });
  }
  return targets;
}
