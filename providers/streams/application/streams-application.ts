/**
 * One hosted application: its provider, effective configuration, compiled topology and lifecycle, and the
 * handle the REST plugins use (ApplicationHandle). Each start creates a fresh Kafka run; an error puts the
 * application in ERROR with the error recorded and never escapes to the process.
 */
import * as fs from "fs";
import * as path from "path";
import { Kafka, logLevel } from "kafkajs";
import "../../kafka-client/kafkajs-idle-timer";
import type {
  ApplicationHandle,
  ApplicationOffsets,
  ApplicationState,
  ApplicationStatus,
  EventStreamHub,
  InstanceInfo,
  KeyOwner,
  MetricGroup,
  StateChange,
  StoreHandle,
  StorePartitionStatus,
  TopologyGraph,
} from "../../../kernel/contracts/streams/runtime";
import type { LevelDbConfigSetter } from "../../../kernel/contracts/streams/stores";
import type { ConfigValue, EventStreamDeclaration, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import type { CompiledTopology } from "../engine/compiled-topology";
import { partitionOfKey, type BrokerSecurity } from "../../kafka-client";
import { LocalEventStreamHub } from "../events/event-stream-hub";
import { ApplicationRun } from "../kafka/application-run";
import { ApplicationLifecycle } from "../lifecycle/application-lifecycle";
import { RestartOnError } from "../lifecycle/restart-on-error";
import { clusterSecurity, kafkajsSecurity } from "../kafka/cluster-security";
import { withApplicationLogFile } from "../logging/rotating-file-log";
import type { ComponentLogger } from "../../../kernel/logger";
import { MetricsRegistry } from "../metrics/metrics-registry";
import { RunMetrics } from "../metrics/run-metrics";
import { loadModuleExport } from "../serdes/serde-resolver";
import { buildTopology } from "../topology/build-topology";
import { configView } from "./config-view";
import { GroupInstances } from "./group-instances";
import { keyFromJson } from "./store-keys";
import { restoreRate } from "../kafka/changelog-restorer";
import { TopicEnds } from "../kafka/topic-ends";

export interface ApplicationOptions {
  provider: TopologyProvider;
  /** Defaults + provider config + overrides, merged by the runtime. */
  config: Record<string, ConfigValue>;
  bootstrapServers: string[];
  logger: ComponentLogger;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** How a stopped instance asks for its group: it has no member id and no generation. */
const NOT_A_MEMBER = { memberId: null, generationId: -1 };

async function withTimeout(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([work.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export class StreamsApplication implements ApplicationHandle {
  readonly id: string;
  readonly topologyCompiled: CompiledTopology;
  private readonly lifecycle: ApplicationLifecycle;
  private readonly groupInstances: GroupInstances;
  private readonly hub: LocalEventStreamHub;
  private readonly logger: ComponentLogger;
  private readonly kafka: Kafka;
  private readonly configSetter?: LevelDbConfigSetter;
  private run: ApplicationRun | undefined;
  private registry = new MetricsRegistry();
  private startedAt = Date.now();
  private recordedError: string | null = null;
  private statsTimer?: NodeJS.Timeout;
  private transition: Promise<unknown> = Promise.resolve();
  private readonly restartOnError: RestartOnError;
  /** TLS and SASL settings of the connections to the cluster. */
  private readonly security: BrokerSecurity;

  constructor(private readonly options: ApplicationOptions) {
    this.topologyCompiled = buildTopology(options.provider, options.config);
    this.id = this.topologyCompiled.applicationId;
    const config = options.config;
    this.logger = withApplicationLogFile(options.logger, this.id, String(config["log.dir"] ?? ""), Number(config["log.maxFileSize"] ?? 10_485_760));
    this.lifecycle = new ApplicationLifecycle(this.id);
    this.restartOnError = RestartOnError.from(config);
    const guarantee = String(config["processing.guarantee"] ?? "at_least_once");
    if (guarantee !== "at_least_once") {
      throw new Error(`application '${this.id}': processing.guarantee=${guarantee} is not supported yet; Sluice processes at least once, with exact state after a crash (set at_least_once)`);
    }
    this.groupInstances = new GroupInstances(this.id, this.topologyCompiled);
    this.hub = new LocalEventStreamHub(this.id, options.provider.eventStreams ?? [], this.logger, (type) => this.topologyCompiled.eventSerdeNames(type));
    for (const type of this.topologyCompiled.definition.eventTypes) {
      if (!this.hub.declarations().some((declaration) => declaration.type === type)) {
        throw new Error(`application '${this.id}' sends to event stream '${type}' that its provider does not declare`);
      }
    }
    const setter = String(config["leveldb.config.setter"] ?? "");
    if (setter) this.configSetter = loadModuleExport(setter) as LevelDbConfigSetter;
    this.security = clusterSecurity(config);
    this.kafka = new Kafka({
      clientId: this.id,
      brokers: options.bootstrapServers,
      ...kafkajsSecurity(this.security),
      // kafkajs waits 1 s for a connection by default, too little for a managed cluster's TLS handshake.
      connectionTimeout: Number(config["socket.connection.setup.timeout.ms"] ?? 10_000),
      requestTimeout: Number(config["request.timeout.ms"] ?? 30_000),
      logLevel: logLevel.NOTHING,
      retry: { retries: 8, initialRetryTime: 100 },
    });
    this.lifecycle.onChange((change) => this.logger.info("application state changed", { ...change }));
    this.registerAppInfo();
  }

  get name(): string {
    return this.options.provider.name;
  }
  get version(): string {
    return this.options.provider.version;
  }
  get description(): string | null {
    return this.options.provider.description ?? null;
  }
  get since(): number {
    return this.startedAt;
  }
  get state(): ApplicationState {
    return this.lifecycle.state;
  }
  get stateSince(): number {
    return this.lifecycle.stateSince;
  }
  get exception(): string | null {
    return this.recordedError;
  }
  get restarts(): number {
    return this.restartOnError.restarts;
  }

  private get stateDir(): string {
    return String(this.options.config["state.dir"] ?? path.join(process.cwd(), ".sluice", "state"));
  }

  /** Starts a new run; resolves once the run is under way (joining its group), or in ERROR. */
  start(): Promise<void> {
    return this.serially(() => this.startRun());
  }

  stop(options: { cleanup?: boolean; timeoutMs?: number } = {}): Promise<void> {
    this.restartOnError.cancel();
    return this.serially(() => this.stopRun(options.cleanup ?? false, options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
  }

  restart(options: { timeoutMs?: number } = {}): Promise<void> {
    this.restartOnError.cancel();
    return this.serially(async () => {
      await this.stopRun(false, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      await this.startRun();
    });
  }

  onStateChange(listener: (change: StateChange) => void): () => void {
    return this.lifecycle.onChange(listener);
  }

  config(): Record<string, ConfigValue> {
    return configView(this.options.config);
  }

  status(): ApplicationStatus {
    const state = this.state;
    const run = this.run;
    if (!run || (state !== "RUNNING" && state !== "REBALANCING")) return { id: this.id, state, threads: [] };
    const activeTasks = [...run.tasks.values()]
      .sort((a, b) => a.subTopologyId - b.subTopologyId || a.partition - b.partition)
      .map((task) => ({
        taskId: task.id,
        topicPartitions: this.topologyCompiled.subTopologies[task.subTopologyId].sourceTopics
          .filter((topic) => (run.partitionCounts.get(topic) ?? 0) > task.partition)
          .map((topic) => ({ topic, partition: task.partition })),
      }));
    return {
      id: this.id,
      state,
      threads: [
        {
          name: `${this.id}-StreamThread-1`,
          state,
          activeTasks,
          standbyTasks: [],
          clients: { consumerClientId: run.consumerClientId, producerClientIds: [run.producerClientId], adminClientId: run.adminClientId },
        },
      ],
    };
  }

  async offsets(): Promise<ApplicationOffsets> {
    const run = this.run;
    const admin = run?.adminClient;
    if (!run || !admin || (this.state !== "RUNNING" && this.state !== "REBALANCING")) return { group: this.id, consumers: [] };
    // The positions are copied before the ends are asked: read after, they could pass the ends.
    const consumed = [...run.positions].map(([key, figures]) => [key, { ...figures }] as const);
    const ends = new TopicEnds(admin);
    const unsorted = await Promise.all(
      consumed.map(async ([key, figures]) => {
        const topic = key.slice(0, key.lastIndexOf(":"));
        const partition = Number(key.slice(key.lastIndexOf(":") + 1));
        const end = await ends.of(topic, partition);
        const logEndOffset = end?.high ?? -1;
        const lag = end === undefined ? -1 : figures.consumedOffset < 0 ? -1 : Math.max(logEndOffset - (figures.consumedOffset + 1), 0);
        return { topic, partition, ...figures, logEndOffset, logStartOffset: end?.low ?? -1, lag };
      }),
    );
    const positions = unsorted.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
    return { group: this.id, consumers: [{ clientId: run.consumerClientId, streamThread: `${this.id}-StreamThread-1`, positions }] };
  }

  metrics(): MetricGroup[] {
    return this.registry.snapshot();
  }

  topology(): TopologyGraph {
    return this.topologyCompiled.describe(this.version);
  }

  async instances(): Promise<readonly InstanceInfo[]> {
    const run = this.run;
    const admin = run?.adminClient;
    const ended = () => this.run !== run || this.state === "NOT_RUNNING" || this.state === "ERROR";
    if (!run || !admin || ended()) return this.instancesWhileStopped();
    try {
      return await this.groupInstances.list(run, admin);
    } catch (error) {
      // The run stopped or failed while its admin client was asked: the group is asked without it.
      if (ended()) return this.instancesWhileStopped();
      throw error;
    }
  }

  /**
   * With no run, this instance is in no group: the other members come from the coordinator through an admin
   * client of its own (connected only for the question), and this one is listed with its state.
   */
  private async instancesWhileStopped(): Promise<readonly InstanceInfo[]> {
    const server = this.options.config["application.server"];
    const local: InstanceInfo = {
      server: server ? String(server) : null,
      memberId: null,
      isLocal: true,
      state: this.state,
      stores: [],
      assignments: [],
      standbyAssignments: [],
    };
    // One retry at most: a broker that is down must not hold the servers record for the client's whole backoff.
    const admin = this.kafka.admin({ retry: { retries: 1 } });
    try {
      await admin.connect();
      // A member advertising this instance's server is its last run, still leaving the group.
      const others = (await this.groupInstances.list(NOT_A_MEMBER, admin)).filter((other) => other.server === null || other.server !== local.server);
      return [...others, local].sort((a, b) => String(a.server).localeCompare(String(b.server)));
    } catch (error) {
      this.logger.warn("the group's other instances could not be asked", { applicationId: this.id, error: (error as Error).message });
      return [local];
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  async ownerOf(storeName: string, keyJson: unknown): Promise<KeyOwner> {
    const spec = this.topologyCompiled.storeSpec(storeName);
    const sub = this.topologyCompiled.subTopologyOfStore(storeName);
    if (!spec || sub === undefined) throw new Error(`unknown store '${storeName}'`);
    const keyBytes = spec.keySerde.serialize(keyFromJson(spec.keySerde, keyJson));
    const changelog = this.topologyCompiled.changelogTopic(storeName);
    const partitions = this.run?.partitionCounts.get(changelog) ?? 1;
    const partition = partitionOfKey(keyBytes, partitions);
    const sourceTopics = this.topologyCompiled.subTopologies[sub].sourceTopics;
    const instance = (await this.instances()).find((candidate) =>
      candidate.assignments.some((entry) => sourceTopics.includes(entry.topic) && entry.partitions.includes(partition)),
    );
    return { partition, instance: instance ?? null };
  }

  storeNames(): string[] {
    return this.topologyCompiled.storeNames().sort();
  }

  store(name: string): StoreHandle | undefined {
    const spec = this.topologyCompiled.storeSpec(name);
    const sub = this.topologyCompiled.subTopologyOfStore(name);
    if (!spec || sub === undefined) return undefined;
    const ready = () => this.run?.readyOf(sub);
    return {
      name,
      type: spec.type,
      keySerde: spec.keySerde.name,
      valueSerde: spec.valueSerde.name,
      localPartitions: () => ready()?.partitions ?? [],
      queryable: () => this.state === "RUNNING" && (ready()?.tasks.length ?? 0) > 0,
      readOnly: (partition) => {
        if (this.state !== "RUNNING") return undefined;
        return ready()?.tasks.find((task) => task.partition === partition)?.state.readOnly(name);
      },
      keyFromJson: (key) => keyFromJson(spec.keySerde, key),
    };
  }

  async storesStatus(): Promise<StorePartitionStatus[]> {
    const run = this.run;
    const admin = run?.adminClient;
    if (!run || !admin) return [];
    // Every task figure is taken at once, before the log ends are asked: read after, a position could pass its
    // end, or a finished restore show its old position.
    const snapshot = [...run.tasks.values()].flatMap((task) =>
      this.topologyCompiled.subTopologies[task.subTopologyId].stores.map((store) => ({
        store,
        partition: task.partition,
        changelogTopic: this.topologyCompiled.changelogTopic(store),
        changelogPosition: Number(task.changelogPositions[store] ?? -1),
        restoring: task.restoring,
        restoredRecords: task.restored.get(store)?.records ?? 0,
        restoreRate: restoreRate(task.restored.get(store)),
      })),
    );
    const ends = new TopicEnds(admin);
    const statuses = await Promise.all(
      snapshot.map(async (entry): Promise<StorePartitionStatus> => {
        const logEndOffset = (await ends.of(entry.changelogTopic, entry.partition))?.high ?? -1;
        return { ...entry, logEndOffset, lag: Math.max(logEndOffset - (entry.changelogPosition + 1), 0) };
      }),
    );
    return statuses.sort((a, b) => (a.store < b.store ? -1 : a.store > b.store ? 1 : a.partition - b.partition));
  }

  eventStreams(): readonly EventStreamDeclaration[] {
    return this.hub.declarations();
  }

  eventHub(): EventStreamHub {
    return this.hub;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.transition.then(work, work);
    this.transition = next.catch(() => undefined);
    return next;
  }

  private registerAppInfo(): void {
    const tags = { "client-id": this.id };
    this.registry.gauge("app-info", "version", "Version of the application's topology", tags, () => this.version);
    this.registry.gauge("app-info", "start-time-ms", "When the application (re)started, epoch ms", tags, () => this.startedAt);
    this.registry.gauge("app-info", "restarts-total", "Restarts after an error made by restart.on.error=backoff", tags, () => this.restartOnError.restarts);
  }

  private async startRun(): Promise<void> {
    if (this.state === "RUNNING" || this.state === "REBALANCING") return;
    if (this.state === "ERROR") await this.stopRun(false, DEFAULT_TIMEOUT_MS);
    this.startedAt = Date.now();
    this.restartOnError.started(this.startedAt);
    this.recordedError = null;
    this.registry = new MetricsRegistry();
    this.registerAppInfo();
    const clientIdPrefix = `${this.id}-${process.pid}`;
    const run: ApplicationRun = new ApplicationRun({
      kafka: this.kafka,
      bootstrapServers: this.options.bootstrapServers,
      security: this.security,
      topology: this.topologyCompiled,
      config: this.options.config,
      server: this.options.config["application.server"] ? String(this.options.config["application.server"]) : null,
      stateDir: this.stateDir,
      configSetter: this.configSetter,
      hub: this.hub,
      metrics: new RunMetrics(this.registry, `${this.id}-StreamThread-1`, `${clientIdPrefix}-StreamThread-1-consumer`, `${clientIdPrefix}-StreamThread-1-producer`),
      logger: this.logger,
      clientIdPrefix,
      onRebalancing: () => {
        if (this.run === run) this.lifecycle.moveTo("REBALANCING");
      },
      onRunning: () => {
        if (this.run === run) this.lifecycle.moveTo("RUNNING");
      },
      onFatal: (error) => {
        if (this.run === run) this.fail(error);
      },
    });
    this.run = run;
    this.lifecycle.moveTo("REBALANCING");
    try {
      await run.start();
    } catch (error) {
      this.fail(error);
      return;
    }
    this.startStats(run);
  }

  private fail(error: unknown): void {
    this.recordedError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.logger.error("application failed", { applicationId: this.id, error: this.recordedError });
    this.lifecycle.moveTo("ERROR");
    const run = this.run;
    clearInterval(this.statsTimer);
    void run?.stop().catch(() => undefined);
    const waitMs = this.restartOnError.failed(() => void this.restartAfterFailure(run));
    if (waitMs !== undefined) this.logger.info("application restarts after its error", { applicationId: this.id, inMs: waitMs });
  }

  /** Restarts a failed run, unless someone stopped, restarted or closed the application meanwhile. */
  private restartAfterFailure(failed: ApplicationRun | undefined): Promise<void> {
    return this.serially(async () => {
      if (this.state === "ERROR" && this.run === failed) await this.startRun();
    });
  }

  private startStats(run: ApplicationRun): void {
    const config = this.options.config;
    if (config["stats.enable"] !== true && config["stats.enable"] !== "true") return;
    const periodMs = Math.max(1, Number(config["stats.dumpPeriodSec"] ?? 60)) * 1000;
    this.statsTimer = setInterval(() => {
      void Promise.all(run.readyTasks().map(async (task) => ({ task: task.id, stores: await task.state.stats() })))
        .then((tasks) => this.logger.info("store statistics", { applicationId: this.id, tasks }))
        .catch(() => undefined);
    }, periodMs);
    this.statsTimer.unref();
  }

  private async stopRun(cleanup: boolean, timeoutMs: number): Promise<void> {
    clearInterval(this.statsTimer);
    if (this.state !== "NOT_RUNNING") {
      this.lifecycle.moveTo("PENDING_SHUTDOWN");
      const run = this.run;
      this.run = undefined;
      if (run && !(await withTimeout(run.stop(), timeoutMs))) {
        this.logger.warn("application did not stop within its timeout", { applicationId: this.id, timeoutMs });
      }
      this.hub.closeStreams();
      this.lifecycle.moveTo("NOT_RUNNING");
    }
    if (cleanup) fs.rmSync(path.join(this.stateDir, this.id), { recursive: true, force: true });
  }
}
