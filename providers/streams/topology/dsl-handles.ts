/**
 * What an operator knows of the stream, table or grouping it is applied to, and gives back for the next one: the
 * node it hangs from and the serdes known there. The façade (streams-builder) wraps these in the public DSL types;
 * the operators under operators/ take and return them, so they never need the façade.
 */
import type { Grouped } from "../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../serdes/serde-resolver";
import type { InternalTopologyBuilder } from "./internal-topology-builder";
import type { TableOperator } from "./table-changes";

export interface StreamHandle {
  readonly node: string;
  readonly keySerde: SerdeSpec;
  readonly valueSerde: SerdeSpec;
  /** True once the key may have changed since the source: grouping then goes through a repartition topic. */
  readonly keyChanged: boolean;
}

/** A table: the node its changes leave from, and the operator that answers for it (old values, its view). */
export interface TableHandle {
  readonly node: string;
  /** The store the table keeps its own rows in, when it keeps one (Kafka Streams' queryableStoreName). */
  readonly storeName: string | undefined;
  readonly keySerde: SerdeSpec;
  readonly valueSerde: SerdeSpec;
  readonly operator: TableOperator;
  /**
   * A windowed table's: how long after a window's end it closes (the grace; for sessions the gap plus the grace),
   * which is when `suppress(untilWindowCloses)` emits it.
   */
  readonly windowCloseMs?: number;
  /**
   * The versioned store whose semantics the table has (Kafka Streams' versioned KTables, KIP-914): its own store when
   * that is versioned; for a filter, mapValues or transformValues without a store of its own, its parent's. A join or
   * an aggregation without a versioned store of its own has none, whatever its inputs.
   */
  readonly versionedStore?: string;
}

/** A table's versionedStore when its own store is `name`, of `type`. */
export function versionedIfSo(name: string | undefined, type: string | undefined): string | undefined {
  return type === "versioned_key_value" ? name : undefined;
}

export interface GroupedStreamHandle {
  readonly stream: StreamHandle;
  readonly grouped: Grouped<any, any>;
  readonly needsRepartition: boolean;
  /**
   * The source of the grouping's repartition topic once an aggregation made it: every aggregation of one grouping
   * reads the same topic, as in Kafka Streams.
   */
  repartitionSource?: string;
}

/** A table re-keyed for aggregation (Kafka Streams' KGroupedTable): the node its re-keyed changes leave from. */
export interface GroupedTableHandle {
  readonly node: string;
  readonly grouped: Grouped<any, any>;
  readonly keySerde: SerdeSpec;
  readonly valueSerde: SerdeSpec;
  repartitionSource?: string;
}

/** What a processor after a stream changes of what is known there (unsaid: unchanged). */
export interface StreamChange {
  key?: SerdeSpec;
  value?: SerdeSpec;
  keyChanged?: boolean;
}

/** Adds one processor after `parent`: the stream it makes keeps the parent's serdes unless `change` says otherwise. */
export function nextStream(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  prefix: string,
  supplier: ProcessorSupplier<any, any, any, any>,
  name: string | undefined,
  change: StreamChange,
): StreamHandle {
  const node = builder.addProcessor(prefix, supplier, [parent.node], [], name);
  return {
    node,
    keySerde: "key" in change ? change.key : parent.keySerde,
    valueSerde: "value" in change ? change.value : parent.valueSerde,
    keyChanged: change.keyChanged ?? parent.keyChanged,
  };
}
