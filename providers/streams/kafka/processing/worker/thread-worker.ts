/**
 * The worker side of a worker-hosted stream thread (see worker-stream-thread): it builds the application's topology
 * again from its provider's module, with the same configuration values and named code, and runs one StreamThread
 * with its own consumer, producer and admin client. It reports its views (a snapshot on every change of state and
 * every SNAPSHOT_INTERVAL_MS), its metrics, events and log lines to the main thread, answers the main thread's store
 * queries (iterations in pages), and ends once stopped (the main thread then terminates it).
 */
import { isMainThread, parentPort, workerData, type MessagePort } from "node:worker_threads";
import type { ServiceModule } from "../../../../../kernel/contracts/plugin";
import type { NamedCode } from "../../../../../kernel/contracts/streams/named-code";
import type { ReadOnlyStore } from "../../../../../kernel/contracts/streams/stores";
import type { TopologyProvider } from "../../../../../kernel/contracts/streams/topology-provider";
import type { ComponentLogger, LineLevel, LogFields } from "../../../../../kernel/logger";
import { NamedCodeRegistry, namedCode } from "../../../code/named-code-registry";
import { buildTopology } from "../../../engine/build-topology";
import type { CompiledTopology } from "../../../engine/compiled-topology";
import { MetricsRegistry } from "../../../metrics/metrics-registry";
import { RunMetrics } from "../../../metrics/run-metrics";
import { CacheBudget } from "../../../state/record-cache";
import { applicationConfig } from "../../../streams-config";
import { clusterEndpoint } from "../../cluster/cluster-security";
import { InstanceGlobals } from "../instance-globals";
import { StreamThread } from "../stream-thread";
import { cloneableFields, cloneError, reviveBuffers } from "./cloned-values";
import type { MainToWorker, Page, StoreCall, ThreadSnapshot, ThreadWorkerData, WorkerToMain } from "./thread-messages";

/** How often the views and the metrics are reported while nothing else changes. */
const SNAPSHOT_INTERVAL_MS = 100;
const METRICS_INTERVAL_MS = 500;
/** Entries per page of an iteration a query reads. */
const PAGE_SIZE = 1000;

function loadModule<T>({ file, exportName, construct }: ServiceModule): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(file)[exportName];
  if (exported === undefined || exported === null) throw new Error(`module '${file}' has no export '${exportName}'`);
  return construct ? new (exported as new () => T)() : (exported as T);
}

