/**
 * Stream-stream windowed joins, inner, left and outer (Kafka Streams' KStreamImplJoin, KStreamJoinWindow and
 * KStreamKStreamJoin with its two sides). Each side's records go into a window store of their own that keeps every
 * record (duplicates too) for size + grace; each record then looks up the other side's store for the records of its
 * key within the join windows, and every pair is joined, with the later of the two timestamps.
 *
 * A left or outer join does not emit a record that found no partner at once (Kafka Streams 3.x+, KIP-633): the
 * record waits in a store both sides share, ordered by timestamp, until the stream time both sides have seen passes
 * its window and the grace; a partner that arrives meanwhile takes it out. The wait is looked at when a record
 * advances the stream time, at most once per emit interval of wall-clock time (Kafka Streams: a second; its test
 * driver, and Sluice's: every time). A record of the outer side with a null key joins null at once (KIP-962); other
 * records with a null key or value are dropped and counted.
 */
import type { JoinWindows, StreamJoined } from "../../../../kernel/contracts/streams/dsl";
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import type { KeyValueStore, WindowBytesStoreSupplier, WindowStore } from "../../../../kernel/contracts/streams/stores";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { encodeTimes, readTime, TIME_BYTES } from "../../state/key-layout";
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { passThroughProcessor, statefulProcessor, type Rec } from "../processor-shapes";
import { repartition } from "./grouping";

export type Joiner = (value: unknown, otherValue: unknown, key: unknown) => unknown;

/** Which joins emit the records of a side that found no partner: left for leftJoin, both for outerJoin. */
export interface JoinKind {
  leftOuter: boolean;
  rightOuter: boolean;
}

/** A waiting record's key in the shared store: sorted by timestamp, then side (right first), then key bytes. */
interface WaitingKey {
  timestamp: number;
  left: boolean;
  key: unknown;
}

/** A waiting record's value: its side's value; the store keeps every record of one key, side and timestamp. */
interface WaitingValue {
  left: boolean;
  value: unknown;
}

const LEFT = 1;
const RIGHT = 0;

function waitingKeySerde(keySerde: Serde<any>): Serde<WaitingKey> {
  return {
    name: `timestamped-key-and-join-side(${keySerde.name})`,
    serialize: ({ timestamp, left, key }) => Buffer.concat([encodeTimes(timestamp), Buffer.from([left ? LEFT : RIGHT]), keySerde.serialize(key)]),
    deserialize: (bytes) => ({ timestamp: readTime(bytes, 0), left: bytes[TIME_BYTES] === LEFT, key: keySerde.deserialize(bytes.subarray(TIME_BYTES + 1)) }),
  };
}

/** Each value: its side, its length, its bytes. */
function waitingValuesSerde(leftSerde: Serde<any>, rightSerde: Serde<any>): Serde<WaitingValue[]> {
  return {
    name: `left-or-right-values(${leftSerde.name}, ${rightSerde.name})`,
    serialize: (values) =>
      Buffer.concat(
        values.flatMap(({ left, value }) => {
          const bytes = (left ? leftSerde : rightSerde).serialize(value);
          const head = Buffer.allocUnsafe(5);
          head[0] = left ? LEFT : RIGHT;
          head.writeUInt32BE(bytes.length, 1);
          return [head, bytes];
        }),
      ),
    deserialize: (bytes) => {
      const values: WaitingValue[] = [];
      for (let at = 0; at < bytes.length; ) {
        const left = bytes[at] === LEFT;
        const length = bytes.readUInt32BE(at + 1);
        values.push({ left, value: (left ? leftSerde : rightSerde).deserialize(bytes.subarray(at + 5, at + 5 + length)) });
        at += 5 + length;
      }
      return values;
    },
  };
}

/** What both sides of one task's join share (Kafka Streams' TimeTracker): the stream time of both, the wait. */
interface TimeTracker {
  streamTime: number;
  /** The earliest timestamp that may wait in the shared store (Infinity: none). */
  minTime: number;
  nextTimeToEmit: number;
}

