/**
 * An instance that could not be created at startup (a topology version Sluice no longer has, a configuration that
 * no longer passes): listed and described in ERROR with its reason, so that it is seen, and Sluice starts with the
 * others rather than stopping (and being restarted into the same failure). Terminating it forgets it.
 */
import type {
  ApplicationHandle,
  ApplicationOffsets,
  ApplicationStatus,
  EventStreamHub,
  InstanceInfo,
  KeyOwner,
  MetricGroup,
  StoreHandle,
  StorePartitionStatus,
  TopologyGraph,
} from "../../../kernel/contracts/streams/runtime";
import type { ConfigValue, EventStreamDeclaration } from "../../../kernel/contracts/streams/topology-provider";
import { conflict } from "../../../kernel/http/http-error";
import { configView } from "./config-view";

const NO_STREAMS: EventStreamHub = { declarations: () => [], subscribe: () => () => undefined, onClose: () => () => undefined };

export class FailedDeployment implements ApplicationHandle {
  readonly state = "ERROR" as const;
  readonly since = Date.now();
  readonly stateSince = this.since;
  readonly restarts = 0;
  readonly paused = false;
  readonly description = null;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly version: string,
    /** Why it could not start, as `Name: message`. */
    readonly exception: string,
    private readonly configuration: Readonly<Record<string, ConfigValue>>,
  ) {}

  config(): Record<string, ConfigValue> {
    return configView(this.configuration);
  }
  status(): ApplicationStatus {
    return { id: this.id, state: this.state, threads: [] };
  }
  async offsets(): Promise<ApplicationOffsets> {
    return { group: this.id, consumers: [] };
  }
  metrics(): MetricGroup[] {
    return [];
  }
  topology(): TopologyGraph {
    return { version: this.version, subTopologies: [], globalStores: [] };
  }
  async stop(): Promise<void> {}
  async restart(): Promise<void> {
    throw conflict(`Application '${this.id}' failed to deploy at startup (${this.exception}); terminate it and deploy it again`);
  }
  pause(): void {}
  resume(): void {}
  /** It never runs: no threads, none to add or remove. */
  streamThreads(): string[] {
    return [];
  }
  async addStreamThread(): Promise<string | null> {
    return null;
  }
  async removeStreamThread(): Promise<string | null> {
    return null;
  }
  onStateChange(): () => void {
    return () => undefined;
  }
  async instances(): Promise<readonly InstanceInfo[]> {
    return [];
  }
  async ownerOf(): Promise<KeyOwner> {
    return { partition: -1, instance: null, standbys: [] };
  }
  store(): StoreHandle | undefined {
    return undefined;
  }
  storeNames(): string[] {
    return [];
  }
  async storesStatus(): Promise<StorePartitionStatus[]> {
    return [];
  }
  eventStreams(): readonly EventStreamDeclaration[] {
    return [];
  }
  eventHub(): EventStreamHub {
    return NO_STREAMS;
  }
}
