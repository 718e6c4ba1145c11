/**
 * The commit sequence, one fetch at a time:
 *  1. each partition's fetched batch is processed by its task in slices of 4,096 records, each slice's outputs
 *     sent ahead while the next is processed (or, while the previous send is unacknowledged, with a later
 *     slice's: see record-collector); records the task has applied already (below its input position,
 *     or repartition records whose origin it has applied) are skipped;
 *  2. once the fetch's batches are all processed, the record caches of the tasks they touched are flushed (the
 *     folded updates go to the stores, the changelogs and downstream), then the rest of the outputs and the
 *     stores' changelogs are produced in one send — the last changelog record of a one-store task carries the
 *     task's positions (a commit marker) — and every record is awaited until acknowledged; each changelog's records
 *     must have landed right after the task's previous ones, or another member has taken the task over (see
 *     changelog-fence) and nothing commits;
 *  3. each of those tasks' stores, positions and changelog positions are committed in one atomic LevelDB batch;
 *  4. the sequence returns, and the group consumer commits the consumed offsets.
 * A crash anywhere leaves the stores at their last commit, which the group's offsets never pass.
 *
 * Under exactly_once_v2 a commit gathers the fetches of commit.interval.ms (each fetch's outputs sent ahead within the
 * thread's transaction), and step 2's records are sent within it too, without commit markers or fences (the
 * transaction does their work); between steps 2 and 3 the
 * transaction commits with the consumed offsets. A crash before that commit leaves neither the records nor the offsets
 * (read_committed readers never see them), and the stores at their last commit; a crash after it leaves the stores
 * behind the group's offsets, and the task restores the transaction's changelog records before it goes on.
 */
import type { ByteRange, ConsumedRecord, FetchedBatch, FetchedRecords } from "../../../kafka-client";
import type { QueuedRecords } from "../../engine/partition-group";
import type { CompiledTopology } from "../../engine/compiled-topology";
import type { OutputRecord } from "../../engine/stream-task";
import type { RunMetrics } from "../../metrics/run-metrics";
import type { ChangelogRecord } from "../../state/store-context";
import { encodePositions } from "../changelog/commit-marker";
import { checkChangelogLanded, encodeWriter } from "../changelog/changelog-fence";
import type { DeadLetterTopic } from "../topics/dead-letters";
import type { RecordCollector } from "./record-collector";
import { ORIGIN_HEADER_NAME } from "../../engine/origin-stamps";
import type { RunTask } from "./run-task";
import { settledAll } from "./settled-all";
import { encodeChangelogPositions } from "../changelog/task-positions";
import { TopicPartitionMap } from "../topics/topic-partition";

/** Input records processed between two turns of the event loop within one batch. */
export const RECORDS_PER_TURN = 4_096;

/** The last record of an input partition the run has processed, for the offsets view. */
export interface ConsumedPosition {
  consumedOffset: number;
  consumedTimestamp: number;
}

export interface CommitSequenceOptions {
  topology: CompiledTopology;
  collector: RecordCollector;
  /** processing.guarantee=exactly_once_v2: no commit markers, and no dead-letter positions (see above). Default false. */
  exactlyOnce?: boolean;
  /** Set when processing.error.policy is dead_letter. */
  deadLetters?: DeadLetterTopic;
  metrics: Pick<RunMetrics, "consumed" | "lag" | "storeCommit">;
}

export class CommitSequence {
  constructor(private readonly options: CommitSequenceOptions) {}

