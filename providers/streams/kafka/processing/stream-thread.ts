/**
 * One run of an application on Kafka (Kafka Streams' StreamThread): its clients — the group consumer and the
 * producer and the cluster admin, all Sluice's own client — and the loop they drive. Assignments go to the
 * task manager; each fetch's batches run the commit sequence (see commit-sequence), one piece of work at a time;
 * between batches, wall-clock punctuators run every commit.interval.ms. A task with several input partitions queues
 * their batches and processes them in time order once the fetch's batches are in (see engine/partition-group): its
 * partitions' committed positions are those of the records it processed, and a partition whose queue holds more than
 * `buffered.records.per.partition` is not fetched meanwhile. Each input partition's offset is committed with its
 * partition time, as Kafka Streams commits it. It answers the views through RunView.
 *
 * Under processing.guarantee=exactly_once_v2 the consumer reads read_committed and commits no offsets: the thread's
 * transactional producer (see streams-producer) commits them with the work of every fetch since the last commit, once
 * commit.interval.ms has passed, before the member gives its partitions up (a rebalance, a stop), and on each
 * wall-clock tick. A transaction lost to an error (a fenced producer, a zombie's offsets refused) is aborted, the
 * tasks are closed as they were at their last commit, and the member joins the group again.
 */
import { checkClusterAccess, ClusterAdmin, GroupConsumer, MembershipLostError, type FetchedBatch, type KafkaEndpoint, type PartitionLag, type TopicPartitionOffset } from "../../../kafka-client";
import type { LevelDbConfigSetter, ReadOnlyStore, StoreStats } from "../../../../kernel/contracts/streams/stores";
import type { ComponentLogger } from "../../../../kernel/logger";
import type { PositionFigures, StorePartitionFigures, ThreadRunView } from "./run-view";
import type { CompiledTopology } from "../../engine/compiled-topology";
import { isDeadLetterPolicy } from "../../engine/error-policy";
import type { LocalEventStreamHub } from "../../events/event-stream-hub";
import type { RunMetrics } from "../../metrics/run-metrics";
import { rebalanceProtocolOf, type StreamsSettings } from "../../streams-config";
import type { CacheBudget } from "../../state/record-cache";
import { CommitSequence } from "./commit-sequence";
import { DeadLetterTopic, deadLetterTopic } from "../topics/dead-letters";
import { ensureNamedOutputTopics, ensureTopics, type TopicCreation } from "../topics/internal-topics";
import { RepartitionPurge } from "../topics/repartition-purge";
import { RecordCollector } from "./record-collector";
import { committedPositions, type RunTask } from "./run-task";
import { streamsAssignor, type HighAvailability } from "../assignment/streams-assignor";
import { changelogEndSums, TaskOffsetSums, type ChangelogProgress } from "./task-offset-sums";
import { TaskManager } from "./task-manager";
import { StandbyTasks } from "./standby-tasks";
import { TopicPartitionMap } from "../topics/topic-partition";
import { isTransactionLost, StreamsProducer, transactionLost } from "./streams-producer";
import { encodeOffsetMetadata } from "./offset-metadata";
import type { InstanceGlobals } from "./instance-globals";

export interface StreamThreadOptions {
  /** Where the cluster is and how its clients reach it (security.protocol, metadata.max.age.ms). */
  endpoint: KafkaEndpoint;
  topology: CompiledTopology;
  settings: StreamsSettings;
  server: string | null;
  stateDir: string;
  configSetter?: LevelDbConfigSetter;
  /** Where the tasks' events go (a worker-hosted thread's forwards them to the main thread's hub). */
  hub: Pick<LocalEventStreamHub, "send">;
  metrics: RunMetrics;
  logger: ComponentLogger;
  clientIdPrefix: string;
  /** The thread's index N: it is `<application.id>-StreamThread-N`, its clients `<prefix>-StreamThread-N-consumer|producer`. */
  index: number;
  /** The instance's process id (the state dir's): members with the same one share a process, which the assignor knows. */
  processId: string;
  /** The instance's global stores, which all its threads share. */
  globals: InstanceGlobals;
  /** The instance's record cache budget (`statestore.cache.max.bytes`), which all its threads share. */
  cacheBudget: CacheBudget;
  /** Starts paused: it joins its group and opens its tasks, but fetches nothing until resumed. */
  paused: boolean;
  onRebalancing(): void;
  onRunning(): void;
  onFatal(error: unknown): void;
}

