/**
 * One run of an application on Kafka: its group consumer and producer (Sluice's own client), its admin client
 * (kafkajs), its tasks, and the per-batch protocol — process the fetched batch, drain the changelog, produce
 * changelog and sink records (awaited until acknowledged), commit the stores with their input and changelog
 * positions in one atomic write, then return so that the consumer commits the group's offset.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Admin, Kafka } from "kafkajs";
import { checkClusterAccess, COMPRESSION_TYPES, GroupConsumer, RecordProducer, type BrokerSecurity, type CompressionType, type FetchedBatch, type KafkaEndpoint, type PartitionOffsets } from "../../kafka-client";
import type { LevelDbConfigSetter } from "../../../kernel/contracts/streams/stores";
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";
import { type CompiledTopology, parseTaskId, taskIdOf } from "../engine/compiled-topology";
import { errorPolicy, isDeadLetterPolicy } from "../engine/error-policy";
import type { ErrorPhase, FailedRecord, OutputRecord } from "../engine/stream-task";
import type { LocalEventStreamHub } from "../events/event-stream-hub";
import type { ComponentLogger } from "../../../kernel/logger";
import type { RunMetrics } from "../metrics/run-metrics";
import type { ChangelogRecord } from "../state/store-context";
import { restoreFromChangelogs } from "./changelog-restorer";
import { encodePositions } from "./commit-marker";
import { DEAD_LETTER_POSITION_PREFIX, deadLetterRecord, deadLettersOf, deadLetterTopic, inputRecordKey } from "./dead-letters";
import { ensureTopics } from "./internal-topics";
import { ORIGIN_HEADER, OriginMarks } from "./repartition-origin";
import { ProduceRequestBuilder, type OutgoingRecord } from "./produce-requests";
import { committedInputs, localStateIsCurrent, openRunTask, planRestore, staleStateReason, type RunTask } from "./run-task";
import { streamsAssignor } from "./streams-assignor";
import { TopicEnds } from "./topic-ends";

export interface RunOptions {
  kafka: Kafka;
  /** The brokers `kafka` was made for, `host:port`: the producer bootstraps from them. */
  bootstrapServers: string[];
  /** TLS and SASL settings of the connections to the cluster (security.protocol). */
  security: BrokerSecurity;
  topology: CompiledTopology;
  config: Readonly<Record<string, ConfigValue>>;
  server: string | null;
  stateDir: string;
  configSetter?: LevelDbConfigSetter;
  hub: LocalEventStreamHub;
  metrics: RunMetrics;
  logger: ComponentLogger;
  clientIdPrefix: string;
  onRebalancing(): void;
  onRunning(): void;
  onFatal(error: unknown): void;
}

export interface PositionFigures {
  consumedOffset: number;
  consumedTimestamp: number;
  committedOffset: number;
  committedTimestamp: number;
}

/**
 * A changelog is read back last-write-wins, so only the last write of each key in a batch is produced (in the
 * order of each key's first write: the order between keys does not matter to a restore).
 */
function latestPerKey(changes: ChangelogRecord[]): ChangelogRecord[] {
  if (changes.length < 2) return changes;
  const byStore = new Map<string, Map<string, ChangelogRecord>>();
  for (const change of changes) {
    let latest = byStore.get(change.store);
    if (latest === undefined) {
      latest = new Map();
      byStore.set(change.store, latest);
    }
    latest.set(change.key.toString("latin1"), change);
  }
  const kept: ChangelogRecord[] = [];
  for (const latest of byStore.values()) for (const change of latest.values()) kept.push(change);
  return kept;
}

const numberConfig = (config: Readonly<Record<string, ConfigValue>>, key: string, fallback: number): number => {
  const value = Number(config[key] ?? fallback);
  return Number.isFinite(value) ? value : fallback;
};

export interface ReadyTasks {
  tasks: readonly RunTask[];
  partitions: readonly number[];
}

const NO_READY_TASKS: ReadyTasks = { tasks: [], partitions: [] };

function groupReady(tasks: RunTask[]): Map<number, ReadyTasks> {
  const bySub = new Map<number, RunTask[]>();
  for (const task of tasks) {
    const list = bySub.get(task.subTopologyId);
    if (list) list.push(task);
    else bySub.set(task.subTopologyId, [task]);
  }
  return new Map(
    [...bySub].map(([sub, list]) => {
      const sorted = list.sort((a, b) => a.partition - b.partition);
      return [sub, { tasks: sorted, partitions: sorted.map((task) => task.partition) }];
    }),
  );
}

