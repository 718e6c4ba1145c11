/** The DSL's stateful operators (aggregations, windows, sessions, tables, joins) as processors over stores. */
import type { TimeWindows } from "../../../kernel/contracts/streams/dsl";
import type { ProcessorContext, ProcessorSupplier, StreamRecord } from "../../../kernel/contracts/streams/processor";
import type {
  KeyValueStore,
  SessionStore,
  TimestampedKeyValueStore,
  TimestampedWindowStore,
  WindowStore,
} from "../../../kernel/contracts/streams/stores";
import { asInternal, type FlushForwarding, type InternalProcessorContext } from "./internal-context";

type Rec = StreamRecord<any, any>;
export type Aggregator = (key: any, value: any, aggregate: any) => any;
export type Merger = (key: any, left: any, right: any) => any;

function statefulProcessor(
  setUp: (context: InternalProcessorContext) => (record: Rec) => void,
): ProcessorSupplier<any, any, any, any> {
  return () => {
    let handle!: (record: Rec) => void;
    return {
      init: (context: ProcessorContext<any, any>) => {
        handle = setUp(asInternal(context));
      },
      process: (record) => handle(record),
    };
  };
}

/** Null keys cannot be grouped: Kafka Streams drops them, and so do we. */
function keyed(context: InternalProcessorContext, record: Rec): boolean {
  if (record.key === null || record.key === undefined) {
    context.recordDropped();
    return false;
  }
  return true;
}

/**
 * Has the store's record cache forward the processor's updates once folded (Kafka Streams' flush listener);
 * false when the processor forwards each update itself.
 */
function forwardsOnFlush(context: InternalProcessorContext, store: object): boolean {
  const forwarding = store as Partial<FlushForwarding>;
  return (
    typeof forwarding.forwardOnFlush === "function" &&
    context.forwardsMayWait() &&
    forwarding.forwardOnFlush((key, value, timestamp) => context.forward({ key, value, timestamp }))
  );
}

/** A get/put view that hides whether the key_value store is timestamped. */
interface KeyValueAccess {
  get(key: unknown): unknown;
  put(key: unknown, value: unknown, timestamp: number): void;
  /** Whether the store forwards the updates (see forwardsOnFlush). */
  forwardsOnFlush: boolean;
}

function keyValueAccess(context: InternalProcessorContext, storeName: string, timestamped: boolean): KeyValueAccess {
  if (timestamped) {
    const store = context.getStateStore<TimestampedKeyValueStore<unknown, unknown>>(storeName);
    return { get: (key) => store.get(key)?.value, put: (key, value, timestamp) => store.put(key, value, timestamp), forwardsOnFlush: forwardsOnFlush(context, store) };
  }
  const store = context.getStateStore<KeyValueStore<unknown, unknown>>(storeName);
  return { get: (key) => store.get(key), put: (key, value) => store.put(key, value), forwardsOnFlush: forwardsOnFlush(context, store) };
}

export function aggregateProcessor(
  storeName: string,
  timestamped: boolean,
  initializer: () => unknown,
  aggregator: Aggregator,
): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = keyValueAccess(context, storeName, timestamped);
    return (record) => {
      if (!keyed(context, record) || record.value === null || record.value === undefined) return;
      const previous = store.get(record.key);
      const next = aggregator(record.key, record.value, previous === undefined ? initializer() : previous);
      store.put(record.key, next, record.timestamp);
      if (!store.forwardsOnFlush) context.forward({ key: record.key, value: next, timestamp: record.timestamp });
    };
  });
}

/** Reduce: the first value of a key is its aggregate. */
export function reduceAggregator(reducer: (aggregate: any, value: any) => any): { initializer: () => unknown; aggregator: Aggregator } {
  const none = Symbol("none");
  return {
    initializer: () => none,
    aggregator: (_key, value, aggregate) => (aggregate === none ? value : reducer(aggregate, value)),
  };
}

export function countAggregator(): { initializer: () => unknown; aggregator: Aggregator } {
  return { initializer: () => 0, aggregator: (_key, _value, count: number) => count + 1 };
}

/** Starts of the windows that contain `timestamp` (aligned to the epoch, as in Kafka Streams). */
export function windowStartsFor(windows: TimeWindows, timestamp: number): number[] {
  const advance = windows.type === "tumbling" ? windows.sizeMs : windows.advanceMs;
  const starts: number[] = [];
  let start = timestamp - (((timestamp % advance) + advance) % advance);
  for (; start > timestamp - windows.sizeMs; start -= advance) if (start >= 0) starts.push(start);
  return starts.reverse();
}

