/**
 * Tables whose rows are computed from their parent's, key by key (Kafka Streams' KTableFilter, KTableMapValues,
 * KTableTransformValues): each change of a parent row is computed into a change of the row. Materialized (named),
 * such a table keeps its rows in a store, reads its old values from there and forwards through its record cache;
 * otherwise it keeps nothing, computes old values from the parent's when asked for them, and a reader of its rows
 * computes them from the parent's rows.
 */
import type { Materialized, ValueTransformerWithKeySupplier } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorContext, ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { versionedIfSo, type TableHandle } from "../dsl-handles";
import type { InternalProcessorContext } from "../internal-context";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { materializedTableStore } from "./grouping";
import { statefulProcessor } from "../processor-shapes";
import { changeForwarder, materializedView, tableStore, UNKNOWN_TIMESTAMP, type Change, type TableOperator, type TableView } from "../table-changes";

/** A row's value in the derived table, from its value in the parent (null: no row). */
type RowFunction = (key: unknown, value: unknown) => unknown;

interface Derivation {
  /** Made per processor and per reader, once its context is known. */
  rowFunction(context: InternalProcessorContext): RowFunction;
  /** Stores the row function reads besides the parent's rows. */
  stores: readonly string[];
  /**
   * Kafka Streams' filter: it asks its parent for old values at once (a materialized parent gives them for free),
   * and forwards nothing when a row neither was nor is in the table.
   */
  dropsNothingChanged: boolean;
}

class DerivedTable implements TableOperator {
  private forwardsOldValues: boolean;

  constructor(
    private readonly parent: TableOperator,
    private readonly storeName: string | undefined,
    private readonly derivation: Derivation,
  ) {
    this.forwardsOldValues = derivation.dropsNothingChanged ? parent.sendOldValues(false) : false;
  }

  sendOldValues(forceMaterialization: boolean): boolean {
    if (this.storeName !== undefined || this.parent.sendOldValues(forceMaterialization)) this.forwardsOldValues = true;
    return this.forwardsOldValues;
  }

  view(): TableView {
    if (this.storeName !== undefined) return materializedView(this.storeName);
    const parentView = this.parent.view();
    return {
      storeNames: [...parentView.storeNames, ...this.derivation.stores],
      reader: (context) => {
        const parentRows = parentView.reader(context);
        const compute = this.derivation.rowFunction(context);
        return {
          get: (key) => {
            const row = parentRows.get(key);
            const value = compute(key, row?.value ?? null);
            return value === null || value === undefined ? undefined : { value, timestamp: row?.timestamp ?? UNKNOWN_TIMESTAMP };
          },
        };
      },
    };
  }

  supplier(): ProcessorSupplier<any, any, any, any> {
    return statefulProcessor((context) => {
      const compute = this.derivation.rowFunction(context);
      const store = this.storeName === undefined ? undefined : tableStore(context, this.storeName);
      const sendOldValues = this.forwardsOldValues;
      const forward = changeForwarder(context, store, sendOldValues);
      const dropsNothingChanged = this.derivation.dropsNothingChanged && sendOldValues;
      return (record) => {
        const { newValue: parentNew, oldValue: parentOld } = record.value as Change;
        const newValue = compute(record.key, parentNew) ?? null;
        const oldValue = !sendOldValues ? null : store !== undefined ? store.get(record.key)?.value ?? null : compute(record.key, parentOld) ?? null;
        if (dropsNothingChanged && newValue === null && oldValue === null) return;
        store?.put(record.key, newValue, record.timestamp);
        forward(record, newValue, oldValue);
      };
    });
  }
}

/** Adds the derived table's processor and, when materialized under a name, its store. */
function deriveTable(
  builder: InternalTopologyBuilder,
  parent: TableHandle,
  prefix: string,
  derivation: Derivation,
  valueSerde: SerdeSpec,
  materialized: Materialized<any, any> | undefined,
  name: string | undefined,
): TableHandle {
  const storeName = materialized?.storeName;
  const keySerde = materialized?.keySerde ?? parent.keySerde;
  const values = materialized?.valueSerde ?? valueSerde;
  if (storeName !== undefined) builder.addStore(materializedTableStore(storeName, materialized, keySerde, values));
  const operator = new DerivedTable(parent.operator, storeName, derivation);
  const stores = storeName === undefined ? derivation.stores : [storeName, ...derivation.stores];
  const node = builder.addProcessor(prefix, operator.supplier(), [parent.node], [...stores], name);
  const versionedStore = storeName === undefined ? parent.versionedStore : versionedIfSo(storeName, materialized?.storeType);
  return { node, storeName, keySerde, valueSerde: values, operator, versionedStore };
}

const stateless = (row: RowFunction, dropsNothingChanged: boolean): Derivation => ({ rowFunction: () => row, stores: [], dropsNothingChanged });

export function tableFilter(
  builder: InternalTopologyBuilder,
  parent: TableHandle,
  predicate: (key: any, value: any) => boolean,
  keepWhen: boolean,
  materialized: Materialized<any, any> | undefined,
  name: string | undefined,
): TableHandle {
  const row: RowFunction = (key, value) => (value !== null && Boolean(predicate(key, value)) === keepWhen ? value : null);
  return deriveTable(builder, parent, keepWhen ? "ktable-filter" : "ktable-filternot", stateless(row, true), parent.valueSerde, materialized, name);
}

/** The mapped table's values have an unknown serde unless materialized with one. */
export function tableMapValues(
  builder: InternalTopologyBuilder,
  parent: TableHandle,
  mapper: (value: any, key: any) => unknown,
  materialized: Materialized<any, any> | undefined,
  name: string | undefined,
): TableHandle {
  const row: RowFunction = (key, value) => (value === null ? null : mapper(value, key));
  return deriveTable(builder, parent, "ktable-mapvalues", stateless(row, false), undefined, materialized, name);
}

/**
 * transformValues: the transformer sees every change, deletes (null) included, as in Kafka Streams; each processor
 * and each reader of the rows gets an instance of its own, whose context cannot forward.
 */
export function tableTransformValues(
  builder: InternalTopologyBuilder,
  parent: TableHandle,
  supplier: ValueTransformerWithKeySupplier<any, any, any>,
  stores: readonly string[],
  materialized: Materialized<any, any> | undefined,
  name: string | undefined,
): TableHandle {
  const derivation: Derivation = {
    rowFunction: (context) => {
      const transformer = supplier();
      transformer.init?.(forwardingDisabled(context));
      return (key, value) => transformer.transform(key, value);
    },
    stores,
    dropsNothingChanged: false,
  };
  return deriveTable(builder, parent, "ktable-transformvalues", derivation, undefined, materialized, name);
}

/** A context whose forward fails: a value transformer computes values, it does not send records. */
function forwardingDisabled(context: ProcessorContext<any, any>): ProcessorContext<never, never> {
  const disabled = Object.create(context) as ProcessorContext<never, never>;
  disabled.forward = () => {
    throw new Error("a value transformer may not forward: it returns the value");
  };
  return disabled;
}