  /**
   * Step 1 for one fetched batch of a partition of `task`'s; `consumed` follows the records processed. A task with
   * several input partitions only queues the batch: processQueued takes its records in time order.
   */
  async process(task: RunTask, batch: FetchedBatch, consumed: ConsumedPosition): Promise<void> {
    const { topic, partition, records } = batch;
    const { collector, metrics } = this.options;
    metrics.lag(Math.max(0, batch.highWatermark - batch.nextOffset));
    const group = task.task.group;
    const prepare = task.task.readerPreparation(topic);
    if (group !== undefined) {
      // The group reads a record as soon as it heads its queue: what its serdes need is fetched before it is queued.
      const queued = unapplied(task, topic, records);
      group.add(topic, prepare === undefined ? queued : await preparedRecords(queued, prepare), batch.nextOffset);
      return;
    }
    const applied = task.positions.inputs.get(topic, partition) ?? -1;
    let processed = 0;
    let bytes = 0;
    let sinceTurn = 0;
    const origin: ByteRange = { start: 0, end: 0 };
    for (let record = records.read(); record !== undefined; record = records.read()) {
      if (++sinceTurn === RECORDS_PER_TURN) {
        sinceTurn = 0;
        await collector.sendAhead();
      }
      if (record.offset < applied) continue;
      if (record.headerValueRange(ORIGIN_HEADER_NAME, origin) && !task.positions.origins.admit(record.bytes, origin.start, origin.end)) continue;
      if (prepare !== undefined) await prepare(record);
      task.task.process(topic, record);
      processed++;
      bytes += Math.max(record.keySize, 0) + Math.max(record.valueSize, 0);
      consumed.consumedOffset = record.offset;
      consumed.consumedTimestamp = record.timestamp;
    }
    task.positions.inputs.set(topic, partition, batch.nextOffset);
    task.positions.times.set(topic, partition, task.task.partitionTime(topic));
    metrics.consumed(task.id, processed, bytes);
  }

  /**
   * Step 1 for a task with several input partitions: processes its queued records in time order for as long as its
   * partition group lets it (see partition-group), and moves its positions to the first record of each partition
   * not processed yet. `consumedOf` gives each partition's figures.
   */
  async processQueued(task: RunTask, wallClockTime: number, consumedOf: (topic: string) => ConsumedPosition): Promise<void> {
    const group = task.task.group!;
    const { collector, metrics } = this.options;
    let processed = 0;
    let bytes = 0;
    let sinceTurn = 0;
    const origin: ByteRange = { start: 0, end: 0 };
    for (let next = group.next(wallClockTime); next !== undefined; next = group.next(wallClockTime)) {
      if (++sinceTurn === RECORDS_PER_TURN) {
        sinceTurn = 0;
        await collector.sendAhead();
      }
      const { topic, raw, record } = next;
      // The queued records of a run are consumed ones (see unapplied).
      const ranged = raw as ConsumedRecord;
      if (ranged.headerValueRange(ORIGIN_HEADER_NAME, origin) && !task.positions.origins.admit(ranged.bytes, origin.start, origin.end)) continue;
      task.task.processStamped(topic, raw, record);
      processed++;
      bytes += Math.max(ranged.keySize, 0) + Math.max(ranged.valueSize, 0);
      const consumed = consumedOf(topic);
      consumed.consumedOffset = raw.offset;
      consumed.consumedTimestamp = raw.timestamp;
    }
    for (const topic of group.topics()) {
      const position = group.position(topic);
      if (position < 0) continue;
      task.positions.inputs.set(topic, task.partition, position);
      task.positions.times.set(topic, task.partition, group.partitionTime(topic));
    }
    if (processed > 0) metrics.consumed(task.id, processed, bytes);
  }

