/**
 * The three kinds of store a user may supply (Kafka Streams' KeyValueBytesStoreSupplier, WindowBytesStoreSupplier and
 * SessionBytesStoreSupplier), told apart by what they offer: a window supplier has a window size, a session supplier a
 * retention without one, a key-value supplier neither.
 */
import type { BytesStoreSupplier, SessionBytesStoreSupplier, StoreType, WindowBytesStoreSupplier } from "../../../kernel/contracts/streams/stores";

export interface SuppliedKind {
  readonly supplierName: string;
  /** What kind of store it makes, in words. */
  readonly what: string;
  /** The store types it may back. */
  readonly types: readonly StoreType[];
  /** The extent a store of the supplier takes from it. */
  extent(supplier: BytesStoreSupplier): { windowSizeMs?: number; retentionMs?: number; retainDuplicates?: boolean };
}

const keyValueKind: SuppliedKind = { supplierName: "KeyValueBytesStoreSupplier", what: "key-value", types: ["key_value", "timestamped_key_value"], extent: () => ({}) };

const windowKind: SuppliedKind = {
  supplierName: "WindowBytesStoreSupplier",
  what: "window",
  types: ["window", "timestamped_window"],
  extent: (supplier) => {
    const window = supplier as WindowBytesStoreSupplier;
    return { windowSizeMs: window.windowSize(), retentionMs: window.retentionPeriod(), retainDuplicates: window.retainDuplicates() };
  },
};

const sessionKind: SuppliedKind = {
  supplierName: "SessionBytesStoreSupplier",
  what: "session",
  types: ["session"],
  extent: (supplier) => ({ retentionMs: (supplier as SessionBytesStoreSupplier).retentionPeriod() }),
};

export function suppliedKind(supplier: BytesStoreSupplier): SuppliedKind {
  if (typeof (supplier as Partial<WindowBytesStoreSupplier>).windowSize === "function") return windowKind;
  if (typeof (supplier as Partial<SessionBytesStoreSupplier>).retentionPeriod === "function") return sessionKind;
  return keyValueKind;
}
