/**
 * The changelog offset sums a member reports as it joins (Kafka Streams' SubscriptionInfo taskOffsetSums, see
 * assignment/warmup-placement), and the changelog ends the leader measures them against. A running active task reports
 * LATEST_OFFSET; a restoring one and a standby what their state has applied; a task whose state is on disk but not
 * open what its state left when it was closed (see state/task-state closedChangelogPositions). The state a dead process
 * left open (killed, crashed) is read back from its database before the next run joins (recoverCrashedTasks): the
 * task resumes from that state's checkpoint, so it reports that, not nothing, and a restart does not cost it a warm-up.
 */
import type { ClusterAdmin } from "../../../kafka-client";
import type { CompiledTopology } from "../../engine/compiled-topology";
import { parseTaskId } from "../../engine/compiled-topology";
import { LATEST_OFFSET, offsetSumOf } from "../assignment/warmup-placement";
import { TopicEnds } from "../topics/topic-ends";
import { closedChangelogPositions, recoverClosedChangelogPositions, tasksWithState } from "../../state/task-state";

/** A task's state as the sums need it: its sub-topology, and store → offset of the last changelog record it applied. */
export interface ChangelogProgress {
  readonly id: string;
  readonly subTopologyId: number;
  readonly changelogPositions: ReadonlyMap<string, number>;
  /** An active task still restoring: it reports what it has, not LATEST_OFFSET. */
  readonly restoring?: boolean;
}

export class TaskOffsetSums {
  constructor(
    private readonly topology: CompiledTopology,
    private readonly stateDir: string,
  ) {}

  /** Task id → offset sum for every stateful task this member has state of: `active`, `standbys`, and `onDisk` ones. */
  report(active: readonly ChangelogProgress[], standbys: readonly ChangelogProgress[], onDisk: readonly string[]): Record<string, number> {
    const sums: Record<string, number> = {};
    for (const id of onDisk) {
      const { subTopologyId } = parseTaskId(id);
      const changelogPositions = this.stateful(subTopologyId) ? closedChangelogPositions(this.stateDir, this.topology.applicationId, id) : undefined;
      if (changelogPositions !== undefined) sums[id] = this.sumOf({ id, subTopologyId, changelogPositions });
    }
    for (const task of standbys) sums[task.id] = this.sumOf(task);
    for (const task of active) if (this.stateful(task.subTopologyId)) sums[task.id] = task.restoring ? this.sumOf(task) : LATEST_OFFSET;
    return sums;
  }

  private sumOf(task: ChangelogProgress): number {
    return offsetSumOf(this.topology.loggedStoresOf(task.subTopologyId), task.changelogPositions);
  }

  private stateful(subTopologyId: number): boolean {
    return stateful(this.topology, subTopologyId);
  }
}

/** Whether a sub-topology has logged stores; false for one the topology no longer has (state left by an older version). */
function stateful(topology: CompiledTopology, subTopologyId: number): boolean {
  return subTopologyId < topology.subTopologies.length && topology.loggedStoresOf(subTopologyId).length > 0;
}

/** Each task's changelog end offsets (high watermarks) summed over its logged stores, by task id: the leader's side. */
export async function changelogEndSums(topology: CompiledTopology, admin: ClusterAdmin, tasks: readonly string[]): Promise<Map<string, number>> {
  const ends = new TopicEnds(admin);
  const sums = new Map<string, number>();
  for (const task of tasks) {
    const { subTopologyId, partition } = parseTaskId(task);
    let sum = 0;
    for (const store of topology.loggedStoresOf(subTopologyId)) sum += (await ends.of(topology.changelogTopic(store), partition))?.high ?? 0;
    sums.set(task, sum);
  }
  return sums;
}

/**
 * Before a run joins its group: its stateful tasks whose state a dead process left open get their closed positions
 * from their databases; answers their ids. Tasks with in-memory stores are left out, as at a clean close: their
 * contents did not outlive the process.
 */
export async function recoverCrashedTasks(topology: CompiledTopology, stateDir: string): Promise<string[]> {
  const recovered: string[] = [];
  for (const id of tasksWithState(stateDir, topology.applicationId)) {
    const { subTopologyId } = parseTaskId(id);
    if (!stateful(topology, subTopologyId) || topology.storeSpecsOf(subTopologyId).some((spec) => spec.inMemory === true)) continue;
    if (await recoverClosedChangelogPositions(stateDir, topology.applicationId, id)) recovered.push(id);
  }
  return recovered;
}