/** The waiting records' store, walked in key order (a rangeable key_value store). */
type WaitingStore = KeyValueStore<WaitingKey, WaitingValue[]> & { all(): Iterable<{ key: WaitingKey; value: WaitingValue[] }> };

interface SideConfig {
  left: boolean;
  /** This side's records join the other's from `beforeMs` earlier to `afterMs` later. */
  beforeMs: number;
  afterMs: number;
  graceMs: number;
  /** How long after its timestamp a waiting record of each side waits (Kafka Streams' outer-join look-back). */
  leftWaitMs: number;
  rightWaitMs: number;
  /** Whether this side's records that find no partner are emitted. */
  outer: boolean;
  otherStore: string;
  waitingStore: string | undefined;
  joiner: Joiner;
  trackers: Map<string, TimeTracker>;
}

/** Kafka Streams' KStreamJoinWindow: each record goes on, then into its side's window store (under its key, at its time). */
function windowedSideProcessor(storeName: string) {
  return statefulProcessor((context) => {
    const store = context.getStateStore<WindowStore<unknown, unknown>>(storeName);
    return (record) => {
      context.forward(record);
      if (record.key !== null && record.key !== undefined) store.put(record.key, record.value ?? null, record.timestamp);
    };
  });
}

function joinSideProcessor(side: SideConfig) {
  return statefulProcessor((context) => {
    const other = context.getStateStore<WindowStore<unknown, unknown>>(side.otherStore);
    const waiting = side.waitingStore === undefined ? undefined : context.getStateStore<WaitingStore>(side.waitingStore);
    const tracker = trackerOf(side.trackers, context.taskId);
    const emitIntervalMs = context.windowEmitIntervalMs();
    /** The user's joiner always gets the left value first. */
    const join = (key: unknown, thisValue: unknown, otherValue: unknown) => (side.left ? side.joiner(thisValue, otherValue, key) : side.joiner(otherValue, thisValue, key));

    const emitClosed = (record: Rec, store: WaitingStore) => {
      if (tracker.minTime + side.afterMs + side.graceMs >= tracker.streamTime) return;
      const now = context.currentSystemTimeMs();
      if (now < tracker.nextTimeToEmit) return;
      tracker.nextTimeToEmit = now + emitIntervalMs;
      tracker.minTime = Infinity;
      let previous: WaitingKey | undefined;
      let leftOpen = false;
      let rightOpen = false;
      for (const { key: waitingKey, value: values } of store.all()) {
        for (const waitingValue of values) {
          tracker.minTime = waitingKey.timestamp;
          if (leftOpen && rightOpen) break;
          const waitMs = waitingKey.left ? side.leftWaitMs : side.rightWaitMs;
          if (waitingKey.timestamp + waitMs + side.graceMs >= tracker.streamTime) {
            if (waitingKey.left) leftOpen = true;
            else rightOpen = true;
            continue;
          }
          const joined = waitingValue.left ? side.joiner(waitingValue.value, null, waitingKey.key) : side.joiner(null, waitingValue.value, waitingKey.key);
          context.forward(record.withKey(waitingKey.key).withValue(joined).withTimestamp(waitingKey.timestamp));
          // A key goes once all its values are out: deleting it earlier would lose the rest on a crash.
          if (previous !== undefined && previous !== waitingKey) store.put(previous, null);
          previous = waitingKey;
        }
        if (leftOpen && rightOpen) break;
      }
      if (previous !== undefined) store.put(previous, null);
    };

    return (record) => {
      const timestamp = record.timestamp;
      tracker.streamTime = Math.max(tracker.streamTime, timestamp);
      const keyless = record.key === null || record.key === undefined;
      const valueless = record.value === null || record.value === undefined;
      if (side.outer && keyless && !valueless) {
        context.forward(record.withValue(join(record.key, record.value, null)));
        return;
      }
      if (keyless || valueless) {
        context.recordDropped();
        return;
      }
      if (waiting !== undefined && timestamp === tracker.streamTime) emitClosed(record, waiting);
      const timeFrom = Math.max(0, timestamp - side.beforeMs);
      const timeTo = Math.max(0, timestamp + side.afterMs);
      const partners = other.fetchRange(record.key, timeFrom, timeTo);
      for (const partner of partners) {
        // The partner no longer waits for a partner of its own.
        if (waiting !== undefined) {
          const partnerKey = { timestamp: partner.windowStart, left: !side.left, key: record.key };
          if (waiting.get(partnerKey) !== undefined) waiting.put(partnerKey, null);
        }
        context.forward(record.withValue(join(record.key, record.value, partner.value)).withTimestamp(Math.max(timestamp, partner.windowStart)));
      }
      if (!side.outer || partners.length > 0) return;
      if (waiting === undefined || timeTo < tracker.streamTime) {
        context.forward(record.withValue(join(record.key, record.value, null)));
        return;
      }
      tracker.minTime = Math.min(tracker.minTime, timestamp);
      const waitingKey = { timestamp, left: side.left, key: record.key };
      waiting.put(waitingKey, [...(waiting.get(waitingKey) ?? []), { left: side.left, value: record.value }]);
    };
  }, (context) => side.trackers.delete(context.taskId));
}