/** Input records processed between two turns of the event loop within one batch (see sendAhead). */
const RECORDS_PER_TURN = 4_096;

export class ApplicationRun {
  readonly consumerClientId: string;
  readonly producerClientId: string;
  readonly adminClientId: string;
  readonly tasks = new Map<string, RunTask>();
  readonly positions = new Map<string, PositionFigures>();
  partitionCounts = new Map<string, number>();
  private consumer?: GroupConsumer;
  private producer?: RecordProducer;
  private admin?: Admin;
  private queue: Promise<unknown> = Promise.resolve();
  private pendingOutputs: OutputRecord[] = [];
  /** Outputs of the batch in process sent ahead of its end (see processBatch); awaited before the next send. */
  private sendingAhead?: Promise<PartitionOffsets[]>;
  private failed = false;
  /** readyOf's answers, by sub-topology; dropped whenever a task opens, closes or finishes restoring. */
  private ready?: Map<number, ReadyTasks>;
  private stopped = false;
  private wallClockTimer?: NodeJS.Timeout;
  private readonly onError;
  /** The dead-letter topic, when `processing.error.policy` is `dead_letter`. */
  private readonly deadLetterTopic: string | undefined;
  private readonly requests = new ProduceRequestBuilder((topic) => this.partitionCounts.get(topic));

  constructor(private readonly options: RunOptions) {
    this.consumerClientId = `${options.clientIdPrefix}-StreamThread-1-consumer`;
    this.producerClientId = `${options.clientIdPrefix}-StreamThread-1-producer`;
    this.adminClientId = `${options.clientIdPrefix}-admin`;
    const { config, topology } = options;
    this.deadLetterTopic = isDeadLetterPolicy(config) ? deadLetterTopic(config, topology.applicationId) : undefined;
    this.onError = errorPolicy(config, options.logger, this.deadLetterTopic === undefined ? undefined : (failed, error, phase, taskId) => this.deadLetter(failed, error, phase, taskId));
  }

  private get endpoint(): KafkaEndpoint {
    return { bootstrapServers: this.options.bootstrapServers, ...this.options.security };
  }

  /** This instance's member id in the application's group; null before it has joined. */
  get memberId(): string | null {
    return this.consumer?.memberId || null;
  }

  /** The group generation this instance last joined; -1 before it has joined. */
  get generationId(): number {
    return this.consumer?.generationId ?? -1;
  }

  get adminClient(): Admin | undefined {
    return this.admin;
  }

  async start(): Promise<void> {
    const { kafka, topology, config, bootstrapServers, logger, metrics } = this.options;
    await checkClusterAccess(this.endpoint, this.adminClientId);
    this.admin = kafka.admin();
    await this.admin.connect();
    this.producer = new RecordProducer({ bootstrapServers, ...this.options.security, clientId: this.producerClientId, logger, compression: compressionType(config) });
    const [counts] = await Promise.all([ensureTopics(this.admin, topology, {
        defaultPartitions: numberConfig(config, "num.partitions", 1),
        replicationFactor: numberConfig(config, "replication.factor", -1),
        internalConfigs: prefixed(config, "topic."),
        singles: this.deadLetterTopic === undefined ? [] : [this.deadLetterTopic],
      }), this.producer.connect()]);
    this.partitionCounts = counts;
    const consumer = new GroupConsumer(
      {
        bootstrapServers,
        ...this.options.security,
        clientId: this.consumerClientId,
        groupId: topology.applicationId,
        assignor: streamsAssignor(topology, this.options.server),
        sessionTimeoutMs: numberConfig(config, "session.timeout.ms", 10_000),
        heartbeatIntervalMs: numberConfig(config, "heartbeat.interval.ms", 1_000),
        rebalanceTimeoutMs: numberConfig(config, "max.poll.interval.ms", 60_000),
        maxWaitMs: numberConfig(config, "fetch.max.wait.ms", 200),
        maxBytes: numberConfig(config, "fetch.max.bytes", 10_485_760),
        maxPartitionBytes: numberConfig(config, "max.partition.fetch.bytes", 1_048_576),
        knownPartitionCount: (topic) => this.partitionCounts.get(topic),
        logger,
      },
      {
        rebalancing: () => this.options.onRebalancing(),
        assigned: async (assignment) => {
          await this.serially(() => this.reconcile(assignment));
          if (!this.stopped && !this.failed) this.options.onRunning();
        },
        batch: (batch) =>
          this.serially(() => {
            if (this.failed) throw new Error("the application has failed; consuming stops");
            return this.processBatch(batch);
          }),
        fetched: () => metrics.poll(),
        committed: (offsets) => {
          const now = Date.now();
          for (const { topic, partition, offset } of offsets) {
            const figures = this.figures(`${topic}:${partition}`);
            figures.committedOffset = offset;
            figures.committedTimestamp = now;
          }
          metrics.commit();
        },
        failed: (error) => this.fail(error),
      },
    );
    this.consumer = consumer;
    await consumer.start();
    this.wallClockTimer = setInterval(() => this.punctuateWallClock(), numberConfig(config, "commit.interval.ms", 100));
    this.wallClockTimer.unref();
  }

