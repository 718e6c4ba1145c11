/**
 * The stateless record-at-a-time operators (Kafka Streams' KStreamMap, KStreamMapValues, KStreamFilter,
 * KStreamFlatMap, KStreamFlatMapValues, KStreamPeek, foreach): one processor each, no store. Those that may change
 * the key mark the stream as re-keyed, and their outputs' serdes unknown.
 */
import type { KeyValue } from "../../../../kernel/contracts/streams/dsl";
import { nextStream, type StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { recordProcessor } from "../processor-shapes";

const mapProcessor = (mapper: (key: any, value: any) => KeyValue<any, any>) =>
  recordProcessor((record, context) => {
    const mapped = mapper(record.key, record.value);
    context.forward(record.withKeyValue(mapped.key, mapped.value));
  });

const mapValuesProcessor = (mapper: (value: any, key: any) => unknown) =>
  recordProcessor((record, context) =>
    context.forward(record.withValue(mapper(record.value, record.key))),
  );

export const selectKeyProcessor = (mapper: (key: any, value: any) => unknown) =>
  recordProcessor((record, context) =>
    context.forward(record.withKey(mapper(record.key, record.value))),
  );

const filterProcessor = (predicate: (key: any, value: any) => boolean, keepWhen: boolean) =>
  recordProcessor((record, context) => {
    if (Boolean(predicate(record.key, record.value)) === keepWhen) context.forward(record);
  });

const flatMapProcessor = (mapper: (key: any, value: any) => Iterable<KeyValue<any, any>>) =>
  recordProcessor((record, context) => {
    for (const mapped of mapper(record.key, record.value)) {
      context.forward(record.withKeyValue(mapped.key, mapped.value));
    }
  });

const flatMapValuesProcessor = (mapper: (value: any, key: any) => Iterable<unknown>) =>
  recordProcessor((record, context) => {
    for (const value of mapper(record.value, record.key)) {
      context.forward(record.withValue(value));
    }
  });

const peekProcessor = (action: (key: any, value: any) => void) =>
  recordProcessor((record, context) => {
    action(record.key, record.value);
    context.forward(record);
  });

const foreachProcessor = (action: (key: any, value: any) => void) =>
  recordProcessor((record) => action(record.key, record.value));

type Builder = InternalTopologyBuilder;

export const map = (builder: Builder, parent: StreamHandle, mapper: (key: any, value: any) => KeyValue<any, any>, name?: string) =>
  nextStream(builder, parent, "map", mapProcessor(mapper), name, { key: undefined, value: undefined, keyChanged: true });

export const mapValues = (builder: Builder, parent: StreamHandle, mapper: (value: any, key: any) => unknown, name?: string) =>
  nextStream(builder, parent, "mapvalues", mapValuesProcessor(mapper), name, { value: undefined });

export const filter = (builder: Builder, parent: StreamHandle, predicate: (key: any, value: any) => boolean, name?: string) =>
  nextStream(builder, parent, "filter", filterProcessor(predicate, true), name, {});

export const filterNot = (builder: Builder, parent: StreamHandle, predicate: (key: any, value: any) => boolean, name?: string) =>
  nextStream(builder, parent, "filternot", filterProcessor(predicate, false), name, {});

export const flatMap = (builder: Builder, parent: StreamHandle, mapper: (key: any, value: any) => Iterable<KeyValue<any, any>>, name?: string) =>
  nextStream(builder, parent, "flatmap", flatMapProcessor(mapper), name, { key: undefined, value: undefined, keyChanged: true });

export const flatMapValues = (builder: Builder, parent: StreamHandle, mapper: (value: any, key: any) => Iterable<unknown>, name?: string) =>
  nextStream(builder, parent, "flatmapvalues", flatMapValuesProcessor(mapper), name, { value: undefined });

export const selectKey = (builder: Builder, parent: StreamHandle, mapper: (key: any, value: any) => unknown, name?: string) =>
  nextStream(builder, parent, "selectkey", selectKeyProcessor(mapper), name, { key: undefined, keyChanged: true });

export const peek = (builder: Builder, parent: StreamHandle, action: (key: any, value: any) => void, name?: string) =>
  nextStream(builder, parent, "peek", peekProcessor(action), name, {});

/** A terminal operator: nothing follows it. */
export function foreach(builder: Builder, parent: StreamHandle, action: (key: any, value: any) => void, name?: string): void {
  builder.addProcessor("foreach", foreachProcessor(action), [parent.node], [], name);
}
