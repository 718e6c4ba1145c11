/**
 * Runs a topology in-process without Kafka, like Kafka Streams' TopologyTestDriver: pipe records into source
 * topics (TestInputTopic), read what sinks wrote (TestOutputTopic), read stores and event streams. Stores are the
 * real LevelDB stores in a temporary directory. As in Kafka Streams' driver, each piped record is processed whole
 * before the next: records written to a topic that the topology also reads (repartition topics) flow back in first,
 * and the record cache (`statestore.cache.max.bytes`) is flushed after every record processed, as if each were
 * committed. The stores are committed once per pipe. A task with several input partitions queues their records and
 * takes them in time order, as Kafka Streams' driver does: every partition is caught up (lag 0), so with
 * `max.task.idle.ms` above 0 a record waits until every partition of its task has one, or until the wall clock has
 * moved that far past the moment it began to wait. A record piped into the topic of a global table updates its
 * global store at once, as Kafka Streams' driver has it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { SerdeRef, StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type {
  KeyValueStore,
  ProcessorStore,
  ReadOnlyStore,
  SessionStore,
  TimestampedKeyValueStore,
  TimestampedWindowStore,
  WindowStore,
} from "../../../kernel/contracts/streams/stores";
import type { EventRecord, MetricGroup } from "../../../kernel/contracts/streams/runtime";
import type { ConfigValue, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { CompiledTopology, taskIdOf } from "../engine/compiled-topology";
import { errorPolicy } from "../engine/error-policy";
import { deadLetterRecord, deadLetterTopic } from "../kafka/topics/dead-letters";
import { encodeChangelogPositions, TaskPositions } from "../kafka/changelog/task-positions";
import { TopicPartitionMap } from "../kafka/topics/topic-partition";
import { partitionOfKey } from "../../kafka-client";
import { StreamTask, type OutputRecord, type RawRecord } from "../engine/stream-task";
import type { Header, RecordingLevel } from "../../../kernel/contracts/streams/processor";
import { CacheBudget } from "../state/record-cache";
import { TestRecord, type PipedRecord } from "./test-record";
import { TestInputTopic, TestOutputTopic, type InputTopicOptions, type TestTopicDriver, type TopicSerdes } from "./test-topics";
import { silentLogger } from "../../../kernel/logger";
import { resolveSerde } from "../serdes/serde-resolver";
import { openTaskState, taskStateDirectory, type TaskState } from "../state/task-state";
import { MetricsRegistry } from "../metrics/metrics-registry";
import { streamsMetrics } from "../metrics/streams-metrics";
import { applicationConfig } from "../streams-config";
import { buildTopology } from "../engine/build-topology";
import { GlobalStores } from "../state/global-store";
import { GLOBAL_TASK_ID, GlobalStoreUpdates } from "../engine/global-store-updates";


export interface TestDriverOptions {
  /** application.id defaults to "test-app"; default serdes to string. */
  config?: Record<string, ConfigValue>;
  /** Partitions of every topic; default 1. */
  partitions?: number;
  /** Wall-clock start, epoch ms; default 0. */
  startTimeMs?: number;
}

/** An output as Kafka would hold it: bytes, and its headers in one list. */
type WrittenRecord = OutputRecord & { key: Buffer | null; value: Buffer | null };

/** A string key or value (the builtin string serde's output, which the runtime's encoder writes itself) as its UTF-8. */
function written(record: OutputRecord): WrittenRecord {
  return { ...record, key: bytesOf(record.key), value: bytesOf(record.value), headerList: headersOf(record), headers: undefined };
}

/** The record's headers as a topic holds them: its own, then the runtime's (a dead letter's); the origin stamp aside. */
function headersOf(record: OutputRecord): readonly Header[] | undefined {
  if (record.headers === undefined) return record.headerList;
  const own = Object.entries(record.headers).map(([key, value]) => ({ key, value: Buffer.from(value, "utf8") }));
  return [...(record.headerList ?? []), ...own];
}

function bytesOf(field: Buffer | string | null): Buffer | null {
  return typeof field === "string" ? Buffer.from(field, "utf8") : field;
}

