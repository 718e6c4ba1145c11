/**
 * Suppression of a table's updates (Kafka Streams' KTable.suppress, KTableSuppressProcessorSupplier): each update is
 * buffered under its key (see suppression-buffer) and forwarded when stream time — the largest timestamp this
 * operator has seen — passes its buffer time plus the wait: a window's end plus the time its window closes after
 * (untilWindowCloses, tombstones dropped), or a key's first update since it last left plus the time limit
 * (untilTimeLimit). A full buffer emits its oldest keys early or fails, as configured. The buffer is a changelogged
 * key_value store: after a crash it is restored, so every window still emits exactly once.
 */
import type { Suppressed } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { KeyValueStore, ReadOnlyKeyValueStore } from "../../../../kernel/contracts/streams/stores";
import { StreamsRecord } from "../../processor/record";
import type { TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { ObservedStreamTime, preparedProcessor } from "../processor-shapes";
import { change, type Change, type TableOperator } from "../table-changes";
import { BufferOrder, bufferedSize, bufferedUpdateSerde, type BufferedUpdate, type BufferedUpdateSerde } from "./suppression-buffer";

interface Suppression {
  storeName: string;
  node: string;
  /** The buffer time of an update: its window's end, or the record's timestamp. */
  bufferTime: (key: any, timestamp: number) => number;
  /** How long past its buffer time an update stays. */
  waitMs: number;
  maxRecords: number;
  maxBytes: number;
  emitEarly: boolean;
  dropTombstones: boolean;
}

function suppressProcessor(suppression: Suppression): ProcessorSupplier<any, any, any, any> {
  const { storeName, bufferTime, waitMs, maxRecords, maxBytes, emitEarly, dropTombstones } = suppression;
  const countsBytes = Number.isFinite(maxBytes);
  return preparedProcessor((context) => {
    const store = context.getStateStore<KeyValueStore<unknown, BufferedUpdate>>(storeName);
    const spec = context.storeSpec(storeName);
    const keySerde = spec.keySerde;
    const valueSerde = (spec.valueSerde as BufferedUpdateSerde).valueSerde;
    let order = new BufferOrder();
    const streamTime = new ObservedStreamTime();
    const sizeOf = (keyBytes: Buffer, update: BufferedUpdate) =>
      countsBytes ? bufferedSize(keyBytes, update.value === null || update.value === undefined ? 0 : valueSerde.serialize(update.value).length, update) : 0;
    const emit = () => {
      const key = order.pop();
      const update = store.get(key)!;
      store.delete(key);
      if (dropTombstones && (update.value === null || update.value === undefined)) return;
      context.forward(new StreamsRecord(key, change(update.value, null), update.timestamp, update.headers));
    };
    const overCapacity = () => order.count > maxRecords || order.size > maxBytes;
    return {
      async load() {
        order = new BufferOrder();
        const committed = context.committedStore(storeName).store as ReadOnlyKeyValueStore<unknown, BufferedUpdate>;
        for await (const { key, value } of committed.all()) {
          const keyBytes = keySerde.serialize(key);
          order.put(key, keyBytes, value.time, sizeOf(keyBytes, value));
        }
      },
      process(record) {
        const observedStreamTime = streamTime.observe(record.timestamp);
        const keyBytes = keySerde.serialize(record.key);
        const update: BufferedUpdate = {
          time: order.timeOf(keyBytes, bufferTime(record.key, record.timestamp)),
          timestamp: record.timestamp,
          topic: context.recordMetadata().topic,
          headers: record.headerList(),
          value: (record.value as Change).newValue,
        };
        store.put(record.key, update);
        order.put(record.key, keyBytes, update.time, sizeOf(keyBytes, update));
        const expiry = observedStreamTime - waitMs;
        while (order.minTime <= expiry) emit();
        if (!overCapacity()) return;
        if (!emitEarly) {
          throw new Error(`${suppression.node} buffer exceeded its max capacity. Currently [${order.count}/${maxRecords}] records and [${order.size}/${maxBytes}] bytes.`);
        }
        while (overCapacity()) emit();
      },
    };
  });
}

function bound(value: number | undefined, what: string): number {
  if (value === undefined) return Infinity;
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a whole number, at least 0; got ${value}`);
  return value;
}

export function suppress(builder: InternalTopologyBuilder, table: TableHandle, suppressed: Suppressed): TableHandle {
  const { bufferConfig } = suppressed;
  const versioned = table.versionedStore;
  if (versioned !== undefined) {
    const how = table.storeName === versioned ? `keeps versioned store '${versioned}'` : `inherits the versioned semantics of store '${versioned}' upstream (a filter, mapValues or transformValues without a store of its own keeps them)`;
    throw new Error(`suppress() is only supported for non-versioned KTables: table '${table.node}' ${how}`);
  }
  const node = builder.nodeName("suppress", suppressed.name);
  const storeName = `${node}-store`;
  let bufferTime: Suppression["bufferTime"];
  let waitMs: number;
  if (suppressed.type === "until_window_closes") {
    if (table.windowCloseMs === undefined) throw new Error(`suppress(untilWindowCloses) needs a windowed table: window close time is only defined for windowed computations (table of '${table.node}')`);
    if (bufferConfig.whenFull !== "shut_down") throw new Error("suppress(untilWindowCloses) needs a strict buffer (BufferConfig.unbounded() or shutDownWhenFull()): a final result cannot be emitted early");
    bufferTime = (key: { windowEnd: number }) => key.windowEnd;
    waitMs = table.windowCloseMs;
  } else {
    waitMs = bound(suppressed.timeLimitMs, "the time limit of suppress(untilTimeLimit)");
    bufferTime = (_key, timestamp) => timestamp;
  }
  builder.addStore({ name: storeName, type: "key_value", keySerde: table.keySerde, valueSerde: { wrap: bufferedUpdateSerde, inner: table.valueSerde } });
  const supplier = suppressProcessor({
    storeName,
    node,
    bufferTime,
    waitMs,
    maxRecords: bound(bufferConfig.maxRecords, "BufferConfig.maxRecords"),
    maxBytes: bound(bufferConfig.maxBytes, "BufferConfig.maxBytes"),
    emitEarly: bufferConfig.whenFull === "emit_early",
    dropTombstones: suppressed.type === "until_window_closes",
  });
  builder.addProcessor("suppress", supplier, [table.node], [storeName], node);
  return { ...table, node, storeName: undefined, operator: suppressedTable(node) };
}

/**
 * A suppressed table forwards each buffered update's new value only. Kafka Streams also lets a join or a re-grouping
 * read it (through the buffer) and ask it for old values; Sluice does not yet, and says so when the topology is built.
 */
function suppressedTable(node: string): TableOperator {
  const unsupported = (what: string) => new Error(`the suppressed table '${node}' cannot ${what} in Sluice yet: turn it into a stream (toStream) first`);
  return {
    sendOldValues: (forceMaterialization) => {
      if (forceMaterialization) throw unsupported("send old values (to a re-grouping or a join)");
      return false;
    },
    view: () => {
      throw unsupported("be read by a join or a lookup");
    },
  };
}
