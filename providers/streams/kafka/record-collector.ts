/**
 * What the tasks of a run output on their way to Kafka (Kafka Streams' RecordCollector): outputs are collected
 * as the tasks emit them; between slices of a large batch they leave ahead (once the previous send is
 * acknowledged, so each partition keeps its order whatever the retries); at a commit the rest leaves with the
 * changelog records, and the commit learns where every partition's records landed.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { PartitionOffsets, PartitionRecords } from "../../kafka-client";
import type { OutputRecord } from "../engine/stream-task";
import { ProduceRequestBuilder } from "./produce-requests";

/** The producer as the collector uses it: resolves once every record is acknowledged, with where they landed. */
export interface RecordSender {
  send(partitions: PartitionRecords[]): Promise<PartitionOffsets[]>;
}

export class RecordCollector {
  private pending: OutputRecord[] = [];
  /** Outputs sent ahead of the commit; awaited before the next send. */
  private sendingAhead?: Promise<PartitionOffsets[]>;
  private readonly requests: ProduceRequestBuilder;

  /** `sent` counts the outputs (not the changelog records) as they leave. */
  constructor(
    private readonly sender: RecordSender,
    partitionCount: (topic: string) => number | undefined,
    private readonly sent: (records: number) => void,
  ) {
    this.requests = new ProduceRequestBuilder(partitionCount);
  }

  collect(record: OutputRecord): void {
    this.pending.push(record);
  }

  hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Sends the outputs collected so far, or, with none, yields the event loop a turn (HTTP queries, heartbeats). */
  async sendAhead(): Promise<void> {
    if (this.pending.length === 0) {
      await nextTurn();
      return;
    }
    await this.sendingAhead;
    const outgoing = this.takePending();
    this.sendingAhead = this.sender.send(this.requests.build(outgoing));
    // Awaited (and its failure thrown) by the next send or the flush; this only keeps it from counting as unhandled.
    this.sendingAhead.catch(() => undefined);
  }

  /**
   * Sends what is collected and `changelog` once what left ahead is acknowledged, and resolves when all of it
   * is, with where each partition's records of this send landed.
   */
  async flush(changelog: readonly OutputRecord[]): Promise<PartitionOffsets[]> {
    const ahead = this.sendingAhead;
    this.sendingAhead = undefined;
    await ahead;
    const outgoing = this.takePending();
    for (const record of changelog) outgoing.push(record);
    const partitions = this.requests.build(outgoing);
    return partitions.length === 0 ? [] : this.sender.send(partitions);
  }

  private takePending(): OutputRecord[] {
    const taken = this.pending;
    this.pending = [];
    if (taken.length > 0) this.sent(taken.length);
    return taken;
  }
}