interface DriverTask {
  task: StreamTask;
  state: TaskState;
  positions: TaskPositions;
  /** Store → offset of its last changelog record, as if the changelog were a topic. */
  changelogPositions: Map<string, number>;
}

export class TopologyTestDriver implements TestTopicDriver {
  private readonly outputs = new Map<string, WrittenRecord[]>();
  private readonly produced = new Set<string>();
  private readonly events: EventRecord[] = [];
  private readonly offsets = new TopicPartitionMap<number>();
  private readonly pending: OutputRecord[] = [];

  private constructor(
    readonly topology: CompiledTopology,
    private readonly tasks: Map<string, DriverTask>,
    private readonly partitions: number,
    private readonly stateDir: string,
    private wallClock: { now: number },
    private readonly registry: MetricsRegistry,
    private readonly globalStores: GlobalStores,
    private readonly globalUpdates: GlobalStoreUpdates,
  ) {}

  static async create(topology: TopologyProvider | ((builder: StreamsBuilder) => void), options: TestDriverOptions = {}): Promise<TopologyTestDriver> {
    const given: Record<string, ConfigValue> = { "application.id": "test-app", ...options.config };
    const provider: TopologyProvider =
      typeof topology === "function" ? { name: "test", version: "0", config: given, topology: (builder) => topology(builder) } : topology;
    const config = applicationConfig([
      { values: provider.config, source: `topology provider '${provider.name}'` },
      { values: given, source: "the test driver's config" },
    ]);
    const compiled = buildTopology(provider, config);
    const partitions = options.partitions ?? 1;
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-driver-"));
    const clock = { now: options.startTimeMs ?? 0 };
    const tasks = new Map<string, DriverTask>();
    const deadLetters = deadLetterTopic(config.settings, compiled.applicationId);
    const onError = errorPolicy(config.settings, silentLogger, (failed, error, phase, taskId) =>
      driver!.pending.push(deadLetterRecord(deadLetters, 0, failed, error, phase, compiled.applicationId, taskId)),
    );
    let driver: TopologyTestDriver | undefined;
    const cacheBudget = new CacheBudget(config.settings.get("statestore.cache.max.bytes"));
    const registry = new MetricsRegistry();
    const globalStores = new GlobalStores(compiled.globalStoreSpecs());
    for (const sub of compiled.subTopologies) {
      for (let partition = 0; partition < partitions; partition++) {
        const taskId = taskIdOf(sub.id, partition);
        let task: StreamTask | undefined;
        const state = await openTaskState({
          stateDir,
          applicationId: compiled.applicationId,
          taskId,
          stores: compiled.storeSpecsOf(sub.id),
          cacheBudget,
          currentHeaders: () => task?.currentHeaders(),
          currentTimestamp: () => Math.max(task?.currentRecordTimestamp ?? 0, 0),
        });
        task = new StreamTask(compiled, sub.id, partition, state, {
          applicationId: compiled.applicationId,
          appConfigs: Object.freeze(config.settings.all()),
          stateDir: (id) => taskStateDirectory(stateDir, compiled.applicationId, id),
          metrics: (id) => streamsMetrics(registry, config.settings.get("metrics.recording.level") as RecordingLevel, { "thread-id": `${compiled.applicationId}-test-driver`, "task-id": id }),
          emit: (record) => driver!.pending.push(record),
          sendEvent: (type, key, value, timestamp) => driver!.events.push({ type, key, value, timestamp }),
          onError,
          now: () => clock.now,
          // As Kafka Streams' driver: closed windows are looked for at every record, whatever the wall clock.
          windowEmitIntervalMs: 0,
          maxTaskIdleMs: config.settings.get("max.task.idle.ms"),
          globalStores,
        });
        for (const topic of task.group?.topics() ?? []) task.group!.setLag(topic, 0);
        tasks.set(taskId, { task, state, positions: TaskPositions.decode({}), changelogPositions: new Map() });
      }
    }
    for (const { task } of tasks.values()) await task.prepare();
    const globalUpdates = new GlobalStoreUpdates(globalStores, {
      applicationId: compiled.applicationId,
      appConfigs: Object.freeze(config.settings.all()),
      stateDir: () => taskStateDirectory(stateDir, compiled.applicationId, GLOBAL_TASK_ID),
      metrics: () => streamsMetrics(registry, config.settings.get("metrics.recording.level") as RecordingLevel, { "thread-id": `${compiled.applicationId}-test-driver`, "task-id": GLOBAL_TASK_ID }),
      now: () => clock.now,
      defaultSerdes: compiled.defaultSerdes,
    });
    driver = new TopologyTestDriver(compiled, tasks, partitions, stateDir, clock, registry, globalStores, globalUpdates);
    return driver;
  }

