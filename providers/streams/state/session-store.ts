/** Processor-facing session store: serdes over WindowedBytes with (end, start) suffixes. */

import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { SessionStore, SessionWindow, WindowedEntry } from "../../../kernel/contracts/streams/stores";
import { sessionSuffixLayout } from "./suffix-layouts";
import type { WindowedBytes } from "./windowed-bytes";
import type { ValueView } from "./value-views";

export class LevelSessionStore<K, V> implements SessionStore<K, V> {
  readonly type = "session";

  constructor(
    private readonly bytes: WindowedBytes,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    private readonly view: ValueView<K, V, WindowedEntry<K, V>>,
    private readonly currentTimestamp: () => number,
  ) {}

  get name(): string {
    return this.bytes.name;
  }

  put(session: SessionWindow<K>, value: V | null): void {
    const serialized = value === null ? null : this.valueSerde.serialize(value);
    this.bytes.write(this.keySerde.serialize(session.key), sessionSuffixLayout.encode(session.start, session.end), serialized, this.currentTimestamp());
  }

  remove(session: SessionWindow<K>): void {
    this.put(session, null);
  }

  fetchSession(key: K, sessionStart: number, sessionEnd: number): V | undefined {
    const stored = this.bytes.read(this.keySerde.serialize(key), sessionSuffixLayout.encode(sessionStart, sessionEnd));
    return stored === undefined ? undefined : this.view.found(stored);
  }

  findSessions(key: K, earliestSessionEnd: number, latestSessionStart: number): WindowedEntry<K, V>[] {
    const overlaps = (suffix: Buffer) => {
      const { start, end } = sessionSuffixLayout.bounds(suffix);
      return end >= earliestSessionEnd && start <= latestSessionStart;
    };
    return this.bytes
      .list(this.keySerde.serialize(key), overlaps)
      .map((found) => this.view.entry(key, sessionSuffixLayout.bounds(found.suffix), found.stored));
  }
}
