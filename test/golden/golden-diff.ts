/**
 * Compares what Sluice did with a golden, record by record, and names each difference by its place (output
 * index, the action that caused it, the topic) and its field.
 */
import type { Golden, GoldenOutput, StoreEntry } from "./golden-file";
import type { JsonValue } from "./scenario-script";

/** Differences reported per scenario before the rest is summed up. */
const SHOWN = 6;

export interface DiffOptions {
  /**
   * Several partitions: only the order of each key's records is kept by Kafka, so records of one action and
   * topic are compared in key order, each key's own order unchanged.
   */
  perKeyOrder: boolean;
}

export function goldenDiff(expected: Golden, actual: Golden, options: DiffOptions): string[] {
  const found: string[] = [];
  diffOutputs(normalized(expected.outputs, options), normalized(actual.outputs, options), found);
  diffReads(expected, actual, found);
  for (const [store, entries] of Object.entries(expected.stores)) {
    diffEntries(`stores['${store}']`, entries, actual.stores[store] ?? [], found);
  }
  return found.length <= SHOWN ? found : [...found.slice(0, SHOWN), `... and ${found.length - SHOWN} more differences`];
}

const OUTPUT_FIELDS = ["at", "topic", "key", "keyBytes", "value", "valueBytes", "timestamp", "headers"] as const;

function diffOutputs(expected: GoldenOutput[], actual: GoldenOutput[], found: string[]): void {
  const common = Math.min(expected.length, actual.length);
  for (let i = 0; i < common; i++) {
    const where = `outputs[${i}] (at ${expected[i].at}, topic '${expected[i].topic}')`;
    for (const field of OUTPUT_FIELDS) {
      if (!sameJson(expected[i][field] ?? null, actual[i][field] ?? null)) {
        found.push(`${where} ${field}: expected ${show(expected[i][field])}, got ${show(actual[i][field])}`);
      }
    }
  }
  for (let i = common; i < expected.length; i++) found.push(`outputs[${i}] missing: expected ${show(expected[i])}`);
  for (let i = common; i < actual.length; i++) found.push(`outputs[${i}] unexpected: got ${show(actual[i])}`);
}

function diffReads(expected: Golden, actual: Golden, found: string[]): void {
  expected.storeReads.forEach((read, i) => {
    const other = actual.storeReads[i];
    if (other === undefined) found.push(`storeReads[${i}] (at ${read.at}, store '${read.store}') missing`);
    else diffEntries(`storeReads[${i}] (at ${read.at}, store '${read.store}')`, read.entries, other.entries, found);
  });
}

function diffEntries(where: string, expected: StoreEntry[], actual: StoreEntry[], found: string[]): void {
  const [want, got] = [sortedEntries(expected), sortedEntries(actual)];
  const common = Math.min(want.length, got.length);
  for (let i = 0; i < common; i++) {
    for (const field of ["key", "start", "end", "value", "timestamp"] as const) {
      if (!sameJson(want[i][field] ?? null, got[i][field] ?? null)) {
        found.push(`${where} entry ${i} (key ${show(want[i].key)}) ${field}: expected ${show(want[i][field])}, got ${show(got[i][field])}`);
      }
    }
  }
  for (let i = common; i < want.length; i++) found.push(`${where} entry missing: expected ${show(want[i])}`);
  for (let i = common; i < got.length; i++) found.push(`${where} entry unexpected: got ${show(got[i])}`);
}

function normalized(outputs: GoldenOutput[], options: DiffOptions): GoldenOutput[] {
  const withHeaders = outputs.map((output) => ({ ...output, headers: output.headers ?? [] }));
  if (!options.perKeyOrder) return withHeaders;
  // Array.prototype.sort is stable: each key's records keep their order.
  return withHeaders.sort((a, b) => a.at - b.at || compareText(a.topic, b.topic) || compareText(JSON.stringify(a.key), JSON.stringify(b.key)));
}

/** A store's entries in one order whatever the store's own: by key, then window. */
function sortedEntries(entries: StoreEntry[]): StoreEntry[] {
  return [...entries].sort((a, b) => compareText(JSON.stringify(a.key), JSON.stringify(b.key)) || (a.start ?? 0) - (b.start ?? 0) || (a.end ?? 0) - (b.end ?? 0));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => sameJson((a as Record<string, JsonValue>)[key], (b as Record<string, JsonValue>)[key]));
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}
