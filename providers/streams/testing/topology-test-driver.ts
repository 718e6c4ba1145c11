/**
 * Runs a topology in-process without Kafka, like Kafka Streams' TopologyTestDriver: pipe records into source
 * topics, read what sinks wrote, read stores and event streams. Stores are the real LevelDB stores in a
 * temporary directory; every `pipeInput` is processed and committed as one batch per task. Records written to
 * a topic that the topology also reads (repartition topics) flow back in before `pipeInput` returns.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { SerdeRef, StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { ReadOnlyStore } from "../../../kernel/contracts/streams/stores";
import type { EventRecord } from "../../../kernel/contracts/streams/runtime";
import type { ConfigValue, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { CompiledTopology, taskIdOf } from "../engine/compiled-topology";
import { errorPolicy } from "../engine/error-policy";
import { deadLetterRecord, deadLetterTopic } from "../kafka/topics/dead-letters";
import { encodeChangelogPositions, TaskPositions } from "../kafka/changelog/task-positions";
import { TopicPartitionMap } from "../kafka/topics/topic-partition";
import { partitionOfKey } from "../../kafka-client";
import { StreamTask, type OutputRecord } from "../engine/stream-task";
import { silentLogger } from "../../../kernel/logger";
import { resolveSerde } from "../serdes/serde-resolver";
import { openTaskState, type TaskState } from "../state/task-state";
import { applicationConfig } from "../streams-config";
import { buildTopology } from "../engine/build-topology";

export interface TestRecord<K, V> {
  key: K;
  value: V;
  timestamp?: number;
}

export interface TestDriverOptions {
  /** application.id defaults to "test-app"; default serdes to string. */
  config?: Record<string, ConfigValue>;
  /** Partitions of every topic; default 1. */
  partitions?: number;
  /** Wall-clock start, epoch ms; default 0. */
  startTimeMs?: number;
}

/** An output as Kafka would hold it: bytes only. */
type WrittenRecord = OutputRecord & { key: Buffer | null; value: Buffer | null };

