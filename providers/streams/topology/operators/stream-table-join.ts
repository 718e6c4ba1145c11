/**
 * Stream-table joins, inner and left (Kafka Streams' KStreamKTableJoin): each stream record looks its key up in the
 * table's rows — its store, or the rows computed from the stores it derives from — and an inner join drops a record
 * whose key has no row. As in Kafka Streams 4.x, a record with a null value never reaches the joiner (it is dropped
 * and counted), and one with a null key joins null in a left join (KIP-962) and is dropped by an inner one. A stream
 * whose key may have changed goes through a repartition topic first, so that each record meets the table partition
 * of its new key. The output keeps the stream record's timestamp and headers.
 *
 * With a grace period (Joined.withGracePeriod, KIP-923; a versioned table only) each record first waits in a buffer
 * until the latest timestamp buffered passes its own by the grace, then joins the row valid at its timestamp: records
 * leave in timestamp order, then key bytes, then arrival, so a table update that comes late but within the grace is
 * seen. A record already older than the latest buffered timestamp minus the grace joins at once, as in Kafka Streams.
 * The buffer is a changelogged key_value store, laid out as Kafka Streams' time-ordered buffer (timestamp, key bytes,
 * arrival number); each row holds the record as a suppression buffer holds an update, and is restored after a crash.
 */
import type { Joined } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import type { KeyValueStore } from "../../../../kernel/contracts/streams/stores";
import { StreamsRecord } from "../../processor/record";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { encodeTimes, readTime, TIME_BYTES } from "../../state/key-layout";
import type { StreamHandle, TableHandle } from "../dsl-handles";
import type { InternalProcessorContext } from "../internal-context";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { statefulProcessor, type Rec } from "../processor-shapes";
import type { TableView } from "../table-changes";
import { repartition } from "./grouping";
import { bufferedUpdateSerde, type BufferedUpdate } from "./suppression-buffer";

type Joiner = (value: any, tableValue: any) => unknown;

/** A buffered record's place: its timestamp, its key, and its arrival number among records of that timestamp and key. */
interface BufferKey {
  timestamp: number;
  key: unknown;
  seq: number;
}

const SEQ_BYTES = 4;

/** Time first, so that the store's byte order is the order records leave in. */
function bufferKeySerde(keySerde: Serde<any>): Serde<BufferKey> {
  return {
    name: `time-ordered-buffer-key(${keySerde.name})`,
    serialize: ({ timestamp, key, seq }) => {
      const seqBytes = Buffer.allocUnsafe(SEQ_BYTES);
      seqBytes.writeInt32BE(seq);
      return Buffer.concat([encodeTimes(timestamp), keySerde.serialize(key), seqBytes]);
    },
    deserialize: (bytes) => ({
      timestamp: readTime(bytes, 0),
      key: keySerde.deserialize(bytes.subarray(TIME_BYTES, bytes.length - SEQ_BYTES)),
      seq: bytes.readInt32BE(bytes.length - SEQ_BYTES),
    }),
  };
}

/** The buffer's store, walked in key order (a rangeable key_value store). */
type BufferStore = KeyValueStore<BufferKey, BufferedUpdate> & { all(): Iterable<{ key: BufferKey; value: BufferedUpdate }> };

/** What a task's buffer knows beyond its rows, rebuilt from them when the task starts (restored or not). */
interface BufferTimes {
  /**
   * The latest timestamp buffered. The record holding it stays while the grace is above 0, so the rows keep it; with
   * a grace of 0 every record joins at once whatever it is.
   */
  streamTime: number;
  /** The earliest timestamp buffered, Infinity when empty. */
  minTime: number;
  nextSeq: number;
}

function bufferTimes(buffer: BufferStore): BufferTimes {
  const times: BufferTimes = { streamTime: -1, minTime: Infinity, nextSeq: 0 };
  for (const { key } of buffer.all()) {
    times.minTime = Math.min(times.minTime, key.timestamp);
    times.streamTime = Math.max(times.streamTime, key.timestamp);
    times.nextSeq = Math.max(times.nextSeq, key.seq + 1);
  }
  return times;
}

interface Grace {
  storeName: string;
  graceMs: number;
}

