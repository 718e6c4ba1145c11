/** The DSL's stateless operators as Processor API processors. */
import type { KeyValue } from "../../../kernel/contracts/streams/dsl";
import type { ProcessorContext, ProcessorSupplier, StreamRecord } from "../../../kernel/contracts/streams/processor";

type Rec = StreamRecord<any, any>;

/** A processor whose whole job is `handle(record, context)`. */
export function recordProcessor(handle: (record: Rec, context: ProcessorContext<any, any>) => void): ProcessorSupplier<any, any, any, any> {
  return () => {
    let context!: ProcessorContext<any, any>;
    return {
      init: (ctx) => {
        context = ctx;
      },
      process: (record) => handle(record, context),
    };
  };
}

export const mapProcessor = (mapper: (key: any, value: any) => KeyValue<any, any>) =>
  recordProcessor((record, context) => {
    const mapped = mapper(record.key, record.value);
    context.forward({ key: mapped.key, value: mapped.value, timestamp: record.timestamp });
  });

export const mapValuesProcessor = (mapper: (value: any, key: any) => unknown) =>
  recordProcessor((record, context) =>
    context.forward({ key: record.key, value: mapper(record.value, record.key), timestamp: record.timestamp }),
  );

export const selectKeyProcessor = (mapper: (key: any, value: any) => unknown) =>
  recordProcessor((record, context) =>
    context.forward({ key: mapper(record.key, record.value), value: record.value, timestamp: record.timestamp }),
  );

export const filterProcessor = (predicate: (key: any, value: any) => boolean, keepWhen: boolean) =>
  recordProcessor((record, context) => {
    if (Boolean(predicate(record.key, record.value)) === keepWhen) context.forward(record);
  });

export const flatMapProcessor = (mapper: (key: any, value: any) => Iterable<KeyValue<any, any>>) =>
  recordProcessor((record, context) => {
    for (const mapped of mapper(record.key, record.value)) {
      context.forward({ key: mapped.key, value: mapped.value, timestamp: record.timestamp });
    }
  });

export const flatMapValuesProcessor = (mapper: (value: any, key: any) => Iterable<unknown>) =>
  recordProcessor((record, context) => {
    for (const value of mapper(record.value, record.key)) {
      context.forward({ key: record.key, value, timestamp: record.timestamp });
    }
  });

export const peekProcessor = (action: (key: any, value: any) => void) =>
  recordProcessor((record, context) => {
    action(record.key, record.value);
    context.forward(record);
  });

export const foreachProcessor = (action: (key: any, value: any) => void) =>
  recordProcessor((record) => action(record.key, record.value));

/** Branch `index` keeps the records that match predicate `index` and none before it. */
export const branchProcessor = (predicates: ((key: any, value: any) => boolean)[], index: number) =>
  recordProcessor((record, context) => {
    const first = predicates.findIndex((predicate) => predicate(record.key, record.value));
    if (first === index) context.forward(record);
  });

export const passThroughProcessor = () => recordProcessor((record, context) => context.forward(record));

export const eventStreamProcessor = (type: string) =>
  recordProcessor((record, context) => context.send(type, record.key, record.value, record.timestamp));