  /** Stops consuming, lets the batch in flight finish and commit, then closes the tasks and clients. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.wallClockTimer);
    await this.consumer?.stop().catch((error) => this.options.logger.warn("consumer stop failed", { error: String(error) }));
    await this.serially(() => this.closeTasks([...this.tasks.keys()]));
    await this.producer?.close();
    await this.admin?.disconnect().catch(() => undefined);
  }

  /** Tasks that are ready (restored) for queries. */
  readyTasks(): RunTask[] {
    return [...this.tasks.values()].filter((task) => !task.restoring);
  }

  /**
   * The ready tasks of one sub-topology and their partitions, ascending; kept until the tasks change, since
   * every interactive query asks.
   */
  readyOf(subTopologyId: number): ReadyTasks {
    this.ready ??= groupReady(this.readyTasks());
    return this.ready.get(subTopologyId) ?? NO_READY_TASKS;
  }

  private fail(error: unknown): void {
    if (this.failed || this.stopped) return;
    this.failed = true;
    this.options.onFatal(error);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private figures(key: string): PositionFigures {
    let figures = this.positions.get(key);
    if (!figures) {
      figures = { consumedOffset: -1, consumedTimestamp: -1, committedOffset: -1, committedTimestamp: -1 };
      this.positions.set(key, figures);
    }
    return figures;
  }

  private async reconcile(assignment: Record<string, number[]>): Promise<void> {
    const { topology } = this.options;
    const wanted = new Set<string>();
    for (const [topic, partitions] of Object.entries(assignment)) {
      const sub = topology.subTopologyOfTopic(topic);
      if (sub !== undefined) for (const partition of partitions) wanted.add(taskIdOf(sub, partition));
    }
    for (const key of [...this.positions.keys()]) {
      const [topic, partition] = [key.slice(0, key.lastIndexOf(":")), Number(key.slice(key.lastIndexOf(":") + 1))];
      if (!assignment[topic]?.includes(partition)) this.positions.delete(key);
    }
    // A task kept across the rebalance whose input the group committed past its local state was processed by
    // another member meanwhile (this one missed generations: a broker restart, a lost session): reopen it, so
    // its stores are restored from the changelog instead of going on from what this member last knew.
    const kept = [...this.tasks.values()].filter((task) => wanted.has(task.id) && topology.subTopologies[task.subTopologyId].stores.length > 0);
    const keptCommitted = await committedInputs(this.admin!, topology, kept);
    const overtaken = new Set(kept.filter((task) => !localStateIsCurrent(keptCommitted, topology, task)).map((task) => task.id));
    if (overtaken.size > 0) this.options.logger.info("tasks processed elsewhere meanwhile are restored again", { tasks: [...overtaken] });
    await this.closeTasks([...this.tasks.keys()].filter((id) => !wanted.has(id) || overtaken.has(id)));
    const opened: RunTask[] = [];
    const ends = new TopicEnds(this.admin!);
    for (const id of wanted) {
      if (this.tasks.has(id)) continue;
      const { subTopologyId, partition } = parseTaskId(id);
      const openOptions = {
        topology,
        subTopologyId,
        partition,
        stateDir: this.options.stateDir,
        configSetter: this.options.configSetter,
        env: {
          applicationId: topology.applicationId,
          emit: (record: OutputRecord) => this.pendingOutputs.push(record),
          sendEvent: (type: string, key: unknown, value: unknown, timestamp: number) => this.options.hub.send(type, key, value, timestamp),
          onError: this.onError,
          now: Date.now,
        },
        counters: this.options.metrics.storeCounters(),
        logger: this.options.logger,
      };
      let task = await openRunTask(openOptions);
      const stale = await staleStateReason(ends, topology, task);
      if (stale !== undefined) {
        this.options.logger.warn("local state dropped: it is ahead of its topics, which were created anew since", { task: id, reason: stale });
        await task.state.destroy();
        task = await openRunTask(openOptions);
      }
      task.restoring = true;
      this.tasks.set(id, task);
      this.ready = undefined;
      this.options.metrics.task(id, () => task.task.counters.dropped);
      opened.push(task);
    }
    const committed = await committedInputs(this.admin!, topology, opened);
    const targets = (await Promise.all(opened.map((task) => planRestore(committed, ends, topology, task)))).flat();
    for (const target of targets) this.options.logger.debug("restore planned", { store: target.store, topic: target.topic, partition: target.partition, from: target.from, to: target.to });
    await restoreFromChangelogs(this.endpoint, `${this.options.clientIdPrefix}-restore-consumer`, topology.applicationId, targets, this.options.logger);
    for (const target of targets) this.options.metrics.restored(target.store, target.restored.records);
    if (this.deadLetterTopic !== undefined) await this.findDeadLetters(opened, ends);
    for (const task of opened) {
      const checkpoint = task.state.checkpoint();
      for (const [store, position] of Object.entries(checkpoint.changelogPositions)) task.changelogPositions[store] = position;
      // A restore that followed commit markers took the positions of the restored state with it.
      task.inputPositions = { ...checkpoint.inputPositions };
      task.origins = new OriginMarks(task.inputPositions);
      task.restoring = false;
      this.ready = undefined;
    }
  }

  /** Dead letters that runs before this one wrote for `tasks` but did not commit: they are not written again. */
  private async findDeadLetters(tasks: RunTask[], ends: TopicEnds): Promise<void> {
    for (const task of tasks) {
      const position = Number(task.inputPositions[this.deadLetterPositionKey(task)] ?? 0);
      const from = new Map([[this.deadLetterPartitionOf(task), position]]);
      task.deadLettered = await deadLettersOf(this.endpoint, `${this.options.clientIdPrefix}-dlq-reader`, ends, this.deadLetterTopic!, from, task.id);
    }
  }

  private deadLetterPartitionOf(task: RunTask): number {
    return task.partition % (this.partitionCounts.get(this.deadLetterTopic!) ?? 1);
  }

  private deadLetterPositionKey(task: RunTask): string {
    return `${DEAD_LETTER_POSITION_PREFIX}${this.deadLetterTopic}:${this.deadLetterPartitionOf(task)}`;
  }

  private deadLetter(failed: FailedRecord, error: unknown, phase: ErrorPhase, taskId: string): void {
    const task = this.tasks.get(taskId);
    if (task?.deadLettered.delete(inputRecordKey(failed.topic, failed.partition, failed.record.offset))) return;
    const topic = this.deadLetterTopic!;
    this.pendingOutputs.push(deadLetterRecord(topic, this.partitionCounts.get(topic) ?? 1, failed, error, phase, this.options.topology.applicationId, taskId));
    this.options.logger.warn(`a record that failed in ${phase} goes to the dead-letter topic`, { taskId, topic: failed.topic, partition: failed.partition, offset: failed.record.offset, deadLetterTopic: topic, error: String(error) });
  }

  private async closeTasks(ids: string[]): Promise<void> {
    for (const id of ids) {
      const task = this.tasks.get(id);
      if (!task) continue;
      this.tasks.delete(id);
      this.ready = undefined;
      task.task.close();
      await task.state.close();
      this.options.metrics.taskRemoved(id);
    }
  }

  /** Processes one fetched batch of a partition this member owns (the consumer fetches only those). */
  private async processBatch(batch: FetchedBatch): Promise<void> {
    const { topic, partition, records } = batch;
    const sub = this.options.topology.subTopologyOfTopic(topic);
    const task = sub === undefined ? undefined : this.tasks.get(taskIdOf(sub, partition));
    if (!task) throw new Error(`records of ${topic} partition ${partition} were fetched, but this member has no task for them`);
    const positionKey = `${topic}:${partition}`;
    const applied = Number(task.inputPositions[positionKey] ?? -1);
    const figures = this.figures(positionKey);
    const metrics = this.options.metrics;
    let processed = 0;
    let bytes = 0;
    let sinceTurn = 0;
    for (let record = records.read(); record !== undefined; record = records.read()) {
      if (++sinceTurn === RECORDS_PER_TURN) {
        sinceTurn = 0;
        await this.sendAhead();
      }
      if (record.offset < applied) continue;
      const origin = record.headers?.[ORIGIN_HEADER];
      if (origin != null && !task.origins.admit(origin)) continue;
      task.task.process(topic, record);
      processed++;
      bytes += (record.key?.length ?? 0) + (record.value?.length ?? 0);
      figures.consumedOffset = record.offset;
      figures.consumedTimestamp = record.timestamp;
    }
    task.inputPositions[positionKey] = String(batch.nextOffset);
    metrics.consumed(task.id, processed, bytes);
    metrics.lag(Math.max(0, batch.highWatermark - batch.nextOffset));
    await this.flush([task]);
  }

  private punctuateWallClock(): void {
    if (this.stopped || this.failed) return;
    this.serially(async () => {
      if (this.stopped || this.failed) return;
      const now = Date.now();
      const ready = this.readyTasks();
      for (const task of ready) task.task.punctuateWallClock(now);
      await this.flush(ready.filter((task) => task.state.uncommittedWrites() > 0), true);
    }).catch((error) => this.fail(error));
  }

  /**
   * Between slices of a large batch: the outputs so far leave (once the previous ones are acknowledged, so each
   * partition keeps its order whatever the retries) while the next slice is processed, and the event loop gets a
   * turn (HTTP queries, heartbeats). The batch's store commit still waits for every one of its outputs.
   */
  private async sendAhead(): Promise<void> {
    if (this.pendingOutputs.length === 0) {
      await nextTurn();
      return;
    }
    await this.sendingAhead;
    const outgoing = this.pendingOutputs;
    this.pendingOutputs = [];
    this.options.metrics.sent(outgoing.length);
    this.sendingAhead = this.producer!.send(this.requests.build(outgoing));
    // Awaited (and its failure thrown) by the next send or the flush; this only keeps it from counting as unhandled.
    this.sendingAhead.catch(() => undefined);
  }

  /** Produces outputs and changelogs of `tasks`, then commits their stores with their positions. */
  private async flush(tasks: RunTask[], onlyIfPending = false): Promise<void> {
    if (onlyIfPending && tasks.length === 0 && this.pendingOutputs.length === 0) return;
    const { topology, metrics } = this.options;
    const ahead = this.sendingAhead;
    this.sendingAhead = undefined;
    await ahead;
    const outgoing: OutgoingRecord[] = this.pendingOutputs;
    const sent = outgoing.length;
    this.pendingOutputs = [];
    const changelogOwners = new Map<string, { task: RunTask; store: string }>();
    for (const task of tasks) {
      task.origins.writeBack();
      const changes = latestPerKey(task.state.drainChangelog());
      const marked = topology.subTopologies[task.subTopologyId].stores.length === 1 && changes.length > 0;
      const positions = marked ? encodePositions(task.inputPositions) : undefined;
      changes.forEach((change, i) => {
        const topic = topology.changelogTopic(change.store);
        const marker = i === changes.length - 1 ? positions : undefined;
        outgoing.push({ topic, partition: task.partition, key: change.key, value: change.value, timestamp: change.timestamp, positions: marker });
        changelogOwners.set(`${topic}:${task.partition}`, { task, store: change.store });
      });
    }
    const started = Date.now();
    const partitions = this.requests.build(outgoing);
    if (partitions.length > 0) {
      for (const landed of await this.producer!.send(partitions)) {
        const owner = changelogOwners.get(`${landed.topic}:${landed.partition}`);
        if (owner) owner.task.changelogPositions[owner.store] = String(landed.lastOffset);
        if (landed.topic === this.deadLetterTopic) {
          for (const task of tasks) if (this.deadLetterPartitionOf(task) === landed.partition) task.inputPositions[this.deadLetterPositionKey(task)] = String(landed.lastOffset + 1);
        }
      }
    }
    if (sent > 0) metrics.sent(sent);
    for (const task of tasks) await task.state.commit({ inputPositions: task.inputPositions, changelogPositions: task.changelogPositions });
    metrics.storeCommit(Date.now() - started);
  }
}

/** `compression.type` of the batches an application writes: outputs, changelogs, repartition topics, dead letters. */
function compressionType(config: Readonly<Record<string, ConfigValue>>): CompressionType {
  const type = String(config["compression.type"] ?? "none");
  if (!(COMPRESSION_TYPES as readonly string[]).includes(type)) throw new Error(`compression.type must be one of ${COMPRESSION_TYPES.join(", ")}, got '${type}'`);
  return type as CompressionType;
}

/** The entries of `config` whose key starts with `prefix`, without it, as strings. */
function prefixed(config: Readonly<Record<string, ConfigValue>>, prefix: string): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) if (key.startsWith(prefix)) picked[key.slice(prefix.length)] = String(value);
  return picked;
}