function trackerOf(trackers: Map<string, TimeTracker>, taskId: string): TimeTracker {
  let tracker = trackers.get(taskId);
  if (tracker === undefined) {
    tracker = { streamTime: -1, minTime: Infinity, nextTimeToEmit: 0 };
    trackers.set(taskId, tracker);
  }
  return tracker;
}

/** Names as Kafka Streams gives them: after StreamJoined's name and store name when given, else the join's node. */
function joinNames(builder: InternalTopologyBuilder, kind: JoinKind, streamJoined: StreamJoined<any, any, any>) {
  const base = streamJoined.name ?? builder.nodeName("join");
  const thisSuffix = kind.rightOuter ? "-outer-this-join" : "-this-join";
  const otherSuffix = kind.leftOuter ? "-outer-other-join" : "-other-join";
  const storeBase = streamJoined.storeName ?? base;
  const { thisStoreSupplier, otherStoreSupplier } = streamJoined;
  return {
    base,
    thisWindowed: `${base}-this-windowed`,
    otherWindowed: `${base}-other-windowed`,
    thisJoin: `${base}${thisSuffix}`,
    otherJoin: `${base}${otherSuffix}`,
    merge: `${base}-merge`,
    thisStore: thisStoreSupplier?.name ?? `${storeBase}${thisSuffix}-store`,
    otherStore: otherStoreSupplier?.name ?? `${storeBase}${otherSuffix}-store`,
    waitingStore: `${thisStoreSupplier?.name ?? storeBase}${kind.rightOuter ? "-outer-shared-join" : "-left-shared-join"}-store`,
  };
}

/** Kafka Streams' checks of a user's join stores: they keep duplicates, match the join windows and differ in name. */
function checkJoinSuppliers({ thisStoreSupplier, otherStoreSupplier }: StreamJoined<any, any, any>, sizeMs: number, graceMs: number): void {
  for (const supplier of [thisStoreSupplier, otherStoreSupplier]) {
    if (supplier === undefined) continue;
    if (!supplier.retainDuplicates()) throw new Error(`the join store supplier '${supplier.name}' must retain duplicates (retainDuplicates() true), as Kafka Streams requires`);
    if (supplier.windowSize() !== sizeMs || supplier.retentionPeriod() !== sizeMs + graceMs) {
      throw new Error(
        `the join store supplier '${supplier.name}' (window size ${supplier.windowSize()} ms, retention ${supplier.retentionPeriod()} ms) must match the join windows: ` +
          `window size ${sizeMs} ms (before + after) and retention ${sizeMs + graceMs} ms (size + grace)`,
      );
    }
  }
  if (thisStoreSupplier !== undefined && thisStoreSupplier.name === otherStoreSupplier?.name) {
    throw new Error(`both join store suppliers are named '${thisStoreSupplier.name}': they must have different names`);
  }
}