/** A string key or value (the builtin string serde's output, which the runtime's encoder writes itself) as its UTF-8. */
function written(record: OutputRecord): WrittenRecord {
  return { ...record, key: bytesOf(record.key), value: bytesOf(record.value) };
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

export class TopologyTestDriver {
  private readonly outputs = new Map<string, WrittenRecord[]>();
  private readonly events: EventRecord[] = [];
  private readonly offsets = new TopicPartitionMap<number>();
  private readonly pending: OutputRecord[] = [];

  private constructor(
    readonly topology: CompiledTopology,
    private readonly tasks: Map<string, DriverTask>,
    private readonly partitions: number,
    private readonly stateDir: string,
    private wallClock: { now: number },
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
    for (const sub of compiled.subTopologies) {
      for (let partition = 0; partition < partitions; partition++) {
        const taskId = taskIdOf(sub.id, partition);
        const state = await openTaskState({ stateDir, applicationId: compiled.applicationId, taskId, stores: compiled.storeSpecsOf(sub.id) });
        const task = new StreamTask(compiled, sub.id, partition, state, {
          applicationId: compiled.applicationId,
          emit: (record) => driver!.pending.push(record),
          sendEvent: (type, key, value, timestamp) => driver!.events.push({ type, key, value, timestamp }),
          onError,
          now: () => clock.now,
        });
        tasks.set(taskId, { task, state, positions: TaskPositions.decode({}), changelogPositions: new Map() });
      }
    }
    driver = new TopologyTestDriver(compiled, tasks, partitions, stateDir, clock);
    return driver;
  }

  /** Serializes with the given serdes, or the serdes of the topic's source node. */
  async pipeInput<K, V>(topic: string, records: TestRecord<K, V>[], serdes: { key?: SerdeRef<K>; value?: SerdeRef<V> } = {}): Promise<void> {
    const source = this.sourceSerdes(topic);
    const keySerde = resolveSerde(serdes.key, source.key, `input key of '${topic}'`);
    const valueSerde = resolveSerde(serdes.value, source.value, `input value of '${topic}'`);
    for (const record of records) {
      this.pending.push({
        topic,
        key: record.key === null || record.key === undefined ? null : keySerde.serialize(record.key),
        value: record.value === null || record.value === undefined ? null : valueSerde.serialize(record.value),
        timestamp: record.timestamp ?? this.wallClock.now,
      });
    }
    this.drainPending();
    await this.commit();
  }

  /** Moves the wall clock and runs the wall-clock punctuators that are due. */
  async advanceWallClock(ms: number): Promise<void> {
    this.wallClock.now += ms;
    for (const { task } of this.tasks.values()) task.punctuateWallClock(this.wallClock.now);
    this.drainPending();
    await this.commit();
  }

  /** Returns and forgets what the topology wrote to `topic`, deserialized with the sink's serdes unless given. */
  readOutput<K = unknown, V = unknown>(topic: string, serdes: { key?: SerdeRef<K>; value?: SerdeRef<V> } = {}): TestRecord<K, V>[] {
    const sink = this.sinkSerdes(topic);
    const keySerde = resolveSerde(serdes.key, sink?.key, `output key of '${topic}'`);
    const valueSerde = resolveSerde(serdes.value, sink?.value, `output value of '${topic}'`);
    const records = this.outputs.get(topic) ?? [];
    this.outputs.delete(topic);
    return records.map((record) => ({
      key: record.key === null ? (null as K) : keySerde.deserialize(record.key),
      value: record.value === null ? (null as V) : valueSerde.deserialize(record.value),
      timestamp: record.timestamp,
    }));
  }

  /** Returns and forgets the records sent to event streams (of one type when given). */
  readEvents(type?: string): EventRecord[] {
    const matching = this.events.filter((event) => type === undefined || event.type === type);
    const rest = this.events.filter((event) => !matching.includes(event));
    this.events.splice(0, this.events.length, ...rest);
    return matching;
  }

  /** The committed contents of one partition of a store, for queries. */
  store(name: string, partition = 0): ReadOnlyStore {
    const sub = this.topology.subTopologyOfStore(name);
    if (sub === undefined) throw new Error(`unknown store '${name}'`);
    return this.tasks.get(taskIdOf(sub, partition))!.state.readOnly(name);
  }

  async close(): Promise<void> {
    for (const { task, state } of this.tasks.values()) {
      task.close();
      await state.close();
    }
    fs.rmSync(this.stateDir, { recursive: true, force: true });
  }

  private drainPending(): void {
    while (this.pending.length > 0) {
      const record = written(this.pending.shift()!);
      const sub = this.topology.subTopologyOfTopic(record.topic);
      if (sub === undefined) {
        const list = this.outputs.get(record.topic) ?? [];
        list.push(record);
        this.outputs.set(record.topic, list);
        continue;
      }
      const partition = record.partition ?? (record.key === null ? 0 : partitionOfKey(record.key, this.partitions));
      const driverTask = this.tasks.get(taskIdOf(sub, partition))!;
      const offset = this.offsets.get(record.topic, partition) ?? 0;
      this.offsets.set(record.topic, partition, offset + 1);
      driverTask.task.process(record.topic, { key: record.key, value: record.value, timestamp: record.timestamp, offset });
      driverTask.positions.inputs.set(record.topic, partition, offset + 1);
    }
  }

  private async commit(): Promise<void> {
    for (const { state, positions, changelogPositions } of this.tasks.values()) {
      for (const change of state.drainChangelog()) changelogPositions.set(change.store, (changelogPositions.get(change.store) ?? -1) + 1);
      await state.commit({ inputPositions: positions.encode(), changelogPositions: encodeChangelogPositions(changelogPositions) });
    }
  }

  private sourceSerdes(topic: string) {
    for (const node of this.topology.definition.nodes.values()) {
      if (node.kind === "source" && node.topics.includes(topic)) return this.topology.serdesOf(node.name);
    }
    throw new Error(`the topology reads no topic '${topic}'`);
  }

  private sinkSerdes(topic: string) {
    for (const node of this.topology.definition.nodes.values()) {
      if (node.kind === "sink" && node.topic === topic) return this.topology.serdesOf(node.name);
    }
    return undefined;
  }
}
