/**
 * Kafka Streams' window store iteration (WindowIteration's overloads: one window, a key's windows, several keys'
 * windows, forward and backward) on top of the three walks a window store implements: the built-in stores and the
 * stores over a user's supplier alike.
 */
import type { Windowed } from "../../../kernel/contracts/streams/dsl/windows";
import type { KeyValueIterator, WindowIteration } from "../../../kernel/contracts/streams/stores";

export abstract class WindowIterationOverloads<K, Found> implements WindowIteration<K, Found> {
  fetch(key: K, windowStart: number): Found | undefined;
  fetch(key: K, timeFrom: number, timeTo: number): KeyValueIterator<number, Found>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, Found>;
  fetch(...args: unknown[]): Found | undefined | KeyValueIterator<number, Found> | KeyValueIterator<Windowed<K>, Found> {
    if (args.length === 2) return this.fetchWindow(args[0] as K, args[1] as number);
    if (args.length === 3) return this.startsOf(args[0] as K, args[1] as number, args[2] as number, false);
    return this.windowsOf(args[0] as K | undefined, args[1] as K | undefined, args[2] as number, args[3] as number, false);
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): KeyValueIterator<number, Found>;
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, Found>;
  backwardFetch(...args: unknown[]): KeyValueIterator<number, Found> | KeyValueIterator<Windowed<K>, Found> {
    if (args.length === 3) return this.startsOf(args[0] as K, args[1] as number, args[2] as number, true);
    return this.windowsOf(args[0] as K | undefined, args[1] as K | undefined, args[2] as number, args[3] as number, true);
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, Found> {
    return this.windowsOf(undefined, undefined, timeFrom, timeTo, false);
  }

  backwardFetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, Found> {
    return this.windowsOf(undefined, undefined, timeFrom, timeTo, true);
  }

  all(): KeyValueIterator<Windowed<K>, Found> {
    return this.windowsOf(undefined, undefined, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, false);
  }

  backwardAll(): KeyValueIterator<Windowed<K>, Found> {
    return this.windowsOf(undefined, undefined, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, true);
  }

  /** The key's window that starts at `windowStart`. */
  protected abstract fetchWindow(key: K, windowStart: number): Found | undefined;

  /** The key's windows with a start in [timeFrom, timeTo], by start (or reversed), each as its start and value. */
  protected abstract startsOf(key: K, timeFrom: number, timeTo: number, backward: boolean): KeyValueIterator<number, Found>;

  /** The windows of keys in [keyFrom, keyTo] (an omitted bound is open) with a start in [timeFrom, timeTo]. */
  protected abstract windowsOf(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number, backward: boolean): KeyValueIterator<Windowed<K>, Found>;
}
