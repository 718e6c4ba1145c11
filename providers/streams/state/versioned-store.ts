/** Processor-facing and query-facing versioned_key_value stores: serdes over VersionedBytes. */

import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { ReadOnlyVersionedKeyValueStore, VersionedKeyValueStore, VersionedRecord } from "../../../kernel/contracts/streams/stores";
import type { Version, VersionedBytes } from "./versioned-bytes";
import type { TaskDatabase } from "./write-cache";

function recordOf<V>(version: Version | undefined, valueSerde: Serde<V>): VersionedRecord<V> | undefined {
  if (version === undefined || version.value === null) return undefined;
  const record: VersionedRecord<V> = { value: valueSerde.deserialize(version.value), timestamp: version.validFrom };
  if (version.validTo !== undefined) record.validTo = version.validTo;
  return record;
}

export class LevelVersionedKeyValueStore<K, V> implements VersionedKeyValueStore<K, V> {
  readonly type = "versioned_key_value";

  constructor(
    private readonly bytes: VersionedBytes,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {}

  get name(): string {
    return this.bytes.name;
  }

  put(key: K, value: V | null, timestamp: number): number {
    return this.bytes.put(this.keySerde.serialize(key), value === null ? null : this.valueSerde.serialize(value), timestamp);
  }

  delete(key: K, timestamp: number): VersionedRecord<V> | undefined {
    const keyBytes = this.keySerde.serialize(key);
    if (timestamp < this.bytes.cutoff(this.bytes.streamTime.live)) return undefined;
    const existing = recordOf(this.bytes.read(keyBytes, timestamp), this.valueSerde);
    this.bytes.put(keyBytes, null, timestamp);
    return existing;
  }

  get(key: K, asOfTimestamp?: number): VersionedRecord<V> | undefined {
    return recordOf(this.bytes.read(this.keySerde.serialize(key), asOfTimestamp), this.valueSerde);
  }
}

/** Reads what the last commit wrote, against the stream time committed with it. */
export class LevelReadOnlyVersionedKeyValueStore<K, V> implements ReadOnlyVersionedKeyValueStore<K, V> {
  constructor(
    private readonly db: TaskDatabase,
    private readonly bytes: VersionedBytes,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {}

  async get(key: K, asOfTimestamp?: number): Promise<VersionedRecord<V> | undefined> {
    const version = this.bytes.versionAt((rowKey) => this.db.getSync(rowKey), this.keySerde.serialize(key), asOfTimestamp, this.bytes.streamTime.committed);
    return recordOf(version, this.valueSerde);
  }

  async approximateNumEntries(): Promise<number> {
    return this.bytes.counters.entries;
  }
}
