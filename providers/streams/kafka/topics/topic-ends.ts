/**
 * The log start and end offsets of topics' partitions, asked once per topic however many partitions are read:
 * one reconciliation's stale-state checks and restore plans, or one offsets or stores answer.
 */
import type { Admin } from "kafkajs";

export interface PartitionEnds {
  /** The log end offset (high watermark). */
  high: number;
  /** The log start offset. */
  low: number;
}

export class TopicEnds {
  private readonly byTopic = new Map<string, Promise<Map<number, PartitionEnds>>>();

  constructor(private readonly admin: Admin) {}

  /** Undefined for a partition the topic does not have. */
  async of(topic: string, partition: number): Promise<PartitionEnds | undefined> {
    let ends = this.byTopic.get(topic);
    if (!ends) {
      ends = offsetsOf(this.admin, topic).then((offsets) => new Map(offsets.map((entry) => [entry.partition, { high: Number(entry.high), low: Number(entry.low) }])));
      this.byTopic.set(topic, ends);
    }
    return (await ends).get(partition);
  }
}

const ATTEMPTS = 10;

/**
 * kafkajs's fetchTopicOffsets fails with a TypeError (`high.pop()` of nothing) when its metadata lists no partition
 * of the topic with a leader — a broker restarting, a leader being elected. That is retriable: it is asked again
 * after a growing pause, up to ATTEMPTS times, rather than failing the application.
 */
async function offsetsOf(admin: Admin, topic: string): Promise<Awaited<ReturnType<Admin["fetchTopicOffsets"]>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (error) {
      if (!(error instanceof TypeError) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
