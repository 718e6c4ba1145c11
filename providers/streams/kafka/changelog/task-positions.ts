/**
 * What a task's committed state has applied, as numbers: the next offset of each input partition, the last
 * repartition record applied from each origin partition (see repartition-origin), and where each dead-letter
 * partition stood after the task's last dead letter (see dead-letters). They are committed with the stores, and
 * carried by commit markers, in the flat form checkpoints have always held: `<topic>:<partition>` → next
 * offset, `origin:<topic>:<partition>` → `<offset>.<rank>`, `dlq:<topic>:<partition>` → next offset.
 */
import { OriginMarks, type OriginMark } from "../topics/repartition-origin";
import { TopicPartitionMap, type TopicPartition } from "../topics/topic-partition";

const ORIGIN_PREFIX = "origin:";
const DEAD_LETTER_PREFIX = "dlq:";
const TIME_PREFIX = "time:";

export class TaskPositions {
  /** Input partition → the next offset to apply. */
  readonly inputs = new TopicPartitionMap<number>();
  /** Dead-letter partition → the offset after this task's last dead letter there. */
  readonly deadLetters = new TopicPartitionMap<number>();
  /** Input partition → its partition time (-1: none yet). */
  readonly times = new TopicPartitionMap<number>();
  readonly origins: OriginMarks;

  private constructor(origins: Iterable<[TopicPartition, OriginMark]>) {
    this.origins = new OriginMarks(origins);
  }

  /** The positions of a checkpoint or a commit marker. */
  static decode(persisted: Readonly<Record<string, string>>): TaskPositions {
    const origins: [TopicPartition, OriginMark][] = [];
    const inputs: [TopicPartition, number][] = [];
    const deadLetters: [TopicPartition, number][] = [];
    const times: [TopicPartition, number][] = [];
    for (const [key, value] of Object.entries(persisted)) {
      if (key.startsWith(ORIGIN_PREFIX)) {
        const dot = value.indexOf(".");
        origins.push([topicPartitionOf(key.slice(ORIGIN_PREFIX.length)), { offset: Number(value.slice(0, dot)), rank: Number(value.slice(dot + 1)) }]);
      } else if (key.startsWith(DEAD_LETTER_PREFIX)) deadLetters.push([topicPartitionOf(key.slice(DEAD_LETTER_PREFIX.length)), Number(value)]);
      else if (key.startsWith(TIME_PREFIX)) times.push([topicPartitionOf(key.slice(TIME_PREFIX.length)), Number(value)]);
      else inputs.push([topicPartitionOf(key), Number(value)]);
    }
    const positions = new TaskPositions(origins);
    for (const [{ topic, partition }, next] of inputs) positions.inputs.set(topic, partition, next);
    for (const [{ topic, partition }, next] of deadLetters) positions.deadLetters.set(topic, partition, next);
    for (const [{ topic, partition }, time] of times) positions.times.set(topic, partition, time);
    return positions;
  }

  /** Whether the task has committed anything at all. */
  isEmpty(): boolean {
    return this.inputs.size === 0 && this.deadLetters.size === 0 && this.origins.size === 0;
  }

  encode(): Record<string, string> {
    const persisted: Record<string, string> = {};
    for (const [{ topic, partition }, next] of this.inputs.entries()) persisted[`${topic}:${partition}`] = String(next);
    for (const [{ topic, partition }, mark] of this.origins.entries()) persisted[`${ORIGIN_PREFIX}${topic}:${partition}`] = `${mark.offset}.${mark.rank}`;
    for (const [{ topic, partition }, next] of this.deadLetters.entries()) persisted[`${DEAD_LETTER_PREFIX}${topic}:${partition}`] = String(next);
    for (const [{ topic, partition }, time] of this.times.entries()) if (time >= 0) persisted[`${TIME_PREFIX}${topic}:${partition}`] = String(time);
    return persisted;
  }
}

/** Store → offset of the last changelog record its committed data includes, as the state commits them. */
export function encodeChangelogPositions(positions: ReadonlyMap<string, number>): Record<string, string> {
  return Object.fromEntries([...positions].map(([store, offset]) => [store, String(offset)]));
}

export function decodeChangelogPositions(persisted: Readonly<Record<string, string>>): Map<string, number> {
  return new Map(Object.entries(persisted).map(([store, offset]) => [store, Number(offset)]));
}

/** A persisted `<topic>:<partition>` (topic names cannot hold a colon). */
function topicPartitionOf(key: string): TopicPartition {
  const colon = key.lastIndexOf(":");
  return { topic: key.slice(0, colon), partition: Number(key.slice(colon + 1)) };
}