export class StreamThread implements ThreadRunView {
  /** `<application.id>-StreamThread-N`. */
  readonly name: string;
  readonly index: number;
  readonly clientIds: ThreadRunView["clientIds"];
  private partitionCounts = new Map<string, number>();
  private readonly figures = new TopicPartitionMap<PositionFigures>();
  private readonly collector: RecordCollector;
  private readonly tasks: TaskManager;
  /** Warm copies of other members' tasks' stores (num.standby.replicas). */
  private readonly standbys: StandbyTasks;
  /** The standby task ids of the assignment the consumer learnt last, until the run takes them. */
  private assignedStandbys: string[] = [];
  /** The changelog offset sums this member reports as it joins (see task-offset-sums). */
  private readonly offsetSums: TaskOffsetSums;
  /** The probing rebalance the last assignment asked for (warm-ups were given), until it starts. */
  private probingTimer?: NodeJS.Timeout;
  private readonly sequence: CommitSequence;
  private consumer?: GroupConsumer;
  private producer?: StreamsProducer;
  /** processing.guarantee=exactly_once_v2. */
  private readonly exactlyOnce: boolean;
  /** Under exactly_once_v2: when the work of the open transaction began (ms); -1 with none. */
  private workSince = -1;
  private adminClient?: ClusterAdmin;
  private purge?: RepartitionPurge;
  private queue: Promise<unknown> = Promise.resolve();
  private failed = false;
  private stopped = false;
  private paused: boolean;
  private wallClockTimer?: NodeJS.Timeout;
  /**
   * The tasks that processed batches of the fetch in process: they commit together once its batches are all done
   * (under exactly_once_v2, those of every fetch since the last commit).
   */
  private readonly uncommitted = new Set<RunTask>();
  /** Tasks with several input partitions that hold queued records (see engine/partition-group). */
  private readonly queueing = new Set<RunTask>();
  /** The dead-letter topic, when `processing.error.policy` is `dead_letter`. */
  private readonly deadLetters: DeadLetterTopic | undefined;

  constructor(private readonly options: StreamThreadOptions) {
    const { topology, settings, metrics, logger, clientIdPrefix, index } = options;
    this.index = index;
    this.name = `${topology.applicationId}-StreamThread-${index}`;
    this.clientIds = { consumer: `${clientIdPrefix}-StreamThread-${index}-consumer`, producer: `${clientIdPrefix}-StreamThread-${index}-producer`, admin: `${clientIdPrefix}-admin` };
    const partitionCount = (topic: string) => this.partitionCounts.get(topic);
    this.exactlyOnce = settings.get("processing.guarantee") === "exactly_once_v2";
    if (isDeadLetterPolicy(settings)) {
      const name = deadLetterTopic(settings, topology.applicationId);
      this.deadLetters = new DeadLetterTopic(name, () => partitionCount(name));
    }
    const learnTopics = topology.hasTopicNameExtractor() ? (topics: string[]) => this.learnNamedTopics(topics) : undefined;
    this.collector = new RecordCollector({ send: (partitions) => this.producer!.send(partitions) }, partitionCount, (records) => metrics.sent(records), learnTopics);
    this.tasks = new TaskManager({
      topology,
      stateDir: options.stateDir,
      configSetter: options.configSetter,
      endpoint: this.endpoint,
      clientIdPrefix,
      collector: this.collector,
      deadLetters: this.deadLetters,
      exactlyOnce: this.exactlyOnce,
      settings,
      sendEvent: (type, key, value, timestamp) => options.hub.send(type, key, value, timestamp),
      cacheBudget: options.cacheBudget,
      metrics,
      logger,
      globalStores: options.globals.stores,
    });
    this.offsetSums = new TaskOffsetSums(topology, options.stateDir);
    this.standbys = new StandbyTasks({
      topology,
      stateDir: options.stateDir,
      configSetter: options.configSetter,
      endpoint: this.endpoint,
      clientIdPrefix,
      exactlyOnce: this.exactlyOnce,
      logger,
      onFatal: (error) => this.fail(error),
    });
    this.sequence = new CommitSequence({ topology, collector: this.collector, deadLetters: this.deadLetters, exactlyOnce: this.exactlyOnce, metrics });
    this.paused = options.paused;
  }

  private get endpoint(): KafkaEndpoint {
    return this.options.endpoint;
  }

  get memberId(): string | null {
    return this.consumer?.memberId || null;
  }

