/**
 * One event stream of one application as clients see it: numbers the records the topology sends (ids increase
 * per stream, across restarts of the application and of Sluice itself), keeps the last ones for clients that
 * resume with Last-Event-ID, and hands each frame to every connected subscriber.
 */
import type { EventRecord, EventStreamHub } from "sluice";
import { BoundedQueue } from "./bounded-queue";
import { eventFrame } from "./sse-frames";
import type { SseSubscriber } from "./sse-subscriber";

interface KeptEvent {
  id: number;
  frame: string;
}

/**
 * Ids of a stream start at the microsecond this process made it, so a client that follows an instance through a
 * restart never sees an id go backwards (unless a run sent a million events a second on average).
 */
const firstIdOfThisProcess = () => Date.now() * 1000;

export class EventChannel {
  private lastId = firstIdOfThisProcess();
  private readonly history: BoundedQueue<KeptEvent>;
  private readonly subscribers = new Set<SseSubscriber>();
  /** Events lost by subscribers that have left. */
  private droppedByGone = 0;
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
   * Adds a subscriber, first replaying the kept events after `lastEventId` (all of them for an id from an earlier
   * run of Sluice, which is below this run's ids). An id newer than any this stream has sent cannot be resumed
   * from: everything kept is replayed. Returns the function that removes it.
   */
  join(subscriber: SseSubscriber, lastEventId?: number): () => void {
    if (lastEventId !== undefined) {
      const from = lastEventId > this.lastId ? 0 : lastEventId;
      for (const kept of this.history.values()) if (kept.id > from) subscriber.push(kept.frame);
    }
    this.subscribers.add(subscriber);
    return () => {
      if (this.subscribers.delete(subscriber)) this.droppedByGone += subscriber.dropped;
    };
  }

  connected(): IterableIterator<SseSubscriber> {
    return this.subscribers.values();
  }

  /** Events this stream's subscribers, present and gone, lost to a full buffer. */
  droppedEvents(): number {
    let dropped = this.droppedByGone;
    for (const subscriber of this.subscribers) dropped += subscriber.dropped;
    return dropped;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
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