  /** An input topic: records piped there are serialized with the given serdes, or those of the topic's source. */
  createInputTopic<K, V>(topic: string, keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>, options: InputTopicOptions = {}): TestInputTopic<K, V> {
    this.sourceSerdes(topic);
    return new TestInputTopic(this, topic, { key: keySerde, value: valueSerde }, options.startTimestamp ?? this.wallClock.now, options.autoAdvanceMs ?? 0);
  }

  /** An output topic: its records are deserialized with the given serdes, or those of the topic's sink. */
  createOutputTopic<K, V>(topic: string, keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>): TestOutputTopic<K, V> {
    return new TestOutputTopic(this, topic, { key: keySerde, value: valueSerde });
  }

  /** Pipes records into `topic`, serialized with the given serdes or those of the topic's source node. */
  pipeInput<K, V>(topic: string, records: PipedRecord<K, V>[], serdes: TopicSerdes<K, V> = {}): Promise<void> {
    return this.pipeRecords(topic, records, serdes);
  }

  /** See TestTopicDriver: each record is processed whole, the stores are committed at the end. */
  async pipeRecords<K, V>(topic: string, records: PipedRecord<K, V>[], serdes: TopicSerdes<K, V>): Promise<void> {
    const source = this.sourceSerdes(topic);
    const keySerde = resolveSerde(serdes.key, source.key, `input key of '${topic}'`);
    const valueSerde = resolveSerde(serdes.value, source.value, `input value of '${topic}'`);
    for (const record of records) {
      if (record.partition !== undefined && !(record.partition >= 0 && record.partition < this.partitions)) {
        throw new Error(`partition ${record.partition} of '${topic}' does not exist: the driver runs ${this.partitions}`);
      }
      const headers = record.headers === undefined || record.headers === null ? undefined : [...record.headers];
      this.route({
        topic,
        partition: record.partition,
        key: record.key === null || record.key === undefined ? null : keySerde.serialize(record.key),
        value: record.value === null || record.value === undefined ? null : valueSerde.serialize(record.value),
        timestamp: record.timestamp ?? this.wallClock.now,
        headerList: headers === undefined || headers.length === 0 ? undefined : headers,
      });
      this.drainPending();
    }
    await this.commit();
  }

