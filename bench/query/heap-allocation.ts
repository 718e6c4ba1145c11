/**
 * What this process's V8 heap allocates, a figure steadier than latency on a machine whose speed drifts: the
 * heap grows by every allocation between two collections, so the growth up to each GC (from GCProfiler's
 * statistics around it) plus the growth since the last one is what was allocated.
 */
import v8 from "node:v8";
import vm from "node:vm";

export async function allocatedDuring<T>(run: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  const profiler = new v8.GCProfiler();
  let used = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  const result = await run();
  const end = v8.getHeapStatistics().used_heap_size;
  let bytes = 0;
  for (const gc of profiler.stop().statistics) {
    bytes += gc.beforeGC.heapStatistics.usedHeapSize - used;
    used = gc.afterGC.heapStatistics.usedHeapSize;
  }
  return { result, bytes: bytes + end - used };
}

/** A full collection now; reached through V8's flag, as the benches run without --expose-gc. */
export function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}
