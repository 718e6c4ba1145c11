/**
 * A store of a worker-hosted thread's task, for queries on the main thread: each method is a call to the worker,
 * which runs it on the real store; an iteration comes back in pages, the next asked for as the reader goes on (and
 * the worker's iterator closed when the reader stops early). Answers are revived (see cloned-values), so that a
 * query's response is the one the same store on the main event loop gives.
 */
import type { ReadOnlyStore, StoreType } from "../../../../../kernel/contracts/streams/stores";
import { reviveBuffers } from "./cloned-values";
import type { Page, StoreCall } from "./thread-messages";

/** What the proxy asks the worker. */
export interface StoreCalls {
  store(call: StoreCall): Promise<unknown>;
  next(cursor: number): Promise<Page>;
  close(cursor: number): Promise<void>;
}

/** The methods of each store type that answer an iteration; the others answer a promise. */
const ITERATIONS: Record<StoreType, readonly string[]> = {
  key_value: ["range", "all"],
  timestamped_key_value: ["range", "all"],
  versioned_key_value: [],
  window: ["fetchTimeRange", "fetchKeyRange", "fetchAll"],
  timestamped_window: ["fetchTimeRange", "fetchKeyRange", "fetchAll"],
  session: ["fetch", "fetchKeyRange"],
};
const PROMISES: Record<StoreType, readonly string[]> = {
  key_value: ["get", "approximateNumEntries"],
  timestamped_key_value: ["get", "approximateNumEntries"],
  versioned_key_value: ["get", "approximateNumEntries"],
  window: ["fetch", "approximateNumEntries"],
  timestamped_window: ["fetch", "approximateNumEntries"],
  session: ["approximateNumEntries"],
};

export function remoteStore(type: StoreType, where: Omit<StoreCall, "method" | "args">, calls: StoreCalls): ReadOnlyStore {
  const store: Record<string, (...args: unknown[]) => unknown> = {};
  for (const method of PROMISES[type]) store[method] = async (...args) => reviveBuffers(await calls.store({ ...where, method, args }));
  for (const method of ITERATIONS[type]) store[method] = (...args) => pages(calls, () => calls.store({ ...where, method, args }) as Promise<Page>);
  return { type, store } as unknown as ReadOnlyStore;
}

async function* pages(calls: StoreCalls, first: () => Promise<Page>): AsyncIterable<unknown> {
  let page = await first();
  try {
    for (;;) {
      for (const entry of page.entries) yield reviveBuffers(entry);
      if (page.cursor === undefined) return;
      page = await calls.next(page.cursor);
    }
  } finally {
    if (page.cursor !== undefined) await calls.close(page.cursor);
  }
}