  /** Moves the wall clock and runs the wall-clock punctuators that are due (Kafka Streams' advanceWallClockTime). */
  async advanceWallClockTime(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`advance must not be negative, got ${ms}`);
    this.wallClock.now += ms;
    for (const { task } of this.tasks.values()) task.punctuateWallClock(this.wallClock.now);
    this.flushCaches();
    this.drainPending();
    await this.commit();
  }

  /** advanceWallClockTime, by its earlier name. */
  advanceWallClock(ms: number): Promise<void> {
    return this.advanceWallClockTime(ms);
  }

  /** Returns and forgets what the topology wrote to `topic`, deserialized with the sink's serdes unless given. */
  readOutput<K = unknown, V = unknown>(topic: string, serdes: TopicSerdes<K, V> = {}): TestRecord<K, V>[] {
    return this.createOutputTopic(topic, serdes.key, serdes.value).readRecordsToList();
  }

  /** See TestTopicDriver. */
  takeRecord<K, V>(topic: string, serdes: TopicSerdes<K, V>): TestRecord<K, V> | undefined {
    const record = this.outputs.get(topic)?.shift();
    if (record === undefined) return undefined;
    const sink = this.sinkSerdes(topic);
    const keySerde = resolveSerde(serdes.key, sink?.key, `output key of '${topic}'`);
    const valueSerde = resolveSerde(serdes.value, sink?.value, `output value of '${topic}'`);
    const key = record.key === null ? (null as K) : keySerde.deserialize(record.key);
    const value = record.value === null ? (null as V) : valueSerde.deserialize(record.value);
    return new TestRecord(key, value, record.headerList, record.timestamp);
  }

  queueSize(topic: string): number {
    return this.outputs.get(topic)?.length ?? 0;
  }

  /** The topics the topology has written to so far, its repartition topics aside. */
  producedTopicNames(): string[] {
    return [...this.produced];
  }

  /** The metrics of the topology's processors (the sensors they add through ProcessorContext.metrics()). */
  metrics(): MetricGroup[] {
    return this.registry.snapshot();
  }

  /** Returns and forgets the records sent to event streams (of one type when given). */
  readEvents(type?: string): EventRecord[] {
    const matching = this.events.filter((event) => type === undefined || event.type === type);
    const rest = this.events.filter((event) => !matching.includes(event));
    this.events.splice(0, this.events.length, ...rest);
    return matching;
  }

  /**
   * The store as processors see it (Kafka Streams' getKeyValueStore and the like): every write so far, and writes
   * of the test's own, committed with the next pipe. `partition`: which task's part of the store, default 0.
   */
  getKeyValueStore<K, V>(name: string, partition = 0): KeyValueStore<K, V> {
    return this.stateOf(name, partition).keyValueStore<K, V>(name);
  }

  getTimestampedKeyValueStore<K, V>(name: string, partition = 0): TimestampedKeyValueStore<K, V> {
    return this.stateOf(name, partition).timestampedKeyValueStore<K, V>(name);
  }

  getWindowStore<K, V>(name: string, partition = 0): WindowStore<K, V> {
    return this.stateOf(name, partition).windowStore<K, V>(name);
  }

  getTimestampedWindowStore<K, V>(name: string, partition = 0): TimestampedWindowStore<K, V> {
    return this.stateOf(name, partition).timestampedWindowStore<K, V>(name);
  }

  getSessionStore<K, V>(name: string, partition = 0): SessionStore<K, V> {
    return this.stateOf(name, partition).sessionStore<K, V>(name);
  }

  /** Any store, by name, as its processors see it. */
  getStateStore(name: string, partition = 0): ProcessorStore {
    return this.stateOf(name, partition).store(name);
  }

  /** Every store of the topology (of one partition's tasks), by name. */
  getAllStateStores(partition = 0): Map<string, ProcessorStore> {
    return new Map(this.topology.storeNames().filter((name) => this.globalStores.store(name) === undefined).map((name) => [name, this.getStateStore(name, partition)]));
  }

  /** The committed contents of one partition of a store, for queries; a global store's whole, whatever the partition. */
  store(name: string, partition = 0): ReadOnlyStore {
    return this.globalStores.store(name)?.queryable() ?? this.stateOf(name, partition).readOnly(name);
  }

  private stateOf(name: string, partition: number): TaskState {
    const sub = this.topology.subTopologyOfStore(name);
    if (sub === undefined) throw new Error(`unknown store '${name}'`);
    const task = this.tasks.get(taskIdOf(sub, partition));
    if (task === undefined) throw new Error(`store '${name}' has no partition ${partition}: the driver runs ${this.partitions}`);
    return task.state;
  }

  async close(): Promise<void> {
    this.globalUpdates.close();
    for (const { task, state } of this.tasks.values()) {
      task.close();
      await state.close();
    }
    fs.rmSync(this.stateDir, { recursive: true, force: true });
  }

  /**
   * Processes what the topology wrote, and what that writes in turn, one record at a time, then the queued records
   * tasks with several input partitions may process, one at a time, each followed by what it wrote. Records written
   * to a topic other than a repartition topic are kept as outputs, also when the topology reads them too.
   */
  private drainPending(): void {
    do {
      while (this.pending.length > 0) {
        for (const record of this.placed(this.pending.shift()!)) {
          if (!this.topology.definition.repartitionTopics.has(record.topic)) this.keepOutput(record);
          this.route(record);
        }
      }
    } while (this.processQueuedRecord());
  }

  /** An output as its topic holds it: a copy in each partition its sink's StreamPartitioner chose, if it has one. */
  private placed(output: OutputRecord): WrittenRecord[] {
    const record = written(output);
    const chosen = output.partitioner?.(this.partitions);
    return chosen === undefined ? [record] : chosen.map((partition) => ({ ...record, partition }));
  }

  /** Processes a record of a topic the topology reads in the task of its partition, or queues it there (see drainPending). */
  private route(record: WrittenRecord): void {
    const global = this.globalStores.ofTopic(record.topic) !== undefined;
    const sub = this.topology.subTopologyOfTopic(record.topic);
    if (sub === undefined && !global) return;
    const partition = record.partition ?? (record.key === null ? 0 : partitionOfKey(record.partitionKey ?? record.key, this.partitions));
    const offset = this.offsets.get(record.topic, partition) ?? 0;
    this.offsets.set(record.topic, partition, offset + 1);
    // As Kafka Streams' driver: a record of a global topic updates its store at once, as a live update does.
    if (global) {
      const headers = record.headerList ?? [];
      return this.globalUpdates.update({ topic: record.topic, partition, offset, key: record.key, value: record.value, timestamp: record.timestamp, headers: { headerEntries: () => [...headers] } }, false);
    }
    const driverTask = this.tasks.get(taskIdOf(sub!, partition))!;
    const raw: RawRecord = { key: record.key, value: record.value, timestamp: record.timestamp, offset, headers: record.headerList };
    const group = driverTask.task.group;
    if (group !== undefined) {
      let taken = false;
      group.add(record.topic, { read: () => (taken ? undefined : ((taken = true), raw)) }, offset + 1);
      return;
    }
    driverTask.task.process(record.topic, raw);
    driverTask.positions.inputs.set(record.topic, partition, offset + 1);
    this.flushCaches();
  }

  /** Processes the next queued record a task may process now (see engine/partition-group); false when none may. */
  private processQueuedRecord(): boolean {
    for (const { task, positions } of this.tasks.values()) {
      const next = task.group?.next(this.wallClock.now);
      if (next === undefined) continue;
      task.processStamped(next.topic, next.raw, next.record);
      positions.inputs.set(next.topic, task.partition, next.raw.offset + 1);
      this.flushCaches();
      return true;
    }
    return false;
  }

  private keepOutput(record: WrittenRecord): void {
    const list = this.outputs.get(record.topic) ?? [];
    list.push(record);
    this.outputs.set(record.topic, list);
    this.produced.add(record.topic);
  }

  /** Kafka Streams' driver commits, and so flushes the record cache, after every record it processes. */
  private flushCaches(): void {
    for (const { state } of this.tasks.values()) state.flushCache();
  }

  private async commit(): Promise<void> {
    for (const { state, positions, changelogPositions } of this.tasks.values()) {
      for (const change of state.drainChangelog()) changelogPositions.set(change.store, (changelogPositions.get(change.store) ?? -1) + 1);
      await state.commit({ inputPositions: positions.encode(), changelogPositions: encodeChangelogPositions(changelogPositions) });
    }
  }

  private sourceSerdes(topic: string) {
    const global = this.globalStores.ofTopic(topic);
    if (global !== undefined) {
      // What the topic holds is what a store's processor reads, or else the global table's rows.
      const read = global.spec.processor ?? global.spec;
      return { key: read.keySerde, value: read.valueSerde };
    }
    for (const node of this.topology.definition.nodes.values()) {
      if (node.kind === "source" && node.topics.includes(topic)) return this.topology.serdesOf(node.name);
    }
    throw new Error(`the topology reads no topic '${topic}'`);
  }

  /** The serdes of the sink that writes `topic`, or else of a sink whose TopicNameExtractor may name it. */
  private sinkSerdes(topic: string) {
    const sinks = [...this.topology.definition.nodes.values()].filter((node) => node.kind === "sink");
    const sink = sinks.find((node) => node.topic === topic) ?? sinks.find((node) => typeof node.topic !== "string");
    return sink === undefined ? undefined : this.topology.serdesOf(sink.name);
  }
}
