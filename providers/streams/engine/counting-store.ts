/** Wraps a processor-facing store so that its reads and writes are counted (store get-rate / put-rate). */
const READS = ["get", "fetch", "fetchRange", "fetchSession", "findSessions"] as const;
const WRITES = ["put", "putIfAbsent", "delete", "remove"] as const;

export function countingStore<S extends object>(store: S, onRead: () => void, onWrite: () => void): S {
  const wrapper: Record<string, unknown> = Object.create(store);
  const methods = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of READS) {
    if (typeof methods[name] === "function") {
      wrapper[name] = (...args: unknown[]) => {
        onRead();
        return methods[name].apply(store, args);
      };
    }
  }
  for (const name of WRITES) {
    if (typeof methods[name] === "function") {
      wrapper[name] = (...args: unknown[]) => {
        onWrite();
        return methods[name].apply(store, args);
      };
    }
  }
  return wrapper as S;
}
