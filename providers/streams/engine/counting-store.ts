/** Wraps a processor-facing store so that its reads and writes are counted (store get-rate / put-rate). */
const READS = ["get", "fetch", "fetchRange", "fetchSession", "findSessions"] as const;
const WRITES = ["put", "putIfAbsent", "delete", "remove"] as const;

/** The most arguments a processor-facing store method takes (a timestamped window store's put). */
type Method = (a?: unknown, b?: unknown, c?: unknown, d?: unknown) => unknown;

export function countingStore<S extends object>(store: S, onRead: () => void, onWrite: () => void): S {
  const wrapper: Record<string, unknown> = Object.create(store);
  const methods = store as unknown as Record<string, Method>;
  // Fixed arity rather than rest arguments and apply: these run for every get and put.
  const counted = (method: Method, count: () => void): Method => (a, b, c, d) => {
    count();
    return method.call(store, a, b, c, d);
  };
  for (const name of READS) if (typeof methods[name] === "function") wrapper[name] = counted(methods[name], onRead);
  for (const name of WRITES) if (typeof methods[name] === "function") wrapper[name] = counted(methods[name], onWrite);
  return wrapper as S;
}