  /**
   * Steps 2 and 3 for `tasks`: what they output and wrote leaves, then (once `transaction` has committed it, under
   * exactly_once_v2) their stores commit with their positions.
   */
  async commit(tasks: readonly RunTask[], transaction?: () => Promise<void>): Promise<void> {
    const { topology, collector, metrics, exactlyOnce } = this.options;
    const deadLetters = exactlyOnce ? undefined : this.options.deadLetters;
    const changelog: OutputRecord[] = [];
    const owners = new TopicPartitionMap<{ task: RunTask; store: string; count: number }>();
    for (const task of tasks) task.state.flushCache();
    for (const task of tasks) {
      const changes = latestPerKey(task.state.drainChangelog(), (store) => topology.storeSpec(store)?.type === "versioned_key_value");
      const marked = !exactlyOnce && topology.loggedStoresOf(task.subTopologyId).length === 1 && changes.length > 0;
      const positions = marked ? encodePositions(task.positions.encode()) : undefined;
      changes.forEach((change, i) => {
        const topic = topology.changelogTopic(change.store);
        const marker = i === changes.length - 1 ? positions : undefined;
        changelog.push({ topic, partition: task.partition, key: change.key, value: change.value, timestamp: change.timestamp, positions: marker });
        const owner = owners.get(topic, task.partition);
        if (owner) owner.count++;
        else owners.set(topic, task.partition, { task, store: change.store, count: 1 });
      });
    }
    const started = Date.now();
    for (const landed of await collector.flush(changelog)) {
      const owner = owners.get(landed.topic, landed.partition);
      if (owner) {
        const { task, store, count } = owner;
        const lastOffset = task.changelogPositions.get(store);
        if (lastOffset !== undefined && task.changelogWriter !== undefined) checkChangelogLanded({ taskId: task.id, store, lastOffset, count, writer: task.changelogWriter }, landed);
        task.changelogPositions.set(store, landed.lastOffset);
      }
      if (landed.topic !== deadLetters?.name) continue;
      for (const task of tasks) if (deadLetters.partitionOf(task.partition) === landed.partition) task.positions.deadLetters.set(landed.topic, landed.partition, landed.lastOffset + 1);
    }
    await transaction?.();
    // Each task's state is a database of its own: their atomic commits go side by side.
    const commits = tasks.map((task) => {
      const writer = task.changelogWriter === undefined ? undefined : encodeWriter(task.changelogWriter);
      const changelogWriters = writer === undefined ? undefined : Object.fromEntries([...task.changelogPositions.keys()].map((store) => [store, writer]));
      return task.state.commit({ inputPositions: task.positions.encode(), changelogPositions: encodeChangelogPositions(task.changelogPositions), changelogWriters });
    });
    await settledAll(commits);
    metrics.storeCommit(Date.now() - started);
  }
}

/**
 * The records of a fetched batch the task has not applied yet: not below its input position, and no repartition
 * record whose origin it has applied (checked without taking it: it is taken when the record is processed).
 */
/** The queued records, read all, once what `prepare` fetches for each has come (a registry serde's schemas). */
async function preparedRecords(records: ConsumedRecords, prepare: (record: ConsumedRecord) => Promise<void> | undefined): Promise<QueuedRecords> {
  const all: ConsumedRecord[] = [];
  for (let record = records.read(); record !== undefined; record = records.read()) {
    await prepare(record);
    all.push(record);
  }
  let next = 0;
  return { read: () => all[next++] };
}

/** Consumed records, one at a time (a QueuedRecords of ConsumedRecord). */
interface ConsumedRecords {
  read(): ConsumedRecord | undefined;
}

function unapplied(task: RunTask, topic: string, records: FetchedRecords): ConsumedRecords {
  const applied = task.positions.inputs.get(topic, task.partition) ?? -1;
  const origins = task.positions.origins;
  const origin: ByteRange = { start: 0, end: 0 };
  return {
    read() {
      for (let record = records.read(); record !== undefined; record = records.read()) {
        if (record.offset < applied) continue;
        if (record.headerValueRange(ORIGIN_HEADER_NAME, origin) && !origins.admits(record.bytes, origin.start, origin.end)) continue;
        return record;
      }
      return undefined;
    },
  };
}

/**
 * A changelog is read back last-write-wins, so only the last write of each key in a batch is produced (in the
 * order of each key's first write: the order between keys does not matter to a restore). A versioned store's
 * changelog is not: each write of a key is a version of its own, so all of them are produced, in write order.
 */
function latestPerKey(changes: ChangelogRecord[], keepsEveryWrite: (store: string) => boolean): ChangelogRecord[] {
  if (changes.length < 2) return changes;
  const byStore = new Map<string, Map<string, ChangelogRecord>>();
  const everyWrite: ChangelogRecord[] = [];
  for (const change of changes) {
    if (keepsEveryWrite(change.store)) {
      everyWrite.push(change);
      continue;
    }
    let latest = byStore.get(change.store);
    if (latest === undefined) {
      latest = new Map();
      byStore.set(change.store, latest);
    }
    latest.set(change.key.toString("latin1"), change);
  }
  const kept: ChangelogRecord[] = [];
  for (const latest of byStore.values()) for (const change of latest.values()) kept.push(change);
  for (const change of everyWrite) kept.push(change);
  return kept;
}