/**
 * Adds the join: each side (repartitioned first when its key may have changed) → its window-store processor → its
 * join processor → one merge node, the joined stream. The key serde is StreamJoined's, else this stream's, else the
 * other's; the values' is unknown.
 */
export function streamStreamJoin(
  builder: InternalTopologyBuilder,
  left: StreamHandle,
  right: StreamHandle,
  joiner: Joiner,
  windows: JoinWindows,
  streamJoined: StreamJoined<any, any, any>,
  kind: JoinKind,
): StreamHandle {
  const names = joinNames(builder, kind, streamJoined);
  const keySerde: SerdeSpec = streamJoined.keySerde ?? left.keySerde ?? right.keySerde;
  const leftValueSerde: SerdeSpec = streamJoined.valueSerde ?? left.valueSerde;
  const rightValueSerde: SerdeSpec = streamJoined.otherValueSerde ?? right.valueSerde;
  const input = (side: StreamHandle, suffix: string, valueSerde: SerdeSpec) =>
    side.keyChanged ? repartition(builder, side.node, `${names.base}-${suffix}`, keySerde, valueSerde) : side.node;
  const leftInput = input(left, "left", leftValueSerde);
  const rightInput = input(right, "right", rightValueSerde);

  const size = windows.size();
  const graceMs = windows.gracePeriodMs();
  const changelogConfigs = streamJoined.topicConfig;
  checkJoinSuppliers(streamJoined, size, graceMs);
  const windowStore = (name: string, valueSerde: SerdeSpec, bytesStoreSupplier: WindowBytesStoreSupplier | undefined) =>
    builder.addStore({ name, type: "window", keySerde, valueSerde, windowSizeMs: size, retentionMs: size + graceMs, retainDuplicates: true, changelogConfigs, bytesStoreSupplier });
  windowStore(names.thisStore, leftValueSerde, streamJoined.thisStoreSupplier);
  windowStore(names.otherStore, rightValueSerde, streamJoined.otherStoreSupplier);
  const waitingStore = kind.leftOuter ? names.waitingStore : undefined;
  if (waitingStore !== undefined) {
    builder.addStore({
      name: waitingStore,
      type: "key_value",
      keySerde: { wrap: waitingKeySerde, inner: keySerde },
      valueSerde: { combine: waitingValuesSerde, parts: [leftValueSerde, rightValueSerde] },
      rangeable: true,
      caching: false,
      changelogConfigs,
    });
  }

  const trackers = new Map<string, TimeTracker>();
  const common = { graceMs, leftWaitMs: windows.afterMs, rightWaitMs: windows.beforeMs, waitingStore, joiner, trackers };
  const leftSide: SideConfig = { ...common, left: true, beforeMs: windows.beforeMs, afterMs: windows.afterMs, outer: kind.leftOuter, otherStore: names.otherStore };
  const rightSide: SideConfig = { ...common, left: false, beforeMs: windows.afterMs, afterMs: windows.beforeMs, outer: kind.rightOuter, otherStore: names.thisStore };
  const waitingStores = waitingStore === undefined ? [] : [waitingStore];

  const leftWindowed = builder.addProcessor("join-windowed", windowedSideProcessor(names.thisStore), [leftInput], [names.thisStore], names.thisWindowed);
  const rightWindowed = builder.addProcessor("join-windowed", windowedSideProcessor(names.otherStore), [rightInput], [names.otherStore], names.otherWindowed);
  const leftJoin = builder.addProcessor("join-this", joinSideProcessor(leftSide), [leftWindowed], [names.otherStore, ...waitingStores], names.thisJoin);
  const rightJoin = builder.addProcessor("join-other", joinSideProcessor(rightSide), [rightWindowed], [names.thisStore, ...waitingStores], names.otherJoin);
  const node = builder.addProcessor("join-merge", passThroughProcessor(), [leftJoin, rightJoin], [], names.merge);
  return { node, keySerde, valueSerde: undefined, keyChanged: false };
}
