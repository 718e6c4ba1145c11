/** The shapes of the REST answers the console reads (docs/api.md), as far as it reads them. */

export type AppState = "CREATED" | "REBALANCING" | "RUNNING" | "PENDING_SHUTDOWN" | "NOT_RUNNING" | "ERROR";

export interface ApiRoot {
  version: string;
  headless: boolean;
}

export interface Health {
  status: "UP" | "DOWN";
  ready: boolean;
  not_ready: string[];
  applications: Record<string, AppState>;
  components: {
    liveness: { status: "UP" | "DOWN"; event_loop_max_delay_ms: number; threshold_ms: number };
    readiness: { status: "UP" | "DOWN"; not_ready: Record<string, string> };
  };
}

export interface InstanceDescription {
  id: string;
  name: string;
  version: string;
  description: string | null;
  since: string;
  /** `paused` only when an operator paused the instance (it then stays RUNNING or REBALANCING). */
  state: { state: AppState; since: string; paused?: true };
  config: Record<string, string | number | boolean>;
  exception?: string;
}

export interface Status {
  id: string;
  state: AppState;
  threads: {
    name: string;
    state: string;
    active_tasks: Task[];
    standby_tasks: Task[];
  }[];
}

export interface Task {
  task_id: string;
  topic_partitions: { topic: string; partition: number }[];
}

export interface Offsets {
  group: string;
  consumers: {
    client_id: string;
    stream_thread: string;
    positions: Position[];
  }[];
}

export interface Position {
  topic: string;
  partition: number;
  consumed_offset: number;
  consumed_timestamp: number;
  committed_offset: number;
  committed_timestamp: number;
  log_end_offset: number;
  log_start_offset: number;
  lag: number;
}

export interface MetricGroup {
  name: string;
  metrics: Metric[];
}

export interface Metric {
  name: string;
  description: string;
  tags: Record<string, string>;
  value: number | string | null;
}

export interface StoresReport {
  id: string;
  stores: StoreReport[];
}

export interface StoreReport {
  name: string;
  type: StoreType;
  partitions: {
    partition: number;
    changelog_topic: string;
    changelog_position: number;
    log_end_offset: number;
    lag: number;
    queryable: boolean;
    restoring: boolean;
    restore: { records_restored: number; records_total: number; rate: number };
  }[];
}

export type StoreType = "key_value" | "timestamped_key_value" | "window" | "timestamped_window" | "session";

export interface ServersRecord {
  id: string;
  instances: {
    server: string | null;
    member_id?: string;
    is_local: boolean;
    state?: string;
    stores: string[];
    assignments: { topic: string; partitions: number[] }[];
    standby_assignments: { topic: string; partitions: number[] }[];
  }[];
}

export interface Topology {
  version: string;
  sub_topologies: { id: number; nodes: TopologyNode[] }[];
  global_stores: string[];
}

export interface TopologyNode {
  type: "SOURCE" | "PROCESSOR" | "SINK";
  name: string;
  predecessors: string[];
  successors: string[];
  topics?: string[];
  topic?: string;
  stores?: string[];
}

export interface QueryResult {
  took: number;
  timeout: boolean;
  server: string;
  status: "SUCCESS" | "PARTIAL" | "ERROR" | "NO_RESULT" | "NOT_AVAILABLE";
  result: {
    total: number;
    success: { server: string; remote: boolean; total: number; records: QueryRecord[] }[];
    failure: { server: string; remote: boolean; errors: { message: string }[] }[];
  };
}

export interface QueryRecord {
  key: unknown;
  value: unknown;
  timestamp?: number;
}