function streamTableJoinProcessor(table: TableView, joiner: Joiner, left: boolean, grace: Grace | undefined): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const rows = table.reader(context);
    const join = (record: Rec) => {
      // A versioned table answers with the row valid at the stream record's time (KIP-914).
      const keyless = record.key === null || record.key === undefined;
      const row = keyless ? undefined : rows.getAsOf !== undefined ? rows.getAsOf(record.key, record.timestamp) : rows.get(record.key);
      const tableValue = row?.value;
      if ((tableValue === undefined || tableValue === null) && !left) return;
      context.forward(record.withValue(joiner(record.value, tableValue ?? null)));
    };
    const buffered = grace === undefined ? undefined : bufferedJoin(context, grace, join);
    return (record) => {
      const keyless = record.key === null || record.key === undefined;
      if (record.value === null || record.value === undefined || (keyless && !left)) {
        context.recordDropped();
        return;
      }
      // A left join's null-key record has no place in the buffer's key order: it joins null at once.
      if (buffered === undefined || keyless) join(record);
      else buffered(record);
    };
  });
}

/** Buffers each record for the grace, then joins the records whose time has come, oldest first. */
function bufferedJoin(context: InternalProcessorContext, { storeName, graceMs }: Grace, join: (record: Rec) => void): (record: Rec) => void {
  const buffer = context.getStateStore<BufferStore>(storeName);
  let times: BufferTimes | undefined;
  return (record) => {
    times ??= bufferTimes(buffer);
    if (record.timestamp < times.streamTime - graceMs) {
      join(record);
      return;
    }
    const seq = times.nextSeq;
    times.nextSeq = (seq + 1) & 0x7fffffff;
    buffer.put({ timestamp: record.timestamp, key: record.key, seq }, {
      time: record.timestamp,
      timestamp: record.timestamp,
      topic: context.recordMetadata().topic,
      headers: record.headerList(),
      value: record.value,
    });
    times.streamTime = Math.max(times.streamTime, record.timestamp);
    times.minTime = Math.min(times.minTime, record.timestamp);
    const until = times.streamTime - graceMs;
    if (times.minTime > until) return;
    const joined: BufferKey[] = [];
    times.minTime = Infinity;
    for (const { key, value } of buffer.all()) {
      if (key.timestamp > until) {
        times.minTime = key.timestamp;
        break;
      }
      join(new StreamsRecord(key.key, value.value, value.timestamp, value.headers));
      joined.push(key);
    }
    for (const key of joined) buffer.delete(key);
  };
}

/**
 * Whether a table's rows are versioned: it reads versioned stores only. Kafka Streams refuses a grace period
 * otherwise, when the topology is built.
 */
function isVersioned(builder: InternalTopologyBuilder, view: TableView): boolean {
  return view.storeNames.length > 0 && view.storeNames.every((name) => builder.definition.stores.get(name)?.type === "versioned_key_value");
}

/**
 * The joined stream keeps the stream's key serde (Joined's, else the stream's, else the table's); its values' is
 * unknown.
 */
export function streamTableJoin(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  table: TableHandle,
  joiner: Joiner,
  left: boolean,
  joined: Joined<any, any, any>,
): StreamHandle {
  const node = builder.nodeName("join", joined.name);
  const keySerde: SerdeSpec = joined.keySerde ?? parent.keySerde ?? table.keySerde;
  const valueSerde: SerdeSpec = joined.valueSerde ?? parent.valueSerde;
  const input = parent.keyChanged ? repartition(builder, parent.node, node, keySerde, valueSerde) : parent.node;
  const view = table.operator.view();
  let grace: Grace | undefined;
  const { gracePeriodMs } = joined;
  if (gracePeriodMs !== undefined) {
    if (!Number.isSafeInteger(gracePeriodMs) || gracePeriodMs < 0) throw new RangeError(`the grace period of join '${node}' must be a whole number of milliseconds, at least 0; got ${gracePeriodMs}`);
    if (!isVersioned(builder, view)) throw new Error(`KTable must be versioned to use a grace period in a stream table join (join '${node}').`);
    grace = { storeName: `${node}-Buffer`, graceMs: gracePeriodMs };
    builder.addStore({
      name: grace.storeName,
      type: "key_value",
      keySerde: { wrap: bufferKeySerde, inner: keySerde },
      valueSerde: { wrap: bufferedUpdateSerde, inner: valueSerde },
      rangeable: true,
      caching: false,
    });
  }
  const stores = grace === undefined ? view.storeNames : [...view.storeNames, grace.storeName];
  builder.addProcessor("join", streamTableJoinProcessor(view, joiner, left, grace), [input], [...stores], node);
  return { node, keySerde, valueSerde: undefined, keyChanged: false };
}
