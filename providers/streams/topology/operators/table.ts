/**
 * Tables made from a changelog (Kafka Streams' KTableSource): StreamsBuilder.table, KStream.toTable and the result of
 * a foreign-key join. Each record updates its key's row, a null value deletes it, and the change goes downstream.
 * And the way back, KTable.toStream. Every row keeps the timestamp of its record (a timestamped_key_value store,
 * unless materialized otherwise).
 *
 * As in Kafka Streams, such a table is materialized — it answers queries and joins from its store, forwards through
 * its record cache, and can send old values — when named, or when an operator downstream needs it to be. Sluice keeps
 * the store of StreamsBuilder.table either way (named after its topic unless materialized otherwise), as it always
 * has; the others keep one only when materialized.
 */
import type { Consumed, Materialized } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { versionedIfSo, type StreamHandle, type TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { keyed, recordProcessor, statefulProcessor } from "../processor-shapes";
import { changeForwarder, materializedView, tableStore, type Change, type TableOperator, type TableView } from "../table-changes";
import { materializedTableStore, repartition } from "./grouping";
import { selectKey } from "./stateless";

/** The operator of a table made from a changelog (Kafka Streams' KTableSource). */
export class ChangelogTable implements TableOperator {
  private forwardsOldValues = false;

  /**
   * `stored`: the store exists whether or not the table is materialized (StreamsBuilder.table in Sluice); otherwise
   * `addStore` adds it when the table becomes materialized.
   */
  constructor(
    readonly storeName: string,
    private isMaterialized: boolean,
    private readonly stored: boolean,
    private readonly addStore: () => void,
  ) {}

  get materialized(): boolean {
    return this.isMaterialized;
  }

  /** Whether the processor keeps the store. */
  get keepsStore(): boolean {
    return this.stored || this.isMaterialized;
  }

  sendOldValues(forceMaterialization: boolean): boolean {
    if (!forceMaterialization && !this.isMaterialized) return false;
    this.materialize();
    this.forwardsOldValues = true;
    return true;
  }

  view(): TableView {
    this.materialize();
    return materializedView(this.storeName);
  }

  private materialize(): void {
    if (this.isMaterialized) return;
    const added = !this.keepsStore;
    this.isMaterialized = true;
    if (added) this.addStore();
  }

  supplier(): ProcessorSupplier<any, any, any, any> {
    return statefulProcessor((context) => {
      const store = this.keepsStore ? tableStore(context, this.storeName) : undefined;
      const forward = changeForwarder(context, this.isMaterialized ? store : undefined, this.forwardsOldValues);
      return (record) => {
        if (!keyed(context, record)) return;
        if (store === undefined) return forward(record, record.value, null);
        const old = store.get(record.key);
        if (store.put(record.key, record.value, record.timestamp)) forward(record, record.value, old?.value);
      };
    });
  }
}

interface ChangelogTableOptions {
  /** The processor's name. */
  prefix: string;
  name?: string;
  materialized: Materialized<any, any> | undefined;
  /** The serdes of the records, unless materialized otherwise. */
  keySerde: SerdeSpec;
  valueSerde: SerdeSpec;
  /** StreamsBuilder.table: the store is kept even when the table is not materialized, named after `storeNameOtherwise`. */
  storeNameOtherwise?: string;
}

/** Adds the processor of a table made from the changelog `parent` forwards, and its store. */
export function addChangelogTable(builder: InternalTopologyBuilder, parent: string, options: ChangelogTableOptions): TableHandle {
  const { materialized } = options;
  const named = materialized?.storeName;
  const storeName = named ?? options.storeNameOtherwise ?? builder.storeName(options.prefix);
  const keySerde = materialized?.keySerde ?? options.keySerde;
  const valueSerde = materialized?.valueSerde ?? options.valueSerde;
  const store = materializedTableStore(storeName, materialized, keySerde, valueSerde);
  if (store.type === "versioned_key_value" && !(Number.isSafeInteger(store.historyRetentionMs) && store.historyRetentionMs! >= 0)) {
    throw new Error(`the versioned store '${storeName}' needs a historyRetentionMs of 0 or more, got ${store.historyRetentionMs}`);
  }
  let node = "";
  const operator = new ChangelogTable(storeName, named !== undefined, options.storeNameOtherwise !== undefined, () => {
    builder.addStore(store);
    builder.connectStores(node, [storeName]);
  });
  if (operator.keepsStore) builder.addStore(store);
  node = builder.addProcessor(options.prefix, operator.supplier(), [parent], operator.keepsStore ? [storeName] : [], options.name);
  const versionedStore = versionedIfSo(storeName, store.type);
  return { node, get storeName() { return operator.materialized || options.storeNameOtherwise !== undefined ? storeName : undefined; }, keySerde, valueSerde, operator, versionedStore };
}

/** The store is named after the topic unless `materialized` names it. */
export function tableSource(
  builder: InternalTopologyBuilder,
  topic: string,
  consumed: Consumed<any, any>,
  materialized: Materialized<any, any> | undefined,
): TableHandle {
  const source = builder.addSource([topic], consumed.keySerde, consumed.valueSerde, consumed.name, consumed.timestampExtractor);
  return addChangelogTable(builder, source, { prefix: "table", materialized, keySerde: consumed.keySerde, valueSerde: consumed.valueSerde, storeNameOtherwise: topic });
}

/** KStream.toTable: a stream whose key may have changed goes through a repartition topic first, as in Kafka Streams. */
export function toTable(builder: InternalTopologyBuilder, parent: StreamHandle, materialized: Materialized<any, any> | undefined, name?: string): TableHandle {
  const node = builder.nodeName("totable", name);
  const keySerde = materialized?.keySerde ?? parent.keySerde;
  const valueSerde = materialized?.valueSerde ?? parent.valueSerde;
  const input = parent.keyChanged ? repartition(builder, parent.node, node, keySerde, valueSerde) : parent.node;
  return addChangelogTable(builder, input, { prefix: "totable", name: node, materialized, keySerde: parent.keySerde, valueSerde: parent.valueSerde });
}

const toStreamProcessor = () => recordProcessor((record, context) => context.forward(record.withValue((record.value as Change).newValue)));

/** KTable.toStream: each change's new value (null: the row was deleted); with a key mapper, then re-keyed. */
export function toStream(builder: InternalTopologyBuilder, table: TableHandle, name?: string, keyMapper?: (key: any, value: any) => unknown): StreamHandle {
  const node = builder.addProcessor("tostream", toStreamProcessor(), [table.node], [], name);
  const stream: StreamHandle = { node, keySerde: table.keySerde, valueSerde: table.valueSerde, keyChanged: false };
  return keyMapper === undefined ? stream : selectKey(builder, stream, keyMapper);
}
