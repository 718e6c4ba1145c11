/**
 * The global stores of one application instance and the GlobalStreamThread that keeps them: one per instance,
 * however many stream threads it runs, as in Kafka Streams. The first stream thread to start bootstraps them (with its
 * admin client); the others wait for that same bootstrap, so no task processes a record before the stores are caught up.
 */
import type { ClusterAdmin, KafkaEndpoint } from "../../../kafka-client";
import type { ReadOnlyStore } from "../../../../kernel/contracts/streams/stores";
import type { RecordingLevel } from "../../../../kernel/contracts/streams/processor";
import type { ComponentLogger } from "../../../../kernel/logger";
import type { CompiledTopology } from "../../engine/compiled-topology";
import { GLOBAL_TASK_ID } from "../../engine/global-store-updates";
import type { RunMetrics } from "../../metrics/run-metrics";
import { GlobalStores } from "../../state/global-store";
import { taskStateDirectory } from "../../state/task-state";
import type { StreamsSettings } from "../../streams-config";
import { GlobalStreamThread } from "./global-stream-thread";

export interface InstanceGlobalsOptions {
  endpoint: KafkaEndpoint;
  topology: CompiledTopology;
  settings: StreamsSettings;
  stateDir: string;
  clientIdPrefix: string;
  /** The metrics the processors of global stores record to (the first thread's). */
  metrics: RunMetrics;
  logger: ComponentLogger;
  onFatal(error: unknown): void;
}

export class InstanceGlobals {
  readonly stores: GlobalStores;
  private readonly thread: GlobalStreamThread | undefined;
  private started?: Promise<void>;

  constructor(options: InstanceGlobalsOptions) {
    const { topology, settings, metrics, stateDir, clientIdPrefix } = options;
    this.stores = new GlobalStores(topology.globalStoreSpecs());
    this.thread =
      this.stores.topics.length === 0
        ? undefined
        : new GlobalStreamThread({
            endpoint: options.endpoint,
            clientId: `${clientIdPrefix}-GlobalStreamThread`,
            stores: this.stores,
            processing: {
              applicationId: topology.applicationId,
              appConfigs: Object.freeze(settings.all()),
              stateDir: () => taskStateDirectory(stateDir, topology.applicationId, GLOBAL_TASK_ID),
              metrics: () => metrics.processorMetrics(GLOBAL_TASK_ID, settings.get("metrics.recording.level") as RecordingLevel),
              now: Date.now,
              defaultSerdes: topology.defaultSerdes,
            },
            isolationLevel: settings.get("processing.guarantee") === "exactly_once_v2" ? "read_committed" : "read_uncommitted",
            logger: options.logger,
            onFatal: options.onFatal,
          });
  }

  /** Resolves once the global stores are caught up; every thread's start waits for the first one's bootstrap. */
  start(admin: ClusterAdmin): Promise<void> {
    if (!this.thread) return Promise.resolve();
    // A failed bootstrap fails the instance's run; its next run has globals of its own.
    this.started ??= this.thread.start(admin);
    return this.started;
  }

  store(name: string): ReadOnlyStore | undefined {
    return this.thread?.caughtUp ? this.stores.store(name)?.queryable() : undefined;
  }

  async stop(): Promise<void> {
    await this.thread?.stop();
  }
}
