/** What an application's REST views ask of its current run, and nothing more. */
import type { ClusterAdmin } from "../../../kafka-client";
import type { ReadOnlyStore, StoreStats } from "../../../../kernel/contracts/streams/stores";
import type { RestoreProgress } from "../changelog/changelog-restorer";
import type { GroupMember } from "../assignment/group-instances";

export interface PositionFigures {
  consumedOffset: number;
  consumedTimestamp: number;
  committedOffset: number;
  committedTimestamp: number;
}

/** One store partition of an open task. */
export interface StorePartitionFigures {
  store: string;
  partition: number;
  /** Offset of the last changelog record the store's committed data includes; -1: none. */
  changelogPosition: number;
  restoring: boolean;
  restored: RestoreProgress | undefined;
  /** A standby task's store (a warm copy of another member's task), not an active one. */
  standby: boolean;
}

/** What one stream thread answers the views. */
export interface ThreadRunView extends GroupMember {
  readonly clientIds: { consumer: string; producer: string; admin: string };
  /** The run's admin client (log ends, the group's members); undefined until it has connected. */
  readonly admin: ClusterAdmin | undefined;
  partitionCount(topic: string): number | undefined;
  /** The open tasks. */
  activeTasks(): readonly { id: string; subTopologyId: number; partition: number }[];
  /** The standby tasks (warm copies of other members' tasks' stores). */
  standbyTasks(): readonly { id: string; subTopologyId: number; partition: number }[];
  /** A copy of the figures of every input partition assigned to this member. */
  positions(): { topic: string; partition: number; figures: PositionFigures }[];
  /** The partitions of a sub-topology whose tasks are restored and answer queries, ascending. */
  queryablePartitions(subTopologyId: number): readonly number[];
  /** A store of a sub-topology's restored task of `partition`, for queries (committed data only). */
  readOnlyStore(subTopologyId: number, partition: number, store: string): ReadOnlyStore | undefined;
  /** A standby copy of a sub-topology's store partition, with its changelog lag as of its last update; undefined without one. */
  standbyStore(subTopologyId: number, partition: number, store: string): { store: ReadOnlyStore; lag: number } | undefined;
  /** A global store, whole, for queries, once the run has caught it up. */
  globalStore(store: string): ReadOnlyStore | undefined;
  /** Every store partition of the open tasks, active and standby. */
  storePartitions(): StorePartitionFigures[];
  /** The statistics of the stores of the restored tasks, by task. */
  storeStatistics(): Promise<{ task: string; stores: StoreStats[] }[]>;
}

/** One stream thread of a run, as `/status` and `/offsets` list it. */
export interface ThreadView {
  readonly name: string;
  /** RUNNING once it has its assignment; REBALANCING before, and while it rebalances. */
  readonly state: "RUNNING" | "REBALANCING";
  readonly clientIds: ThreadRunView["clientIds"];
  activeTasks(): readonly { id: string; subTopologyId: number; partition: number }[];
  standbyTasks(): readonly { id: string; subTopologyId: number; partition: number }[];
  positions(): { topic: string; partition: number; figures: PositionFigures }[];
}

/** What the views ask of an instance's run: its threads' answers put together, and each thread. */
export interface RunView extends ThreadRunView {
  threadViews(): readonly ThreadView[];
}