  get generationId(): number {
    return this.consumer?.generationId ?? -1;
  }

  get admin(): ClusterAdmin | undefined {
    return this.adminClient;
  }

  async start(): Promise<void> {
    const { topology, settings, logger, metrics } = this.options;
    await checkClusterAccess(this.endpoint, this.clientIds.admin, logger);
    const admin = new ClusterAdmin({ ...this.endpoint, clientId: this.clientIds.admin, logger });
    this.adminClient = admin;
    this.purge = new RepartitionPurge({ admin, repartitionTopics: topology.definition.repartitionTopics, intervalMs: settings.get("repartition.purge.interval.ms"), logger });
    const producer = new StreamsProducer({
      ...this.endpoint,
      clientId: this.clientIds.producer,
      logger,
      compression: settings.get("compression.type"),
      idempotence: settings.get("enable.idempotence"),
      deliveryTimeoutMs: settings.get("delivery.timeout.ms"),
      transaction: this.exactlyOnce ? { transactionalId: this.transactionalId(), transactionTimeoutMs: settings.get("transaction.timeout.ms") } : undefined,
      metrics,
    });
    this.producer = producer;
    if (this.exactlyOnce) metrics.transactional();
    const [counts] = await Promise.all([ensureTopics(admin, topology, this.topicCreation()), producer.start()]);
    this.partitionCounts = counts;
    // As Kafka Streams' GlobalStreamThread: the global stores are caught up before any task processes a record.
    await this.options.globals.start(admin);
    const consumer = new GroupConsumer(
      {
        ...this.endpoint,
        clientId: this.clientIds.consumer,
        groupId: topology.applicationId,
        assignor: streamsAssignor(topology, this.options.server, settings.get("num.standby.replicas"), (tasks) => (this.assignedStandbys = tasks), () => this.held(), this.options.processId, this.highAvailability(admin)),
        groupInstanceId: this.groupInstanceId(),
        sessionTimeoutMs: settings.get("session.timeout.ms"),
        heartbeatIntervalMs: settings.get("heartbeat.interval.ms"),
        rebalanceTimeoutMs: settings.get("max.poll.interval.ms"),
        maxWaitMs: settings.get("fetch.max.wait.ms"),
        maxBytes: settings.get("fetch.max.bytes"),
        maxPartitionBytes: settings.get("max.partition.fetch.bytes"),
        knownPartitionCount: (topic) => this.partitionCounts.get(topic),
        // Kafka Streams sets isolation.level=read_committed under EOS: inputs, repartition topics and offsets alike.
        isolationLevel: this.exactlyOnce ? "read_committed" : "read_uncommitted",
        commitOffsets: !this.exactlyOnce,
        rebalanceProtocol: rebalanceProtocolOf(settings),
        logger,
      },
      {
        rebalancing: () => this.options.onRebalancing(),
        assigned: async (assignment, committed, kept) => {
          await this.serially(() => this.assign(assignment, committed, kept, admin));
          if (!this.stopped && !this.failed) this.options.onRunning();
        },
        revoking: this.exactlyOnce ? () => this.serially(() => (this.failed ? this.abortTransaction() : this.commitTransaction())) : undefined,
        lost: () => this.serially(() => this.closeLostTasks()),
        batch: (batch) =>
          this.serially(() => {
            if (this.failed) throw new Error("the application has failed; consuming stops");
            return this.processBatch(batch);
          }),
        fetchProcessed: () => this.serially(() => this.commitProcessed()),
        fetched: (lags) => {
          metrics.poll();
          this.updateLags(lags);
        },
        offsetMetadata: (topic, partition) => this.offsetMetadata(topic, partition),
        committed: (offsets) => this.committed(offsets),
        failed: (error) => this.fail(error),
      },
    );
    this.consumer = consumer;
    if (this.paused) consumer.pause();
    await consumer.start();
    this.wallClockTimer = setInterval(() => this.punctuateWallClock(), settings.get("commit.interval.ms"));
    this.wallClockTimer.unref();
  }

  /** What this member tells the assignor as it joins: its tasks, the others it has state of, and their offset sums. */
  private held(): { previousTasks: string[]; localTasks: string[]; taskOffsetSums: Record<string, number> } {
    const held = this.tasks.held();
    return { ...held, taskOffsetSums: this.offsetSums.report(this.tasks.all(), this.standbyProgress(), held.localTasks) };
  }

