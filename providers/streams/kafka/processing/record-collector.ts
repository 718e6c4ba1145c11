/**
 * What the tasks of a run output on their way to Kafka (Kafka Streams' RecordCollector): outputs are collected as
 * the tasks emit them and written into their partitions' record batches at the end of each slice of a large batch;
 * between slices they leave ahead, one send at a time (each waits for the previous one's acknowledgement, so each
 * partition keeps its order whatever the retries), while processing goes on; at a commit the rest leaves with the
 * changelog records, and the commit learns where every partition's records landed.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { PartitionBatches, PartitionOffsets } from "../../../kafka-client";
import type { OutputRecord } from "../../engine/stream-task";
import { ProduceRequestBuilder } from "./produce-requests";

/**
 * How many outputs may wait for an unacknowledged send ahead before processing waits for it too. A broker's
 * acknowledgement often takes longer than a slice of records takes to process: the slice's outputs then leave with
 * the next one's instead of holding up processing.
 */
export const MOST_PENDING_AHEAD = 16_384;

/** The producer as the collector uses it: resolves once every record is acknowledged, with where they landed. */
export interface RecordSender {
  send(partitions: PartitionBatches[]): Promise<PartitionOffsets[]>;
}

export class RecordCollector {
  /** Outputs collected since the last slice's end; written into batches there, in one go. */
  private collected: OutputRecord[] = [];
  /** Outputs collected and not yet sent. */
  private pending = 0;
  /** Outputs sent ahead of the commit; awaited before the next send. */
  private sendingAhead?: Promise<PartitionOffsets[]>;
  /** Whether `sendingAhead` is acknowledged or failed: awaiting it would not wait. */
  private aheadSettled = true;
  private readonly requests: ProduceRequestBuilder;

  /**
   * `sent` counts the outputs (not the changelog records) as they leave. `learnTopics`, given when the topology has a
   * TopicNameExtractor, learns the partition counts of the topics it names for the first time, before their records
   * are written.
   */
  constructor(
    private readonly sender: RecordSender,
    partitionCount: (topic: string) => number | undefined,
    private readonly sent: (records: number) => void,
    private readonly learnTopics?: (topics: string[]) => Promise<void>,
  ) {
    this.requests = new ProduceRequestBuilder(partitionCount);
  }

  collect(record: OutputRecord): void {
    this.collected.push(record);
    this.pending++;
  }

  hasPending(): boolean {
    return this.pending > 0;
  }

  /**
   * Yields the event loop a turn (acknowledgements, HTTP queries, heartbeats), then sends the outputs collected so
   * far if the previous send is acknowledged; if it is not, they wait for the next call, unless MOST_PENDING_AHEAD
   * are waiting already. A failed send is thrown here.
   */
  async sendAhead(): Promise<void> {
    await nextTurn();
    await this.writeCollected();
    if (this.pending === 0) return;
    if (!this.aheadSettled && this.pending < MOST_PENDING_AHEAD) return;
    await this.sendingAhead;
    const sending = this.sender.send(this.takePending());
    this.sendingAhead = sending;
    this.aheadSettled = false;
    const settled = () => {
      if (this.sendingAhead === sending) this.aheadSettled = true;
    };
    // Its failure is thrown by the next send or the flush; this only notes that it is settled.
    sending.then(settled, settled);
  }

  /**
   * Sends what is collected and `changelog` once what left ahead is acknowledged, and resolves when all of it
   * is, with where each partition's records of this send landed.
   */
  async flush(changelog: readonly OutputRecord[]): Promise<PartitionOffsets[]> {
    const ahead = this.sendingAhead;
    this.sendingAhead = undefined;
    this.aheadSettled = true;
    await ahead;
    await this.writeCollected();
    for (const record of changelog) this.requests.add(record);
    const partitions = this.takePending();
    return partitions.length === 0 ? [] : this.sender.send(partitions);
  }

  /**
   * Writes the outputs collected into their partitions' batches. Writing a slice's outputs in one loop costs less
   * than one at a time between their processing, and they are still young: few live through a scavenge.
   */
  private async writeCollected(): Promise<void> {
    const collected = this.collected;
    if (collected.length === 0) return;
    this.collected = [];
    if (this.learnTopics !== undefined) {
      const unknown = this.requests.unknownTopics(collected);
      if (unknown.size > 0) await this.learnTopics([...unknown]);
    }
    for (const record of collected) this.requests.add(record);
  }

  /** Every partition's batches written so far (the changelog's too, once added). */
  private takePending(): PartitionBatches[] {
    if (this.pending > 0) this.sent(this.pending);
    this.pending = 0;
    return this.requests.take();
  }
}
