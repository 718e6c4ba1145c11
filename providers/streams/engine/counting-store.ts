/** Wraps a processor-facing store so that its reads and writes are counted (store get-rate / put-rate). */
const READS = ["get", "fetch", "fetchRange", "fetchSession", "findSessions", "backwardFetch", "backwardFindSessions", "fetchAll", "backwardFetchAll"] as const;
const WRITES = ["put", "putIfAbsent", "delete", "remove"] as const;

/** The most arguments a processor-facing store method takes (a timestamped window store's put). */
type Method = (a?: unknown, b?: unknown, c?: unknown, d?: unknown) => unknown;

export function countingStore<S extends object>(store: S, onRead: () => void, onWrite: () => void): S {
  const wrapper: Record<string, unknown> = Object.create(store);
  const methods = store as unknown as Record<string, Method>;
  // Fixed arity rather than rest arguments and apply: these run for every get and put. The count of arguments is
  // kept, since it tells Kafka Streams' overloads apart (fetch(key, start), fetch(key, from, to), fetch(key) …).
  const counted = (method: Method, count: () => void): Method =>
    function (a, b, c, d) {
      count();
      switch (arguments.length) {
        case 0:
          return method.call(store);
        case 1:
          return method.call(store, a);
        case 2:
          return method.call(store, a, b);
        case 3:
          return method.call(store, a, b, c);
        default:
          return method.call(store, a, b, c, d);
      }
    };
  for (const name of READS) if (typeof methods[name] === "function") wrapper[name] = counted(methods[name], onRead);
  for (const name of WRITES) if (typeof methods[name] === "function") wrapper[name] = counted(methods[name], onWrite);
  return wrapper as S;
}