  private standbyProgress(): ChangelogProgress[] {
    return this.standbys.all().map(({ id, subTopologyId, state }) => ({ id, subTopologyId, changelogPositions: committedPositions(state).changelogPositions }));
  }

  /** Warm-up replicas and probing rebalances (KIP-441): the leader measures lags with `admin`; every member probes when told. */
  private highAvailability(admin: ClusterAdmin): HighAvailability {
    const { topology, settings, logger } = this.options;
    return {
      maxWarmupReplicas: settings.get("max.warmup.replicas"),
      acceptableRecoveryLag: settings.get("acceptable.recovery.lag"),
      probingRebalanceIntervalMs: settings.get("probing.rebalance.interval.ms"),
      changelogEnds: (tasks) =>
        changelogEndSums(topology, admin, tasks).catch((error: unknown) => {
          logger.warn("the changelogs' end offsets cannot be read: tasks are placed without warm-up replicas this time", { error: String(error) });
          return undefined;
        }),
      probingRebalance: (at) => {
        clearTimeout(this.probingTimer);
        this.probingTimer = undefined;
        if (at === undefined) return;
        this.probingTimer = setTimeout(() => {
          this.probingTimer = undefined;
          logger.info("probing rebalance: joining the group again so that caught-up warm-up replicas take their tasks over");
          this.consumer?.enforceRebalance();
        }, Math.max(0, at - Date.now()));
        this.probingTimer.unref();
      },
    };
  }

  private topicCreation(): TopicCreation {
    const { settings } = this.options;
    return {
      autoCreate: settings.get("auto.create.topics") ?? true,
      defaultPartitions: settings.get("num.partitions"),
      replicationFactor: settings.get("replication.factor"),
      internalConfigs: settings.entries("topic."),
      windowChangelogAdditionalRetentionMs: settings.get("windowstore.changelog.additional.retention.ms"),
      singles: this.deadLetters === undefined ? [] : [this.deadLetters.name],
    };
  }

  /** Topics a TopicNameExtractor named for the first time: their partition counts, once they exist. */
  private async learnNamedTopics(topics: string[]): Promise<void> {
    const counts = await ensureNamedOutputTopics(this.adminClient!, topics, this.topicCreation());
    for (const [topic, count] of counts) this.partitionCounts.set(topic, count);
  }

  /** Stops consuming, lets the batch in flight finish and commit, then closes the tasks and clients. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.wallClockTimer);
    clearTimeout(this.probingTimer);
    await this.consumer?.stop().catch((error) => this.options.logger.warn("consumer stop failed", { error: String(error) }));
    await this.serially(async () => {
      await this.standbys.release();
      await this.tasks.close();
    });
    await this.producer?.close();
    await this.purge?.close();
    this.adminClient?.close();
  }

  /** No fetch and no punctuation until resumed; the group membership, the tasks and their stores stay. */
  pause(): void {
    this.paused = true;
    this.consumer?.pause();
  }

  resume(): void {
    this.paused = false;
    this.consumer?.resume();
  }

  partitionCount(topic: string): number | undefined {
    return this.partitionCounts.get(topic);
  }

  /** Every topic's partition count this thread knows. */
  knownPartitionCounts(): [string, number][] {
    return [...this.partitionCounts];
  }

  activeTasks(): { id: string; subTopologyId: number; partition: number }[] {
    return this.tasks.all().map(({ id, subTopologyId, partition }) => ({ id, subTopologyId, partition }));
  }

  standbyTasks(): { id: string; subTopologyId: number; partition: number }[] {
    return this.standbys.all().map(({ id, subTopologyId, partition }) => ({ id, subTopologyId, partition }));
  }

  positions(): { topic: string; partition: number; figures: PositionFigures }[] {
    return [...this.figures.entries()].map(([{ topic, partition }, figures]) => ({ topic, partition, figures: { ...figures } }));
  }

  queryablePartitions(subTopologyId: number): readonly number[] {
    return this.tasks.readyOf(subTopologyId).partitions;
  }

  globalStore(store: string): ReadOnlyStore | undefined {
    return this.options.globals.store(store);
  }

  readOnlyStore(subTopologyId: number, partition: number, store: string): ReadOnlyStore | undefined {
    // The partitions and the tasks line up: a search of numbers, and no closure per query.
    const ready = this.tasks.readyOf(subTopologyId);
    return ready.tasks[ready.partitions.indexOf(partition)]?.state.readOnly(store);
  }

