/**
 * Aggregations of a grouped stream over session windows (Kafka Streams' KStreamSessionWindowAggregate): a record
 * within the gap of a key's sessions merges them into one; each merged session is deleted downstream (a tombstone)
 * and the new one forwarded.
 */
import type { SessionMaterialized, SessionWindows } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SessionStore } from "../../../../kernel/contracts/streams/stores";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { windowedSerde } from "../../serdes/windowed-serde";
import type { GroupedStreamHandle, TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { keyed, statefulProcessor } from "../processor-shapes";
import { countAggregator, reduceAggregator, type Aggregator, type Folding } from "./aggregate";
import { aggregationInput, groupedValueSerde } from "./grouping";
import { DEFAULT_RETENTION_MS } from "./windowed-aggregate";

export type Merger = (key: any, left: any, right: any) => any;

function sessionAggregateProcessor(
  storeName: string,
  gapMs: number,
  graceMs: number,
  { initializer, aggregator }: Folding,
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

function aggregateInto(
  builder: InternalTopologyBuilder,
  grouping: GroupedStreamHandle,
  windows: SessionWindows,
  materialized: SessionMaterialized<any, any>,
  defaultValueSerde: SerdeSpec,
  folding: Folding,
  merger: Merger,
): TableHandle {
  const input = aggregationInput(builder, grouping, materialized.storeName);
  const keySerde = materialized.keySerde ?? input.keySerde;
  const valueSerde = materialized.valueSerde ?? defaultValueSerde;
  const graceMs = windows.graceMs ?? 0;
  const retentionMs = Math.max(materialized.retentionMs ?? DEFAULT_RETENTION_MS, windows.gapMs + graceMs);
  builder.addStore({ name: materialized.storeName, type: "session", keySerde, valueSerde, retentionMs });
  const supplier = sessionAggregateProcessor(materialized.storeName, windows.gapMs, graceMs, folding, merger);
  const node = builder.addProcessor("session-aggregate", supplier, [input.parent], [materialized.storeName]);
  return { node, storeName: materialized.storeName, keySerde: { wrap: windowedSerde, inner: keySerde }, valueSerde };
}

export function sessionCount(
  builder: InternalTopologyBuilder,
  grouping: GroupedStreamHandle,
  windows: SessionWindows,
  materialized: SessionMaterialized<any, number>,
): TableHandle {
  return aggregateInto(builder, grouping, windows, materialized, "long", countAggregator(), (_key, left: number, right: number) => left + right);
}

export function sessionReduce(
  builder: InternalTopologyBuilder,
  grouping: GroupedStreamHandle,
  windows: SessionWindows,
  reducer: (aggregate: any, value: any) => any,
  materialized: SessionMaterialized<any, any>,
): TableHandle {
  const folding = reduceAggregator(reducer);
  const merger: Merger = (key, left, right) => folding.aggregator(key, right, left);
  return aggregateInto(builder, grouping, windows, materialized, groupedValueSerde(grouping), folding, merger);
}

export function sessionAggregate(
  builder: InternalTopologyBuilder,
  grouping: GroupedStreamHandle,
  windows: SessionWindows,
  initializer: () => unknown,
  aggregator: Aggregator,
  merger: Merger,
  materialized: SessionMaterialized<any, any>,
): TableHandle {
  return aggregateInto(builder, grouping, windows, materialized, undefined, { initializer, aggregator }, merger);
}
