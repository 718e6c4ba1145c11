/**
 * One event stream of one application as clients see it: numbers the records the topology sends (ids increase
 * per stream, across restarts of the application), keeps the last ones for clients that resume with
 * Last-Event-ID, and hands each frame to every connected subscriber.
 */
import type { EventRecord, EventStreamHub } from "../../kernel/contracts/streams/runtime";
import { BoundedQueue } from "./bounded-queue";
import { eventFrame } from "./sse-frames";
import type { SseSubscriber } from "./sse-subscriber";

interface KeptEvent {
  id: number;
  frame: string;
}

export class EventChannel {
  private lastId = 0;
  private readonly history: BoundedQueue<KeptEvent>;
  private readonly subscribers = new Set<SseSubscriber>();
  private hub: EventStreamHub | undefined;
  private detachFromHub: (() => void) | undefined;

  /** `encode` renders a record's data line, or returns undefined for a record that cannot be sent (it logs why). */
  constructor(readonly type: string, historySize: number, private readonly encode: (record: EventRecord) => string | undefined) {
    this.history = new BoundedQueue(historySize);
  }

  /** Listens to `hub`, leaving the previous one when the application's hub has been replaced. */
  attach(hub: EventStreamHub): void {
    if (hub === this.hub) return;
    this.detachFromHub?.();
    this.hub = hub;
    this.detachFromHub = hub.subscribe(this.type, (record) => this.publish(record));
  }

  detach(): void {
    this.detachFromHub?.();
    this.detachFromHub = undefined;
    this.hub = undefined;
  }

  /**
   * Adds a subscriber, first replaying the kept events after `lastEventId`. An id newer than any this stream has
   * sent comes from an earlier run of Sluice: everything kept is replayed. Returns the function that removes it.
   */
  join(subscriber: SseSubscriber, lastEventId?: number): () => void {
    if (lastEventId !== undefined) {
      const from = lastEventId > this.lastId ? 0 : lastEventId;
      for (const kept of this.history.values()) if (kept.id > from) subscriber.push(kept.frame);
    }
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  connected(): IterableIterator<SseSubscriber> {
    return this.subscribers.values();
  }

  private publish(record: EventRecord): void {
    const data = this.encode(record);
    if (data === undefined) return;
    const id = ++this.lastId;
    const frame = eventFrame(id, record.type, data);
    this.history.push({ id, frame });
    for (const subscriber of this.subscribers) subscriber.push(frame);
  }
}
