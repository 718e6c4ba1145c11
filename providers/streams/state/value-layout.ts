/** How a stored value is laid out: the serialized value, or for timestamped stores an int64 timestamp first. */

import { readTime, TIME_BYTES, writeTime } from "./key-layout";

export interface StoredValue {
  value: Buffer;
  /** -1 for stores that keep no timestamp (Kafka's "no timestamp"). */
  timestamp: number;
}

export interface ValueLayout {
  /** Whether the layout keeps the timestamp (decode gives -1 otherwise). */
  readonly timestamped: boolean;
  encode(value: Buffer, timestamp: number): Buffer;
  decode(stored: Buffer): StoredValue;
}

export const plainValues: ValueLayout = {
  timestamped: false,
  encode: (value) => value,
  decode: (stored) => ({ value: stored, timestamp: -1 }),
};

export const timestampedValues: ValueLayout = {
  timestamped: true,
  encode(value, timestamp) {
    const stored = Buffer.allocUnsafe(TIME_BYTES + value.length);
    writeTime(stored, 0, timestamp);
    value.copy(stored, TIME_BYTES);
    return stored;
  },
  decode: (stored) => ({ value: stored.subarray(TIME_BYTES), timestamp: readTime(stored, 0) }),
};
