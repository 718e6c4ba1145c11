/**
 * Fans the records a topology sends into its declared event streams out to subscribers (the SSE plugin).
 * Each stream has a queue of `queueSize` records between the topology and delivery, drained once per event-loop
 * turn; when the topology sends faster than the queue drains, the stream's limit handler decides: drop the oldest
 * record (`drop_head`), log and drop the new one (`log_and_continue`), or throw into the topology (`throw`), which
 * then follows its processing error policy.
 */
import type { EventRecord, EventStreamHub } from "../../../kernel/contracts/streams/runtime";
import type { EventStreamDeclaration } from "../../../kernel/contracts/streams/topology-provider";
import type { ComponentLogger } from "../../../kernel/logger";
interface EventStream {
  declaration: EventStreamDeclaration;
  serdes: { key?: string; value?: string };
  listeners: Set<(record: EventRecord) => void>;
  queue: EventRecord[];
  dropped: number;
}

export class EventStreamQueueFullError extends Error {
  constructor(type: string, queueSize: number) {
    super(`event stream '${type}' is full (queueSize ${queueSize}): records are sent faster than they are delivered`);
    this.name = "EventStreamQueueFullError";
  }
}

export class LocalEventStreamHub implements EventStreamHub {
  private readonly streams = new Map<string, EventStream>();
  private readonly closeListeners = new Set<() => void>();
  private readonly subscriberChanges = new Set<() => void>();
  private drainScheduled = false;

  constructor(
    applicationId: string,
    private readonly declared: readonly EventStreamDeclaration[],
    private readonly logger: ComponentLogger,
    serdesOf: (type: string) => { key?: string; value?: string },
  ) {
    for (const declaration of declared) {
      if (this.streams.has(declaration.type)) {
        throw new Error(`application '${applicationId}' declares event stream '${declaration.type}' twice`);
      }
      if (!Number.isInteger(declaration.queueSize) || declaration.queueSize < 1) {
        throw new Error(`application '${applicationId}' declares event stream '${declaration.type}' with queueSize ${declaration.queueSize}: expected an integer ≥ 1`);
      }
      this.streams.set(declaration.type, { declaration, serdes: serdesOf(declaration.type), listeners: new Set(), queue: [], dropped: 0 });
    }
  }

  declarations(): readonly EventStreamDeclaration[] {
    return this.declared;
  }

  subscribe(type: string, listener: (record: EventRecord) => void): () => void {
    const stream = this.streams.get(type);
    if (!stream) throw new Error(`unknown event stream '${type}'`);
    stream.listeners.add(listener);
    if (stream.listeners.size === 1) this.subscribersChanged();
    return () => {
      if (stream.listeners.delete(listener) && stream.listeners.size === 0) this.subscribersChanged();
    };
  }

  /** The types that have a subscriber now: records sent to the others go nowhere. */
  subscribedTypes(): string[] {
    return [...this.streams].filter(([, stream]) => stream.listeners.size > 0).map(([type]) => type);
  }

  /** Calls `listener` whenever a type gets its first subscriber or loses its last; returns the unsubscribe. */
  onSubscribersChange(listener: () => void): () => void {
    this.subscriberChanges.add(listener);
    return () => this.subscriberChanges.delete(listener);
  }

  private subscribersChanged(): void {
    for (const listener of this.subscriberChanges) listener();
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  send(type: string, key: unknown, value: unknown, timestamp: number): void {
    const stream = this.streams.get(type);
    if (!stream) throw new Error(`event stream '${type}' is not declared by the topology provider`);
    // A record is delivered to the subscribers of the moment it is drained; with none, it would be dropped there.
    if (stream.listeners.size === 0) return;
    const { queueSize, limitHandler } = stream.declaration;
    if (stream.queue.length >= queueSize) {
      if (limitHandler === "throw") throw new EventStreamQueueFullError(type, queueSize);
      stream.dropped++;
      if (limitHandler === "log_and_continue") return;
      stream.queue.shift();
    }
    stream.queue.push({ type, key, value, timestamp, keySerde: stream.serdes.key, valueSerde: stream.serdes.value });
    this.scheduleDrain();
  }

  /** Ends every open stream (the application stopped); subscribers stay registered for the next run. */
  closeStreams(): void {
    this.drain();
    for (const listener of [...this.closeListeners]) listener();
    this.closeListeners.clear();
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    this.drainScheduled = false;
    for (const stream of this.streams.values()) {
      if (stream.dropped > 0) {
        const { type, queueSize, limitHandler } = stream.declaration;
        const level = limitHandler === "log_and_continue" ? "warn" : "debug";
        this.logger[level]("event stream queue full, records dropped", { type, queueSize, limitHandler, dropped: stream.dropped });
        stream.dropped = 0;
      }
      const records = stream.queue;
      if (records.length === 0) continue;
      stream.queue = [];
      for (const record of records) this.deliver(stream, record);
    }
  }

  /** A subscriber's failure is its own: it never reaches the topology or the other subscribers. */
  private deliver(stream: EventStream, record: EventRecord): void {
    for (const listener of stream.listeners) {
      try {
        listener(record);
      } catch (error) {
        this.logger.warn("event stream subscriber failed", { type: record.type, error: String(error) });
      }
    }
  }
}
