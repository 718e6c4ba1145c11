/**
 * Foreign-key table-table joins, inner and left (Kafka Streams' KTableImpl.doJoinOnForeignKey and its
 * foreignkeyjoin processors), built as Kafka Streams builds them:
 * 1. each change of a left row sends a subscription to its foreign key, over the registration topic (partitioned as
 *    the right table), with the digest of the row's value — and, when the foreign key changed, an unsubscription
 *    from the old one;
 * 2. the right table's task keeps the subscribers of each foreign key in the subscription store and answers each
 *    subscription with the foreign row; each change of a right row is sent to all of its subscribers;
 * 3. answers travel over the response topic back to the left row's partition, where an answer whose digest is not
 *    the row's current one is stale (the row changed since) and is dropped; the others are joined into the result,
 *    a table made of those changes.
 * So the result is right whatever order the two tables' updates arrive in across partitions, however a row's
 * foreign key changes, and whichever side is deleted. The tables need not be co-partitioned.
 */
import { hash } from "node:crypto";
import type { Materialized, StreamPartitioner, TableJoined } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import {
  Instruction,
  subscribersSerde,
  subscriptionResponseSerde,
  subscriptionSerde,
  type Subscriber,
  type Subscription,
  type SubscriptionResponse,
} from "../../serdes/subscription-serdes";
import type { TableHandle } from "../dsl-handles";
import type { InternalProcessorContext } from "../internal-context";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { statefulProcessor, type Rec } from "../processor-shapes";
import { tableStore, type Change, type Row, type TableStore, type TableView } from "../table-changes";
import { addChangelogTable } from "./table";

type Extractor = (value: any, key: any) => unknown;
type Joiner = (value: any, foreignValue: any) => unknown;

/** The 16-byte digest a subscription carries of its row's value. */
function valueHash(valueSerde: Serde<unknown>, value: unknown): Buffer {
  return hash("md5", valueSerde.serialize(value), "buffer");
}

const sameHash = (a: Buffer | null, b: Buffer | null) => (a === null || b === null ? a === b : a.equals(b));

/** The names Kafka Streams gives a join named `base` (TableJoined.as): topics, store and processors. */
function joinNames(applicationId: string, base: string) {
  return {
    send: `${base}-subscription-registration-processor`,
    registrationTopic: `${applicationId}-${base}-subscription-registration-topic`,
    registrationSink: `${base}-subscription-registration-sink`,
    registrationSource: `${base}-subscription-registration-source`,
    store: `${base}-subscription-store`,
    receive: `${base}-subscription-receive`,
    foreignJoin: `${base}-foreign-join-subscription`,
    responseTopic: `${applicationId}-${base}-subscription-response-topic`,
    responseSink: `${base}-subscription-response-sink`,
    responseSource: `${base}-subscription-response-source`,
    resolver: `${base}-subscription-response-resolver`,
    result: `${base}-result`,
  };
}

/** The serdes the join's processors serialize with: the left keys and values, the foreign keys. */
interface JoinSerdes {
  primaryKeys: SerdeSpec;
  leftValues: SerdeSpec;
  foreignKeys: SerdeSpec;
}

/**
 * Kafka Streams' SubscriptionSendProcessorSupplier (4.x): what a left row's change subscribes to and unsubscribes
 * from. A row whose foreign key changed leaves the old one quietly (the new one answers); a left join subscribes
 * even with no foreign key (a null one: the answer joins null). An inner join drops a row with a null foreign key
 * (counted), and a row that had a foreign key and loses it, or is deleted, leaves it with a tombstone.
 */
