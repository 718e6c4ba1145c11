/** The shape of a scenario's golden.json, as the Java recorder writes it and the Sluice run reproduces it. */
import type { Header, JsonValue } from "./scenario-script";

export interface GoldenOutput {
  /** Index of the action that caused the record. */
  at: number;
  topic: string;
  key: JsonValue;
  /** Hex of the key's bytes, for windowed keys. */
  keyBytes?: string;
  value: JsonValue;
  valueBytes?: string;
  timestamp: number;
  /** Absent: none. */
  headers?: Header[];
}

/** A key-value entry, or a window or session (start, end) of a windowed store; timestamp where the store keeps one. */
export interface StoreEntry {
  key: JsonValue;
  start?: number;
  end?: number;
  value: JsonValue;
  timestamp?: number;
}

export interface StoreRead {
  at: number;
  store: string;
  entries: StoreEntry[];
}

export interface Golden {
  outputs: GoldenOutput[];
  storeReads: StoreRead[];
  /** Final contents of every store the topology named. */
  stores: Record<string, StoreEntry[]>;
}

export interface GoldenFile extends Golden {
  scenario: string;
  recordedWith: string;
}
