/**
 * Table-table joins on the key, inner, left and outer (Kafka Streams' KTableKTableInnerJoin, KTableKTableLeftJoin,
 * KTableKTableRightJoin, KTableKTableOuterJoin and KTableKTableJoinMerger): a change on either side looks the key up
 * in the other side's rows and forwards the joined change; both meet in a merger, which is the joined table (keeping
 * its rows in a store when materialized). A joined row carries the larger timestamp of its two rows. The two tables
 * are read in one task, so their topics must be co-partitioned (checked when the application starts).
 */
import type { Materialized } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import { versionedIfSo, type TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { materializedTableStore } from "./grouping";
import { statefulProcessor, type Rec } from "../processor-shapes";
import { change, changeForwarder, materializedView, tableStore, UNKNOWN_TIMESTAMP, type Change, type Row, type TableOperator, type TableView } from "../table-changes";

export type TableJoinKind = "inner" | "left" | "outer";

type Joiner = (value: any, otherValue: any) => unknown;

/**
 * How one side's change joins the other side's row: the joined new and old values, or undefined when nothing is
 * forwarded. `sendOldValues` says whether the old value is asked for.
 */
type SideJoin = (change: Change, other: Row | undefined, joiner: Joiner, sendOldValues: boolean) => Change | undefined;

const present = (row: Row | undefined): row is Row => row !== undefined && row.value !== null && row.value !== undefined;

/** Inner: only keys the other side has. */
const innerSide: SideJoin = ({ newValue, oldValue }, other, joiner, sendOldValues) => {
  if (!present(other)) return undefined;
  return change(newValue === null ? null : joiner(newValue, other.value), sendOldValues && oldValue !== null ? joiner(oldValue, other.value) : null);
};

/** The left table's side of a left join: its rows join the other's value or null. */
const leftSide: SideJoin = ({ newValue, oldValue }, other, joiner, sendOldValues) => {
  const otherValue = present(other) ? other.value : null;
  if (otherValue === null && newValue === null && oldValue === null) return undefined;
  return change(newValue === null ? null : joiner(newValue, otherValue), sendOldValues && oldValue !== null ? joiner(oldValue, otherValue) : null);
};

/** The right table's side of a left join (Kafka Streams' KTableKTableRightJoin): only keys the left has, its value joining whatever this side holds now. */
const rightSide: SideJoin = ({ newValue, oldValue }, other, joiner, sendOldValues) => {
  if (!present(other)) return undefined;
  return change(joiner(newValue, other.value), sendOldValues ? joiner(oldValue, other.value) : null);
};

const outerSide: SideJoin = ({ newValue, oldValue }, other, joiner, sendOldValues) => {
  const otherValue = present(other) ? other.value : null;
  if (otherValue === null && newValue === null && oldValue === null) return undefined;
  const joined = (value: unknown) => (otherValue !== null || value !== null ? joiner(value, otherValue) : null);
  return change(joined(newValue), sendOldValues ? joined(oldValue) : null);
};

/** The side joins of each kind: the left table's, then the right table's. */
const SIDES: Record<TableJoinKind, [SideJoin, SideJoin]> = {
  inner: [innerSide, innerSide],
  left: [leftSide, rightSide],
  outer: [outerSide, outerSide],
};

/** The joined row of a key, from both sides' rows (the join's view when it keeps no store). */
function joinedRow(kind: TableJoinKind, left: Row | undefined, right: Row | undefined, joiner: Joiner): Row | undefined {
  const hasLeft = present(left);
  const hasRight = present(right);
  if (kind === "inner" ? !(hasLeft && hasRight) : kind === "left" ? !hasLeft : !(hasLeft || hasRight)) return undefined;
  const timestamp = Math.max(hasLeft ? left.timestamp : UNKNOWN_TIMESTAMP, hasRight ? right.timestamp : UNKNOWN_TIMESTAMP);
  return { value: joiner(hasLeft ? left.value : null, hasRight ? right.value : null), timestamp };
}

/** The joined table: both sides' processors and the merger share whether old values are sent. */
class JoinedTable implements TableOperator {
  forwardsOldValues = false;

  constructor(
    private readonly kind: TableJoinKind,
    private readonly left: TableOperator,
    private readonly right: TableOperator,
    private readonly joiner: Joiner,
    readonly storeName: string | undefined,
  ) {}

  sendOldValues(): boolean {
    this.left.sendOldValues(true);
    this.right.sendOldValues(true);
    this.forwardsOldValues = true;
    return true;
  }

  view(): TableView {
    if (this.storeName !== undefined) return materializedView(this.storeName);
    const left = this.left.view();
    const right = this.right.view();
    return {
      storeNames: [...new Set([...left.storeNames, ...right.storeNames])],
      reader: (context) => {
        const leftRows = left.reader(context);
        const rightRows = right.reader(context);
        return { get: (key) => joinedRow(this.kind, leftRows.get(key), rightRows.get(key), this.joiner) };
      },
    };
  }

  /** The processor of one side: its changes join the other side's rows. */
  sideSupplier(sideJoin: SideJoin, other: TableView, joiner: Joiner): ProcessorSupplier<any, any, any, any> {
    return statefulProcessor((context) => {
      const rows = other.reader(context);
      const sendOldValues = this.forwardsOldValues;
      return (record) => {
        if (record.key === null || record.key === undefined) {
          context.recordDropped();
          return;
        }
        const otherRow = rows.get(record.key);
        const joined = sideJoin(record.value as Change, otherRow, joiner, sendOldValues);
        if (joined === undefined) return;
        const timestamp = present(otherRow) ? Math.max(record.timestamp, otherRow.timestamp) : record.timestamp;
        context.forward(record.withValue(joined).withTimestamp(timestamp));
      };
    });
  }

  /** The merger: the joined table, writing its store when it keeps one. */
  mergerSupplier(): ProcessorSupplier<any, any, any, any> {
    return statefulProcessor((context) => {
      const store = this.storeName === undefined ? undefined : tableStore(context, this.storeName);
      const forward = changeForwarder(context, store, this.forwardsOldValues);
      return (record) => {
        const { newValue, oldValue } = record.value as Change;
        store?.put(record.key, newValue, record.timestamp);
        forward(record as Rec, newValue, oldValue);
      };
    });
  }
}

/**
 * Joins `left` with `right` on the key. A left join has the left table send old values, an outer join both (a row
 * deleted on one side must still be joined); with `materialized` (named or not) the join keeps its rows in a store.
 */
export function tableTableJoin(
  builder: InternalTopologyBuilder,
  left: TableHandle,
  right: TableHandle,
  joiner: Joiner,
  kind: TableJoinKind,
  materialized: Materialized<any, any> | undefined,
  name: string | undefined,
): TableHandle {
  const merger = builder.nodeName("ktable-merge", name);
  const storeName = materialized === undefined ? undefined : materialized.storeName ?? builder.storeName("ktable-merge");
  const keySerde = materialized?.keySerde ?? left.keySerde;
  const valueSerde = materialized?.valueSerde;
  if (kind !== "inner") left.operator.sendOldValues(true);
  if (kind === "outer") right.operator.sendOldValues(true);
  const table = new JoinedTable(kind, left.operator, right.operator, joiner, storeName);
  const [leftJoin, rightJoin] = SIDES[kind];
  const leftView = left.operator.view();
  const rightView = right.operator.view();
  const joinThis = builder.addProcessor("ktable-jointhis", table.sideSupplier(leftJoin, rightView, joiner), [left.node], [...rightView.storeNames], name && `${name}-join-this`);
  const reversed: Joiner = (value, otherValue) => joiner(otherValue, value);
  const joinOther = builder.addProcessor("ktable-joinother", table.sideSupplier(rightJoin, leftView, reversed), [right.node], [...leftView.storeNames], name && `${name}-join-other`);
  if (storeName !== undefined) builder.addStore(materializedTableStore(storeName, materialized, keySerde, valueSerde));
  builder.addProcessor("ktable-merge", table.mergerSupplier(), [joinThis, joinOther], storeName === undefined ? [] : [storeName], merger);
  return { node: merger, storeName, keySerde, valueSerde, operator: table, versionedStore: versionedIfSo(storeName, materialized?.storeType) };
}