function sendProcessor(extractor: Extractor, left: boolean, serdes: JoinSerdes): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const primaryKeys = context.serdeOf(serdes.primaryKeys, "key");
    const leftValues = context.serdeOf(serdes.leftValues, "value");
    const foreignKeys = context.serdeOf(serdes.foreignKeys, "key");
    const changed = (newKey: unknown, oldKey: unknown) => newKey === null || !foreignKeys.serialize(newKey).equals(foreignKeys.serialize(oldKey));
    return (record) => {
      const { newValue, oldValue } = record.value as Change;
      if (newValue === null && oldValue === null) return;
      const foreignKeyOf = (value: unknown) => (value === null ? null : extractor(value, record.key) ?? null);
      const newKey = foreignKeyOf(newValue);
      const oldKey = foreignKeyOf(oldValue);
      const send = (foreignKey: unknown, instruction: Instruction) =>
        context.forward(
          record.withKeyValue(foreignKey, {
            hash: newValue === null ? null : valueHash(leftValues, newValue),
            instruction,
            primaryKey: primaryKeys.serialize(record.key),
            primaryPartition: context.recordMetadata().partition,
          } satisfies Subscription),
        );
      const moved = oldKey !== null && changed(newKey, oldKey);
      if (left) {
        if (moved) send(oldKey, Instruction.DeleteKeyNoPropagate);
        send(newKey, Instruction.PropagateNullIfNoForeignValue);
      } else if (newValue === null || newKey === null) {
        if (newValue !== null) context.recordDropped();
        if (oldKey !== null) send(oldKey, Instruction.DeleteKeyAndPropagate);
      } else if (moved) {
        send(oldKey, Instruction.DeleteKeyNoPropagate);
        send(newKey, Instruction.PropagateNullIfNoForeignValue);
      } else {
        send(newKey, Instruction.PropagateOnlyIfForeignValue);
      }
    };
  });
}

/** An answer to the row `primaryKey`, keyed by it, with the timestamp given. */
function respond(context: InternalProcessorContext, record: Rec, primaryKeys: Serde<unknown>, subscriber: Omit<Subscriber, "timestamp">, foreignValue: unknown, timestamp: number): void {
  const response: SubscriptionResponse = { hash: subscriber.hash, foreignValue, primaryPartition: subscriber.primaryPartition };
  context.forward(record.withKeyValue(primaryKeys.deserialize(subscriber.primaryKey), response).withTimestamp(timestamp));
}

/**
 * Kafka Streams' SubscriptionReceiveProcessorSupplier and SubscriptionJoinProcessorSupplier in one: a subscription
 * updates its foreign key's subscribers and is answered with the foreign row (its timestamp the larger of the two).
 */
function receiveProcessor(storeName: string, foreign: TableView, serdes: JoinSerdes): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = tableStore(context, storeName);
    const foreignRows = foreign.reader(context);
    const primaryKeys = context.serdeOf(serdes.primaryKeys, "key");
    return (record) => {
      const subscription = record.value as Subscription;
      const keyless = record.key === null || record.key === undefined;
      if (keyless && subscription.instruction !== Instruction.PropagateNullIfNoForeignValue) {
        context.recordDropped();
        return;
      }
      if (!keyless) updateSubscribers(store, record.key, subscription, record.timestamp);
      const row: Row | undefined = keyless ? undefined : foreignRows.get(record.key);
      const timestamp = row === undefined ? record.timestamp : Math.max(record.timestamp, row.timestamp);
      switch (subscription.instruction) {
        case Instruction.DeleteKeyAndPropagate:
          return respond(context, record, primaryKeys, subscription, null, timestamp);
        case Instruction.PropagateNullIfNoForeignValue:
          return respond(context, record, primaryKeys, subscription, row?.value ?? null, timestamp);
        case Instruction.PropagateOnlyIfForeignValue:
          if (row !== undefined) respond(context, record, primaryKeys, subscription, row.value, timestamp);
          return;
        case Instruction.DeleteKeyNoPropagate:
          return;
      }
    };
  });
}

/**
 * Replaces the row's subscription to the foreign key, or removes it. Subscribers are kept in key byte order, the
 * order Kafka Streams' prefix scan of its subscription store answers a foreign row's change in.
 */
function updateSubscribers(store: TableStore, foreignKey: unknown, subscription: Subscription, timestamp: number): void {
  const subscribers = ((store.get(foreignKey)?.value ?? []) as Subscriber[]).filter((subscriber) => !subscriber.primaryKey.equals(subscription.primaryKey));
  const unsubscribes = subscription.instruction === Instruction.DeleteKeyAndPropagate || subscription.instruction === Instruction.DeleteKeyNoPropagate;
  if (!unsubscribes) {
    const after = subscribers.findIndex((subscriber) => Buffer.compare(subscriber.primaryKey, subscription.primaryKey) > 0);
    subscribers.splice(after < 0 ? subscribers.length : after, 0, { ...subscription, timestamp });
  }
  store.put(foreignKey, subscribers.length === 0 ? null : subscribers, timestamp);
}

