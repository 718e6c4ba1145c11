/**
 * One hosted application: its provider, effective configuration, compiled topology and lifecycle, and the
 * handle the REST plugins use (ApplicationHandle; what they read of the application comes from its views).
 * Each start creates a fresh run of `num.stream.threads` stream threads, to which threads can be added and from which
 * they can be removed while it runs; an error puts the application in ERROR with the error recorded and
 * never escapes to the process.
 */
import * as fs from "fs";
import * as path from "path";
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
import type { ApplicationConfig } from "../streams-config";
import type { CompiledTopology } from "../engine/compiled-topology";
import { BrokerConnectionError, isFencedInstance, type KafkaEndpoint } from "../../kafka-client";
import { backoffMs } from "../../kafka-client/backoff";
import { LocalEventStreamHub } from "../events/event-stream-hub";
import { StreamThreads } from "../kafka/processing/stream-threads";
import type { ThreadPlacement } from "../kafka/processing/worker/thread-source";
import { ApplicationLifecycle } from "../lifecycle/application-lifecycle";
import { RestartOnError } from "../lifecycle/restart-on-error";
import { clusterEndpoint } from "../kafka/cluster/cluster-security";
import { withApplicationLogFile } from "../logging/rotating-file-log";
import type { ComponentLogger } from "../../../kernel/logger";
import { MetricsRegistry } from "../metrics/metrics-registry";
import { namedCode } from "../code/named-code-registry";
import { buildTopology } from "../engine/build-topology";
import { ApplicationViews } from "./application-views";
import { configView } from "./config-view";