  standbyStore(subTopologyId: number, partition: number, store: string): { store: ReadOnlyStore; lag: number } | undefined {
    return this.standbys.readOnly(subTopologyId, partition, store);
  }

  storePartitions(): StorePartitionFigures[] {
    const { subTopologies } = this.options.topology;
    const active = this.tasks.all().flatMap((task) =>
      subTopologies[task.subTopologyId].stores.map((store) => ({
        store,
        partition: task.partition,
        changelogPosition: task.changelogPositions.get(store) ?? -1,
        restoring: task.restoring,
        restored: task.restored.get(store),
        standby: false,
      })),
    );
    const standby = this.standbys.all().flatMap((task) => {
      const { changelogPositions } = committedPositions(task.state);
      return this.options.topology.loggedStoresOf(task.subTopologyId).map((store) => ({ store, partition: task.partition, changelogPosition: changelogPositions.get(store) ?? -1, restoring: false, restored: undefined, standby: true }));
    });
    return [...active, ...standby];
  }

  storeStatistics(): Promise<{ task: string; stores: StoreStats[] }[]> {
    return Promise.all(this.tasks.readyTasks().map(async (task) => ({ task: task.id, stores: await task.state.stats() })));
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

  private figuresOf(topic: string, partition: number): PositionFigures {
    let figures = this.figures.get(topic, partition);
    if (!figures) {
      figures = { consumedOffset: -1, consumedTimestamp: -1, committedOffset: -1, committedTimestamp: -1 };
      this.figures.set(topic, partition, figures);
    }
    return figures;
  }

  /** The thread's transactional id, as Kafka Streams names it under exactly_once_v2: `<application.id>-<process id>-<thread>`. */
  private transactionalId(): string {
    return `${this.options.topology.applicationId}-${this.options.processId}-${this.options.index}`;
  }

  /** Static membership (KIP-345): the instance's `group.instance.id` with the thread's index, as Kafka Streams names it. */
  private groupInstanceId(): string | undefined {
    const id = this.options.settings.get("group.instance.id");
    return id === "" ? undefined : `${id}-${this.options.index}`;
  }

  /** The metadata committed with a partition's offset: its partition time, as Kafka Streams commits it. */
  private offsetMetadata(topic: string, partition: number): string | null {
    const time = this.tasks.taskOf(topic, partition)?.task.partitionTime(topic) ?? -1;
    return time < 0 ? null : encodeOffsetMetadata(time);
  }

  /** Offsets the group accepted (from the consumer, or with a transaction): the views, the metrics and the purge learn them. */
  private committed(offsets: readonly TopicPartitionOffset[]): void {
    const now = Date.now();
    for (const { topic, partition, offset } of offsets) Object.assign(this.figuresOf(topic, partition), { committedOffset: offset, committedTimestamp: now });
    this.options.metrics.commit();
    this.purge?.committed(offsets);
  }

  /** `kept`: the partitions the consumer goes on fetching from where it was (a cooperative rebalance left them here). */
  private async assign(assignment: Record<string, number[]>, committed: readonly TopicPartitionOffset[], kept: Record<string, number[]>, admin: ClusterAdmin): Promise<void> {
    // Tasks left with processed batches by a failed fetch commit nothing: they are re-fetched from the group's offsets,
    // and so are the records tasks had queued. A task whose every partition was kept goes on as it was.
    const { topology } = this.options;
    const goesOn = (task: RunTask) => {
      const assigned = topology.subTopologies[task.subTopologyId].sourceTopics.filter((topic) => assignment[topic]?.includes(task.partition));
      return assigned.length > 0 && assigned.every((topic) => kept[topic]?.includes(task.partition));
    };
    for (const task of this.tasks.all()) {
      if (goesOn(task)) continue;
      this.uncommitted.delete(task);
      this.queueing.delete(task);
      task.task.group?.clear();
    }
    for (const [{ topic, partition }] of [...this.figures.entries()]) if (!assignment[topic]?.includes(partition)) this.figures.delete(topic, partition);
    // Before it consumes, a partition's position is the group's commit: its lag is known, also while paused.
    for (const { topic, partition, offset } of committed) {
      const figures = this.figuresOf(topic, partition);
      if (figures.consumedOffset < offset - 1) Object.assign(figures, { consumedOffset: offset - 1, committedOffset: offset });
    }
    // A standby that becomes active here is closed first: the active task opens the same state and restores only the
    // changelog tail past its checkpoint. The placement never makes a task both active and standby on one member.
    const standbys = this.assignedStandbys;
    this.assignedStandbys = [];
    await this.standbys.release(new Set(standbys));
    await this.tasks.reconcile(assignment, admin, { generation: this.generationId, memberId: this.memberId ?? this.clientIds.consumer }, committed);
    await this.standbys.assign(standbys, admin);
  }

  /**
   * One fetched batch of a partition this member owns (the consumer fetches only those). "held": the task queues it,
   * to process its records in time order with those of its other partitions.
   */
  private async processBatch(batch: FetchedBatch): Promise<void | "held"> {
    const { topic, partition } = batch;
    const task = this.tasks.taskOf(topic, partition);
    if (!task && this.consumer?.rejoinPending) throw new MembershipLostError(`records of ${topic} partition ${partition} were fetched for a task this member gave up`);
    if (!task) throw new Error(`records of ${topic} partition ${partition} were fetched, but this member has no task for them`);
    if (this.workSince < 0) this.workSince = Date.now();
    try {
      await this.sequence.process(task, batch, this.figuresOf(topic, partition));
    } catch (error) {
      throw await this.transactionFailed(error);
    }
    if (task.task.group === undefined) {
      this.uncommitted.add(task);
      return;
    }
    this.queueing.add(task);
    return "held";
  }

  /** Lags of the partitions of tasks that queue their records: whether an empty one is worth waiting for. */
  private updateLags(lags: readonly PartitionLag[]): void {
    for (const { topic, partition, lag } of lags) this.tasks.taskOf(topic, partition)?.task.group?.setLag(topic, lag);
  }

  /** After a fetch's batches: at_least_once commits them; exactly_once_v2 once commit.interval.ms has passed. */
  private async commitProcessed(): Promise<void> {
    let queued: RunTask[];
    try {
      queued = await this.processQueued();
    } catch (error) {
      throw await this.transactionFailed(error);
    }
    if (this.exactlyOnce) {
      for (const task of queued) this.reportPositions(task);
      if (this.workSince >= 0 && Date.now() - this.workSince >= this.options.settings.get("commit.interval.ms") && !this.consumer!.rebalanceInProgress) {
        await this.commitTransaction();
        return;
      }
      // As Kafka Streams does, the outputs leave within the open transaction as they are made, not all at its commit:
      // they wait in the broker, not in memory, and read_committed readers see them once it commits.
      try {
        if (this.collector.hasPending()) await this.collector.sendAhead();
      } catch (error) {
        throw await this.transactionFailed(error);
      }
      return;
    }
    const tasks = [...this.uncommitted];
    this.uncommitted.clear();
    if (tasks.length === 0 && !this.collector.hasPending()) return;
    await this.commitOrDrop(tasks);
    for (const task of queued) this.reportPositions(task);
  }

  /** Processes what the tasks with several input partitions may of their queues (see engine/partition-group). */
  private async processQueued(): Promise<RunTask[]> {
    const tasks = [...this.queueing];
    if (tasks.length === 0) return tasks;
    const now = Date.now();
    for (const task of tasks) {
      await this.sequence.processQueued(task, now, (topic) => this.figuresOf(topic, task.partition));
      this.uncommitted.add(task);
      if (!task.task.group!.hasQueued()) this.queueing.delete(task);
    }
    return tasks;
  }

  /** Tells the consumer how far a task that queues its records has processed each partition, and which to fetch. */
  private reportPositions(task: RunTask): void {
    const group = task.task.group!;
    const limit = this.options.settings.get("buffered.records.per.partition");
    for (const topic of group.topics()) {
      const position = group.position(topic);
      if (position >= 0) this.consumer?.processedUpTo(topic, task.partition, position);
      if (group.buffered(topic) > limit) this.consumer?.pausePartition(topic, task.partition);
      else this.consumer?.resumePartition(topic, task.partition);
    }
  }

  /**
   * Commits `tasks`; when another member has taken one over (see changelog-fence), none commits locally and all are
   * closed as they were at their last commit, to be opened again (restored behind new fences) if assigned again.
   */
  private async commitOrDrop(tasks: RunTask[]): Promise<void> {
    try {
      await this.sequence.commit(tasks);
    } catch (error) {
      if (error instanceof MembershipLostError) {
        this.uncommitted.clear();
        for (const task of tasks) this.queueing.delete(task);
        await this.tasks.close(tasks.map((task) => task.id));
      }
      throw error;
    }
  }

  /**
   * Under exactly_once_v2: commits the open transaction — the tasks' flushed caches and changelogs, the outputs and
   * their input offsets under this member's generation — then the tasks' stores. Nothing open: nothing to do.
   */
  private async commitTransaction(): Promise<void> {
    const tasks = new Set(this.uncommitted);
    for (const task of this.tasks.readyTasks()) if (task.state.uncommittedWrites() > 0) tasks.add(task);
    if (tasks.size === 0 && !this.collector.hasPending() && !this.producer!.inTransaction) return;
    const committing = [...tasks];
    const offsets = this.offsetsOf(committing);
    try {
      await this.sequence.commit(committing, () => this.producer!.commitTransaction(offsets, this.consumer!.groupMetadata()));
    } catch (error) {
      throw await this.transactionFailed(error);
    }
    this.uncommitted.clear();
    this.workSince = -1;
    if (offsets.length > 0) this.committed(offsets);
  }

  /** Under exactly_once_v2, after the thread failed: the open transaction is aborted, none of its work counts. */
  private async abortTransaction(): Promise<void> {
    await this.producer?.abortTransaction();
  }

  /** The next offset of each input partition of `tasks`, as they have processed them. */
  private offsetsOf(tasks: readonly RunTask[]): TopicPartitionOffset[] {
    const { topology } = this.options;
    const offsets: TopicPartitionOffset[] = [];
    for (const task of tasks) {
      for (const topic of topology.subTopologies[task.subTopologyId].sourceTopics) {
        const offset = task.positions.inputs.get(topic, task.partition);
        if (offset !== undefined) offsets.push({ topic, partition: task.partition, offset, metadata: this.offsetMetadata(topic, task.partition) });
      }
    }
    return offsets;
  }

  /**
   * What an error of the work under exactly_once_v2 becomes: a transaction it lost (isTransactionLost) is aborted
   * (or its fenced producer replaced), the open tasks are closed as they were at their last commit and their
   * uncollected outputs dropped, and the member joins again (a MembershipLostError), as Kafka Streams handles
   * TaskMigratedException; any other error stays what it is. Under at_least_once, `error` itself.
   */
  private async transactionFailed(error: unknown): Promise<unknown> {
    if (!this.exactlyOnce || !isTransactionLost(error)) return error;
    this.options.logger.warn("the transaction failed; its work is dropped, and the tasks are taken again from the last commit", { error: error.message });
    await this.closeTasksDirty();
    await this.producer!.recover(error);
    return transactionLost(error);
  }

  /**
   * The consumer lost this member's partitions (it is out of its generation, or lost its work): as Kafka Streams'
   * handleLostAll, every active task is closed dirty and an open transaction aborted. The member then joins with no
   * active task to report (their state on disk still counts for placement), and a task assigned to it again is opened
   * and restored behind a new fence.
   */
  private async closeLostTasks(): Promise<void> {
    await this.closeTasksDirty();
    await this.abortTransaction();
  }

  /** Drops the active tasks' work since their last commit (writes, queued records, uncollected outputs) and closes them. */
  private async closeTasksDirty(): Promise<void> {
    this.collector.discard();
    this.uncommitted.clear();
    this.queueing.clear();
    this.workSince = -1;
    await this.tasks.close();
  }

  private punctuateWallClock(): void {
    if (this.stopped || this.failed) return;
    this.serially(async () => {
      if (this.stopped || this.failed) return;
      const ready = this.tasks.readyTasks();
      // Paused: no punctuation, but a transaction under way still commits.
      if (!this.paused) for (const task of ready) task.task.punctuateWallClock(Date.now());
      // A processor's commit() is honoured here too: a task whose punctuation asked commits with the written ones
      // (under exactly_once_v2 every task with work commits on this tick anyway).
      const written = ready.filter((task) => task.task.takeCommitRequest() || task.state.uncommittedWrites() > 0);
      // While a cooperative join is under way the transaction's offsets wait for the new generation (Kafka Streams too).
      if (this.exactlyOnce) return this.consumer!.rebalanceInProgress ? undefined : this.commitTransaction();
      if (written.length > 0 || this.collector.hasPending()) await this.commitOrDrop(written);
    }).catch((error) => (error instanceof MembershipLostError ? this.consumer?.membershipLost(error) : this.fail(error)));
  }
}