class ThreadWorker {
  private readonly thread: StreamThread;
  private readonly topology: CompiledTopology;
  private readonly cacheBudget: CacheBudget;
  /** Whether the main logger writes debug lines: the others are not sent. */
  private debug: boolean;
  private readonly registry = new MetricsRegistry();
  private readonly metrics: RunMetrics;
  private readonly iterations = new Map<number, AsyncIterator<unknown>>();
  private nextCursor = 1;
  private events: [string, unknown, unknown, number][] = [];
  /** The event stream types with subscribers on the main thread. */
  private subscribed: Set<string>;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly port: MessagePort, data: ThreadWorkerData) {
    this.subscribed = new Set(data.subscribed);
    this.cacheBudget = new CacheBudget(data.cacheMaxBytes);
    const code = new NamedCodeRegistry(data.source.code.map((module) => ({ name: `${module.file}#${module.exportName}`, instance: loadModule<NamedCode>(module) })));
    const config = applicationConfig([{ values: data.values, source: "the application's configuration" }], code);
    const topology = buildTopology(loadModule<TopologyProvider>(data.source.provider), config);
    this.topology = topology;
    const { settings } = config;
    this.debug = data.debug;
    const logger = this.logger();
    const endpoint = clusterEndpoint(data.bootstrapServers, settings, code);
    const name = `${topology.applicationId}-StreamThread-${data.index}`;
    this.metrics = new RunMetrics(this.registry, name, `${data.clientIdPrefix}-StreamThread-${data.index}-consumer`, `${data.clientIdPrefix}-StreamThread-${data.index}-producer`);
    const setter = settings.get("leveldb.config.setter");
    const common = { endpoint, topology, settings, stateDir: settings.get("state.dir"), clientIdPrefix: data.clientIdPrefix, metrics: this.metrics, logger };
    this.thread = new StreamThread({
      ...common,
      server: settings.get("application.server") || null,
      configSetter: setter ? namedCode("leveldb.config.setter", setter, code) : undefined,
      hub: { send: (type, key, value, timestamp) => this.event(type, key, value, timestamp) },
      index: data.index,
      processId: data.processId,
      // Topologies with global stores keep their threads on the main event loop: this one has none.
      globals: new InstanceGlobals({ ...common, onFatal: (error) => this.post({ kind: "fatal", error: cloneError(error) }) }),
      cacheBudget: this.cacheBudget,
      paused: data.paused,
      onRebalancing: () => this.report({ kind: "rebalancing" }),
      onRunning: () => this.report({ kind: "running" }),
      onFatal: (error) => this.report({ kind: "fatal", error: cloneError(error) }),
    });
  }

  async start(): Promise<void> {
    this.port.on("message", (message: MainToWorker) => this.receive(message));
    try {
      await this.thread.start();
    } catch (error) {
      this.post({ kind: "startFailed", error: cloneError(error) });
      return;
    }
    this.timers = [setInterval(() => this.sendSnapshot(), SNAPSHOT_INTERVAL_MS), setInterval(() => this.sendMetrics(), METRICS_INTERVAL_MS)];
    this.report({ kind: "started" });
    this.sendMetrics();
  }

  private receive(message: MainToWorker): void {
    switch (message.kind) {
      case "stop":
        void this.stop();
        return;
      case "pause":
        this.thread.pause();
        return;
      case "resume":
        this.thread.resume();
        return;
      case "subscribed":
        this.subscribed = new Set(message.types);
        return;
      case "debug":
        this.debug = message.on;
        return;
      case "cache":
        this.cacheBudget.maxBytes = message.maxBytes;
        return;
      case "call":
        this.answer(message.call).then(
          (value) => this.reply(message.id, value),
          (error: unknown) => this.post({ kind: "reply", id: message.id, error: cloneError(error) }),
        );
    }
  }

  /** An answer the structured clone cannot take (a value holding functions, say) is the call's error. */
  private reply(id: number, value: unknown): void {
    try {
      this.post({ kind: "reply", id, value });
    } catch (error) {
      this.post({ kind: "reply", id, error: cloneError(error) });
    }
  }

  private async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.thread.stop();
    this.flushEvents();
    this.sendMetrics();
    this.post({ kind: "stopped" });
  }

  private async answer(call: Extract<MainToWorker, { kind: "call" }>["call"]): Promise<unknown> {
    if ("statistics" in call) return this.thread.storeStatistics();
    if ("next" in call) return this.page(call.next);
    if ("close" in call) {
      const iterator = this.iterations.get(call.close);
      this.iterations.delete(call.close);
      await iterator?.return?.();
      return undefined;
    }
    return this.query(call.store);
  }

  /** One store method's answer: a promise's value, or the first page of an iteration. */
  private async query({ subTopologyId, partition, store, standby, method, args }: StoreCall): Promise<unknown> {
    const found: ReadOnlyStore | undefined = standby ? this.thread.standbyStore(subTopologyId, partition, store)?.store : this.thread.readOnlyStore(subTopologyId, partition, store);
    if (!found) throw new Error(`store '${store}' of partition ${partition} is not available on ${this.thread.name} any more`);
    const target = found.store as unknown as Record<string, (...args: unknown[]) => unknown>;
    const answer = target[method].apply(found.store, reviveBuffers(args) as unknown[]);
    if (answer instanceof Promise) return answer;
    const cursor = this.nextCursor++;
    this.iterations.set(cursor, (answer as AsyncIterable<unknown>)[Symbol.asyncIterator]());
    return this.page(cursor);
  }

  private async page(cursor: number): Promise<Page> {
    const iterator = this.iterations.get(cursor);
    if (!iterator) throw new Error("the iteration is over");
    const entries: unknown[] = [];
    while (entries.length < PAGE_SIZE) {
      const next = await iterator.next();
      if (next.done) {
        this.iterations.delete(cursor);
        return { entries };
      }
      entries.push(next.value);
    }
    return { entries, cursor };
  }

  /** Events of a type nobody subscribes to go nowhere on the main thread either: they are not sent. */
  private event(type: string, key: unknown, value: unknown, timestamp: number): void {
    if (!this.subscribed.has(type)) return;
    // A fetch's events leave together, once its batch is done.
    if (this.events.length === 0) setImmediate(() => this.flushEvents());
    this.events.push([type, key, value, timestamp]);
  }

  private flushEvents(): void {
    if (this.events.length === 0) return;
    const events = this.events;
    this.events = [];
    try {
      this.post({ kind: "event", events });
    } catch {
      // One event the structured clone cannot take: the others go one by one, and it is dropped, logged.
      for (const event of events) {
        try {
          this.post({ kind: "event", events: [event] });
        } catch (error) {
          this.post({ kind: "log", level: "warn", message: "an event that cannot cross to the main thread is dropped", fields: { thread: this.thread.name, type: event[0], error: String(error) } });
        }
      }
    }
  }

  /** A change of state, after the views as of it (messages arrive in order). */
  private report(message: WorkerToMain): void {
    this.flushEvents();
    this.sendSnapshot();
    this.post(message);
  }

  private sendSnapshot(): void {
    this.post({ kind: "snapshot", snapshot: this.snapshot() });
  }

  private sendMetrics(): void {
    this.post({ kind: "metrics", groups: this.registry.snapshot() });
  }

  private snapshot(): ThreadSnapshot {
    const { thread } = this;
    const standbyTasks = thread.standbyTasks();
    const { topology } = this;
    return {
      memberId: thread.memberId,
      generationId: thread.generationId,
      partitionCounts: thread.knownPartitionCounts(),
      activeTasks: thread.activeTasks(),
      standbyTasks,
      positions: thread.positions(),
      queryablePartitions: topology.subTopologies.map((_, id) => [...thread.queryablePartitions(id)]),
      storePartitions: thread.storePartitions(),
      standbyStores: standbyTasks.flatMap(({ subTopologyId, partition }) =>
        topology.subTopologies[subTopologyId].stores.flatMap((store) => {
          const found = thread.standbyStore(subTopologyId, partition, store);
          return found ? [{ subTopologyId, partition, store, lag: found.lag }] : [];
        }),
      ),
    };
  }

  private logger(): ComponentLogger {
    const line = (level: LineLevel) => (message: string, fields?: LogFields) => {
      if (level === "debug" && !this.debug) return;
      try {
        this.port.postMessage({ kind: "log", level, message, fields } satisfies WorkerToMain);
      } catch {
        this.port.postMessage({ kind: "log", level, message, fields: fields && cloneableFields(fields) } satisfies WorkerToMain);
      }
    };
    return { debug: line("debug"), info: line("info"), warn: line("warn"), error: line("error"), isLevelEnabled: (level) => level !== "debug" || this.debug };
  }

  private post(message: WorkerToMain): void {
    this.port.postMessage(message);
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  let worker: ThreadWorker | undefined;
  try {
    worker = new ThreadWorker(port, workerData as ThreadWorkerData);
  } catch (error) {
    // The main thread terminates it.
    port.postMessage({ kind: "startFailed", error: cloneError(error) } satisfies WorkerToMain);
  }
  void worker?.start();
}