interface WindowAccess {
  get(key: unknown, windowStart: number): unknown;
  put(key: unknown, value: unknown, windowStart: number, timestamp: number): void;
}

function windowAccess(context: InternalProcessorContext, storeName: string, timestamped: boolean): WindowAccess {
  if (timestamped) {
    const store = context.getStateStore<TimestampedWindowStore<unknown, unknown>>(storeName);
    return {
      get: (key, start) => store.fetch(key, start)?.value,
      put: (key, value, start, timestamp) => store.put(key, value, start, timestamp),
    };
  }
  const store = context.getStateStore<WindowStore<unknown, unknown>>(storeName);
  return { get: (key, start) => store.fetch(key, start), put: (key, value, start) => store.put(key, value, start) };
}

export function windowedAggregateProcessor(
  storeName: string,
  timestamped: boolean,
  windows: TimeWindows,
  initializer: () => unknown,
  aggregator: Aggregator,
): ProcessorSupplier<any, any, any, any> {
  const grace = windows.graceMs ?? 0;
  return statefulProcessor((context) => {
    const store = windowAccess(context, storeName, timestamped);
    return (record) => {
      if (!keyed(context, record) || record.value === null || record.value === undefined) return;
      const streamTime = context.currentStreamTimeMs();
      for (const windowStart of windowStartsFor(windows, record.timestamp)) {
        const windowEnd = windowStart + windows.sizeMs;
        if (windowEnd + grace <= streamTime) {
          context.recordDropped();
          continue;
        }
        const previous = store.get(record.key, windowStart);
        const next = aggregator(record.key, record.value, previous === undefined ? initializer() : previous);
        store.put(record.key, next, windowStart, record.timestamp);
        context.forward({ key: { key: record.key, windowStart, windowEnd }, value: next, timestamp: record.timestamp });
      }
    };
  });
}

export function sessionAggregateProcessor(
  storeName: string,
  gapMs: number,
  graceMs: number,
  initializer: () => unknown,
  aggregator: Aggregator,
  merger: Merger,
): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = context.getStateStore<SessionStore<unknown, unknown>>(storeName);
    return (record) => {
      if (!keyed(context, record) || record.value === null || record.value === undefined) return;
      const timestamp = record.timestamp;
      if (timestamp < context.currentStreamTimeMs() - gapMs - graceMs) {
        context.recordDropped();
        return;
      }
      let start = timestamp;
      let end = timestamp;
      let aggregate = initializer();
      for (const session of store.findSessions(record.key, timestamp - gapMs, timestamp + gapMs)) {
        start = Math.min(start, session.windowStart);
        end = Math.max(end, session.windowEnd);
        aggregate = merger(record.key, aggregate, session.value);
        store.remove({ key: record.key, start: session.windowStart, end: session.windowEnd });
        context.forward({
          key: { key: record.key, windowStart: session.windowStart, windowEnd: session.windowEnd },
          value: null,
          timestamp,
        });
      }
      aggregate = aggregator(record.key, record.value, aggregate);
      store.put({ key: record.key, start, end }, aggregate);
      context.forward({ key: { key: record.key, windowStart: start, windowEnd: end }, value: aggregate, timestamp });
    };
  });
}

/** Materializes a source topic as a table: a null value deletes the key. */
export function tableSourceProcessor(storeName: string): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = context.getStateStore<KeyValueStore<unknown, unknown>>(storeName);
    const forwarded = forwardsOnFlush(context, store);
    return (record) => {
      if (!keyed(context, record)) return;
      store.put(record.key, record.value ?? null);
      if (!forwarded) context.forward(record);
    };
  });
}

export function streamTableJoinProcessor(
  storeName: string,
  joiner: (value: any, tableValue: any) => unknown,
  left: boolean,
): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = context.getStateStore<KeyValueStore<unknown, unknown>>(storeName);
    return (record) => {
      if (!keyed(context, record)) return;
      const tableValue = store.get(record.key);
      if (tableValue === undefined && !left) return;
      context.forward({ key: record.key, value: joiner(record.value, tableValue ?? null), timestamp: record.timestamp });
    };
  });
}
