/**
 * The registry's log: the compacted single-partition topic `_schemas`, read lazily. Nothing is read until the first
 * request; before each answer the registry catches up from the last offset it read to the topic's end (as
 * Confluent's registry reads to the end before it answers), so an idle Sluice keeps no reader polling the topic.
 * A write is acknowledged by every in-sync replica and read back before the caller is answered, so what it is
 * answered is what every instance sharing the topic will see.
 */
import type { TopicLog } from "sluice";
import { RegistryError } from "./registry-errors";

export type ApplyRecord = (key: unknown, value: unknown) => void;

export class SchemasTopic {
  /** The offset after the last record applied. */
  private applied = 0;
  /** The catch-up reading now, and the one queued behind it, which every request arriving meanwhile joins. */
  private reading: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;

  constructor(private readonly log: TopicLog, private readonly topic: string, private readonly apply: ApplyRecord) {}

  /**
   * Resolves once every record on the topic when it was called has been applied. A catch-up already reading may
   * have taken the topic's end before the call: the caller then waits for the next one, which it shares with
   * whoever else arrives before that one starts.
   */
  catchUp(): Promise<void> {
    if (this.queued !== undefined) return this.queued;
    const next = this.reading.then(() => {
      this.queued = undefined;
      return this.readNew();
    });
    this.queued = next;
    this.reading = next.catch(() => undefined);
    return next;
  }

  /** Appends a record and resolves once this instance has applied it. */
  async append(key: unknown, value: unknown): Promise<void> {
    try {
      await this.log.append(JSON.stringify(key), value === null ? null : JSON.stringify(value));
    } catch (error) {
      throw storeError(`cannot write to ${this.topic}`, error);
    }
    await this.catchUp();
  }

  close(): Promise<void> {
    return this.log.close();
  }

  private async readNew(): Promise<void> {
    try {
      this.applied = await this.log.readToEnd(this.applied, ({ offset, key, value }) => {
        this.apply(parse(key), parse(value));
        this.applied = offset + 1;
      });
    } catch (error) {
      throw storeError(`cannot read ${this.topic}`, error);
    }
  }
}

/** Confluent's 50001, its backing store's error, naming what failed. */
const storeError = (doing: string, error: unknown) => new RegistryError(50001, `The schema registry ${doing}: ${(error as Error).message}`);

/** A record's key or value as JSON; a record that is not JSON is skipped by `apply` (its key matches nothing). */
function parse(bytes: Buffer | null): unknown {
  if (bytes === null) return null;
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}