export interface ApplicationOptions {
  provider: TopologyProvider;
  /** Defaults + provider config + overrides, merged by the runtime. */
  config: ApplicationConfig;
  bootstrapServers: string[];
  logger: ComponentLogger;
  /** Where its stream threads may run (see thread-source). */
  threads: ThreadPlacement;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Waits between starts while no broker answers: doubling from the first, up to the longest (Kafka's reconnect backoffs). */
const START_RETRY_FIRST_MS = 100;
const START_RETRY_MAX_MS = 2_000;

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
  private readonly views: ApplicationViews;
  private readonly hub: LocalEventStreamHub;
  private readonly logger: ComponentLogger;
  private readonly configSetter?: LevelDbConfigSetter;
  private run: StreamThreads | undefined;
  private registry = new MetricsRegistry();
  private startedAt = Date.now();
  private recordedError: string | null = null;
  private statsTimer?: NodeJS.Timeout;
  private transition: Promise<unknown> = Promise.resolve();
  private pausedFlag = false;
  private readonly restartOnError: RestartOnError;
  /** Where the cluster is and how to reach it (TLS, SASL): every client of every run is given it. */
  private readonly endpoint: KafkaEndpoint;

  constructor(private readonly options: ApplicationOptions) {
    this.topologyCompiled = buildTopology(options.provider, options.config);
    this.id = this.topologyCompiled.applicationId;
    const { settings } = options.config;
    this.logger = withApplicationLogFile(options.logger, this.id, settings.get("log.dir"), settings.get("log.maxFileSize"));
    this.lifecycle = new ApplicationLifecycle(this.id);
    this.restartOnError = RestartOnError.from(settings);
    this.hub = new LocalEventStreamHub(this.id, options.provider.eventStreams ?? [], this.logger, (type) => this.topologyCompiled.eventSerdeNames(type));
    for (const type of this.topologyCompiled.definition.eventTypes) {
      if (!this.hub.declarations().some((declaration) => declaration.type === type)) {
        throw new Error(`application '${this.id}' sends to event stream '${type}' that its provider does not declare`);
      }
    }
    const setter = settings.get("leveldb.config.setter");
    if (setter) this.configSetter = namedCode("leveldb.config.setter", setter, options.config.code);
    this.endpoint = clusterEndpoint(options.bootstrapServers, settings, options.config.code);
    this.lifecycle.onChange((change) => this.logger.info("application state changed", { ...change }));
    this.views = new ApplicationViews({
      id: this.id,
      topology: this.topologyCompiled,
      server: this.server,
      endpoint: this.endpoint,
      logger: this.logger,
      state: () => this.state,
      run: () => this.run,
    });
    this.registerAppInfo();
  }

  get provider(): TopologyProvider {
    return this.options.provider;
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
  get paused(): boolean {
    return this.pausedFlag;
  }

  private get stateDir(): string {
    return this.options.config.settings.get("state.dir");
  }

  private get server(): string | null {
    return this.options.config.settings.get("application.server") || null;
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

  pause(): void {
    if (this.pausedFlag) return;
    this.pausedFlag = true;
    this.run?.pause();
    this.logger.info("application paused", { applicationId: this.id });
  }

  resume(): void {
    if (!this.pausedFlag) return;
    this.pausedFlag = false;
    this.run?.resume();
    this.logger.info("application resumed", { applicationId: this.id });
  }

  /**
   * Adds a stream thread to the running instance (KafkaStreams#addStreamThread): its name, once it has started
   * joining the group; null when the instance is not RUNNING or REBALANCING.
   */
  addStreamThread(): Promise<string | null> {
    return this.serially(async () => {
      const run = this.run;
      if (!run || (this.state !== "RUNNING" && this.state !== "REBALANCING")) return null;
      const name = await run.add();
      this.logger.info("stream thread added", { applicationId: this.id, thread: name, threads: run.size });
      return name;
    });
  }

  /**
   * Removes a stream thread (the one named, or the first) from the running instance (KafkaStreams#removeStreamThread):
   * it leaves the group and its tasks move. Its name; null when the instance is not RUNNING or REBALANCING or has no
   * such thread. The last thread is not removed: it rejects.
   */
  removeStreamThread(name?: string): Promise<string | null> {
    return this.serially(async () => {
      const run = this.run;
      if (!run || (this.state !== "RUNNING" && this.state !== "REBALANCING")) return null;
      if (name !== undefined && !run.names().includes(name)) return null;
      if (run.size === 1) throw new Error(`'${run.names()[0]}' is the last stream thread of application '${this.id}': stop the application instead`);
      const removed = (await run.remove(name)) ?? null;
      this.logger.info("stream thread removed", { applicationId: this.id, thread: removed, threads: run.size });
      return removed;
    });
  }

  /** The names of the running instance's stream threads; none while it does not run. */
  streamThreads(): string[] {
    return this.run?.names() ?? [];
  }

  onStateChange(listener: (change: StateChange) => void): () => void {
    return this.lifecycle.onChange(listener);
  }

  config(): Record<string, ConfigValue> {
    return configView(this.options.config.values);
  }

  status(): ApplicationStatus {
    return this.views.status();
  }

  offsets(): Promise<ApplicationOffsets> {
    return this.views.offsets();
  }

  metrics(): MetricGroup[] {
    return this.registry.snapshot();
  }

  topology(): TopologyGraph {
    return this.topologyCompiled.describe(this.version);
  }

  instances(): Promise<readonly InstanceInfo[]> {
    return this.views.instances();
  }

  ownerOf(storeName: string, keyJson: unknown): Promise<KeyOwner> {
    return this.views.ownerOf(storeName, keyJson);
  }

  storeNames(): string[] {
    return this.topologyCompiled.storeNames().sort();
  }

  store(name: string): StoreHandle | undefined {
    return this.views.store(name);
  }

  storesStatus(): Promise<StorePartitionStatus[]> {
    return this.views.storesStatus();
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
    this.lifecycle.moveTo("REBALANCING");
    await this.launchRun(1);
  }

  /** Creates and starts a stream thread; `attempt`: how many starts in a row this is while the cluster is unreachable. */
  private async launchRun(attempt: number): Promise<void> {
    this.startedAt = Date.now();
    this.restartOnError.started(this.startedAt);
    this.recordedError = null;
    this.registry = new MetricsRegistry();
    this.registerAppInfo();
    const run: StreamThreads = new StreamThreads({
      endpoint: this.endpoint,
      topology: this.topologyCompiled,
      settings: this.options.config.settings,
      server: this.server,
      stateDir: this.stateDir,
      configSetter: this.configSetter,
      hub: this.hub,
      registry: this.registry,
      logger: this.logger,
      clientIdPrefix: `${this.id}-${process.pid}`,
      paused: this.pausedFlag,
      workers: {
        placement: this.options.threads,
        bootstrapServers: this.options.bootstrapServers,
        values: { ...this.options.config.values },
      },
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
    try {
      await run.start(this.options.config.settings.get("num.stream.threads"));
    } catch (error) {
      if (error instanceof BrokerConnectionError && this.run === run) this.startAgainLater(run, attempt, error);
      else this.fail(error);
      return;
    }
    this.startStats(run);
  }

  /**
   * A start that found no broker answering (the cluster down or restarting) is tried again until one answers, the
   * application staying REBALANCING meanwhile, as a Kafka Streams application's clients keep reconnecting; a stop or
   * restart in between ends the retries. Refused credentials are not retried (they are no connection error).
   */
  private startAgainLater(failed: StreamThreads, attempt: number, error: BrokerConnectionError): void {
    const waitMs = backoffMs(START_RETRY_FIRST_MS, attempt, START_RETRY_MAX_MS);
    const log = attempt === 1 ? this.logger.warn.bind(this.logger) : this.logger.debug.bind(this.logger);
    log("no broker answers; the application stays REBALANCING and starts again", { applicationId: this.id, error: error.message, attempt, inMs: waitMs });
    void failed.stop().catch(() => undefined);
    setTimeout(() => {
      void this.serially(async () => {
        if (this.run === failed && this.state === "REBALANCING") await this.launchRun(attempt + 1);
      });
    }, waitMs).unref();
  }

  private fail(error: unknown): void {
    this.recordedError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.logger.error("application failed", { applicationId: this.id, error: this.recordedError });
    this.lifecycle.moveTo("ERROR");
    const run = this.run;
    clearInterval(this.statsTimer);
    void run?.stop().catch(() => undefined);
    if (isFencedInstance(error)) {
      // Its group.instance.id belongs to another instance now: a restart would fence that one in turn, and so on.
      this.logger.warn("application does not restart by itself: another instance joined with its group.instance.id", { applicationId: this.id });
      return;
    }
    const waitMs = this.restartOnError.failed(() => void this.restartAfterFailure(run));
    if (waitMs !== undefined) this.logger.info("application restarts after its error", { applicationId: this.id, inMs: waitMs });
  }

  /** Restarts a failed run, unless someone stopped, restarted or closed the application meanwhile. */
  private restartAfterFailure(failed: StreamThreads | undefined): Promise<void> {
    return this.serially(async () => {
      if (this.state === "ERROR" && this.run === failed) await this.startRun();
    });
  }

  private startStats(run: StreamThreads): void {
    const { settings } = this.options.config;
    if (!settings.get("stats.enable")) return;
    const periodMs = Math.max(1, settings.get("stats.dumpPeriodSec")) * 1000;
    this.statsTimer = setInterval(() => {
      void run
        .storeStatistics()
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