/** Kafka Streams' ForeignTableJoinProcessorSupplier: a right row's change is sent to every row subscribed to it. */
function foreignJoinProcessor(storeName: string, serdes: JoinSerdes): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = tableStore(context, storeName);
    const primaryKeys = context.serdeOf(serdes.primaryKeys, "key");
    return (record) => {
      if (record.key === null || record.key === undefined) {
        context.recordDropped();
        return;
      }
      const { newValue } = record.value as Change;
      for (const subscriber of (store.get(record.key)?.value ?? []) as Subscriber[]) {
        respond(context, record, primaryKeys, subscriber, newValue, record.timestamp);
      }
    };
  });
}

/**
 * Kafka Streams' ResponseJoinProcessorSupplier: an answer joins the left row as it is now, unless the row changed
 * since its subscription (then a newer answer is on its way: dropped, counted). No foreign value deletes the joined
 * row in an inner join; a left join joins null, unless the left row is gone.
 */
function resolverProcessor(leftRows: TableView, joiner: Joiner, left: boolean, serdes: JoinSerdes): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const rows = leftRows.reader(context);
    const leftValues = context.serdeOf(serdes.leftValues, "value");
    return (record) => {
      const { hash: subscribed, foreignValue } = record.value as SubscriptionResponse;
      const current = rows.get(record.key);
      if (!sameHash(subscribed, current === undefined ? null : valueHash(leftValues, current.value))) {
        context.recordDropped();
        return;
      }
      const deleted = foreignValue === null && (!left || current === undefined);
      context.forward(record.withValue(deleted ? null : joiner(current?.value ?? null, foreignValue)));
    };
  });
}

/** The response goes back to the partition of the left row's task. */
const toPrimaryPartition: StreamPartitioner<unknown, SubscriptionResponse> = { partitions: (_topic, _key, response) => new Set([response.primaryPartition]) };

export function foreignKeyJoin(
  builder: InternalTopologyBuilder,
  leftTable: TableHandle,
  rightTable: TableHandle,
  extractor: Extractor,
  joiner: Joiner,
  left: boolean,
  tableJoined: TableJoined,
  materialized: Materialized<any, any> | undefined,
): TableHandle {
  const names = joinNames(builder.applicationId, tableJoined.name ?? builder.nodeName("fk-join"));
  const serdes: JoinSerdes = { primaryKeys: leftTable.keySerde, leftValues: leftTable.valueSerde, foreignKeys: rightTable.keySerde };
  leftTable.operator.sendOldValues(true);
  rightTable.operator.sendOldValues(true);
  const rightView = rightTable.operator.view();
  const leftView = leftTable.operator.view();

  builder.definition.repartitionTopics.add(names.registrationTopic);
  builder.addProcessor("fk-send", sendProcessor(extractor, left, serdes), [leftTable.node], [], names.send);
  builder.addSink(names.registrationTopic, rightTable.keySerde, subscriptionSerde, names.send, names.registrationSink);
  builder.addSource([names.registrationTopic], rightTable.keySerde, subscriptionSerde, names.registrationSource);
  builder.addStore({ name: names.store, type: "timestamped_key_value", keySerde: rightTable.keySerde, valueSerde: subscribersSerde });
  builder.addProcessor("fk-receive", receiveProcessor(names.store, rightView, serdes), [names.registrationSource], [names.store, ...rightView.storeNames], names.receive);
  builder.addProcessor("fk-foreign-join", foreignJoinProcessor(names.store, serdes), [rightTable.node], [names.store], names.foreignJoin);

  const responses = { wrap: subscriptionResponseSerde, inner: rightTable.valueSerde };
  builder.definition.repartitionTopics.add(names.responseTopic);
  builder.addSink(names.responseTopic, leftTable.keySerde, responses, [names.receive, names.foreignJoin], names.responseSink, toPrimaryPartition);
  builder.addSource([names.responseTopic], leftTable.keySerde, responses, names.responseSource);
  builder.addProcessor("fk-resolve", resolverProcessor(leftView, joiner, left, serdes), [names.responseSource], [...leftView.storeNames], names.resolver);
  return addChangelogTable(builder, names.resolver, { prefix: "fk-result", name: names.result, materialized, keySerde: leftTable.keySerde, valueSerde: undefined });
}
