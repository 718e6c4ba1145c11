/** Processor-facing session store: serdes over WindowedBytes with (end, start) suffixes. */

import type { Header } from "../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { KeyValue, KeyValueIterator, SessionStore, SessionWindow, WindowedEntry } from "../../../kernel/contracts/streams/stores";
import { sessionSuffixLayout } from "./suffix-layouts";
import type { WindowedBytes, WindowedEntryBytes } from "./windowed-bytes";
import type { ValueView } from "./value-views";
import type { Windowed } from "../../../kernel/contracts/streams/dsl/windows";
import { flatIndexedIterator, listIterator } from "./key-value-iterator";

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

  /**
   * See WindowedBytes.forwardOnFlush: the listener gets the session's key (key, windowStart, windowEnd) and value
   * deserialized, with the session's end as timestamp (as Kafka Streams' session aggregations forward them).
   */
  forwardOnFlush(listener: (key: Windowed<K>, value: V | null, timestamp: number, headers: readonly Header[] | undefined, oldValue: V | null) => void, withOldValues = false): boolean {
    const deserialize = (value: Buffer | null) => (value === null ? null : this.valueSerde.deserialize(value));
    return this.bytes.forwardOnFlush((key, suffix, value, _timestamp, headers, oldValue) => {
      const { start, end } = sessionSuffixLayout.bounds(suffix);
      listener({ key: this.keySerde.deserialize(key), windowStart: start, windowEnd: end }, deserialize(value), end, headers, deserialize(oldValue));
    }, withOldValues);
  }

  fetchSession(key: K, sessionStart: number, sessionEnd: number): V | undefined {
    const stored = this.bytes.read(this.keySerde.serialize(key), sessionSuffixLayout.encode(sessionStart, sessionEnd));
    return stored === undefined ? undefined : this.view.found(stored);
  }

  findSessions(key: K, earliestSessionEnd: number, latestSessionStart: number): WindowedEntry<K, V>[];
  findSessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  findSessions(...args: unknown[]): WindowedEntry<K, V>[] | KeyValueIterator<Windowed<K>, V> {
    if (args.length === 3) {
      const key = args[0] as K;
      return this.listed(this.keySerde.serialize(key), args[1] as number, args[2] as number).map((found) => this.view.entry(key, sessionSuffixLayout.bounds(found.suffix), found.stored));
    }
    return this.walk(args[0] as K | undefined, args[1] as K | undefined, args[2] as number, args[3] as number, false);
  }

  backwardFindSessions(key: K, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  backwardFindSessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  backwardFindSessions(...args: unknown[]): KeyValueIterator<Windowed<K>, V> {
    if (args.length === 3) return this.sessionsOf(args[0] as K, args[1] as number, args[2] as number, true);
    return this.walk(args[0] as K | undefined, args[1] as K | undefined, args[2] as number, args[3] as number, true);
  }

  fetch(key: K): KeyValueIterator<Windowed<K>, V>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, V>;
  fetch(...args: unknown[]): KeyValueIterator<Windowed<K>, V> {
    if (args.length === 1) return this.sessionsOf(args[0] as K, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, false);
    return this.walk(args[0] as K | undefined, args[1] as K | undefined, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, false);
  }

  backwardFetch(key: K): KeyValueIterator<Windowed<K>, V>;
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, V>;
  backwardFetch(...args: unknown[]): KeyValueIterator<Windowed<K>, V> {
    if (args.length === 1) return this.sessionsOf(args[0] as K, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, true);
    return this.walk(args[0] as K | undefined, args[1] as K | undefined, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, true);
  }

  /** The key's sessions that end at or after `earliestSessionEnd` and start at or before `latestSessionStart`, by end then start (or reversed). */
  private listed(key: Buffer, earliestSessionEnd: number, latestSessionStart: number, reverse = false): WindowedEntryBytes[] {
    const overlaps = (suffix: Buffer) => {
      const { start, end } = sessionSuffixLayout.bounds(suffix);
      return end >= earliestSessionEnd && start <= latestSessionStart;
    };
    const found = this.bytes.list(key, overlaps);
    return reverse ? found.reverse() : found;
  }

  private entriesOf(key: K, keyBytes: Buffer, earliestSessionEnd: number, latestSessionStart: number, reverse: boolean): KeyValue<Windowed<K>, V>[] {
    return this.listed(keyBytes, earliestSessionEnd, latestSessionStart, reverse).map(({ suffix, stored }) => {
      const { start, end } = sessionSuffixLayout.bounds(suffix);
      return { key: { key, windowStart: start, windowEnd: end }, value: this.view.found(stored) };
    });
  }

  private sessionsOf(key: K, earliestSessionEnd: number, latestSessionStart: number, reverse: boolean): KeyValueIterator<Windowed<K>, V> {
    return listIterator(this.entriesOf(key, this.keySerde.serialize(key), earliestSessionEnd, latestSessionStart, reverse));
  }

  private walk(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEnd: number, latestSessionStart: number, reverse: boolean): KeyValueIterator<Windowed<K>, V> {
    const bound = (key: K | undefined) => (key === undefined || key === null ? undefined : this.keySerde.serialize(key));
    return flatIndexedIterator(this.bytes.keyIds(bound(keyFrom), bound(keyTo), reverse), (id) => {
      const keyBytes = Buffer.from(id, "latin1");
      return this.entriesOf(this.keySerde.deserialize(keyBytes), keyBytes, earliestSessionEnd, latestSessionStart, reverse);
    });
  }
}
