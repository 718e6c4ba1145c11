import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as assert from "uvu/assert";
import type { ReadOnlyKeyValueStore } from "../../../../kernel/contracts/streams/stores";
import { stateSuite, stringSerde } from "./state-fixture";

// Figures are printed only on request (SLUICE_FIGURES=1): tests never assert on time.
const report = (line: string) => {
  if (process.env.SLUICE_FIGURES) process.stdout.write(`  [figures] ${line}\n`);
};

function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

const { test, dir } = stateSuite("bulk state");

const ENTRIES = 100_000;
const MiB = 1024 * 1024;

test("100,000 writes commit in one batch, and all() streams them back with bounded memory", async () => {
  const state = await dir.open([{ name: "bulk", type: "key_value", keySerde: stringSerde, valueSerde: stringSerde }]);
  const bulk = state.keyValueStore<string, string>("bulk");
  const padding = "v".repeat(200);

  const writing = performance.now();
  for (let i = 0; i < ENTRIES; i++) bulk.put(`key-${String(i).padStart(6, "0")}`, `${padding}${i}`);
  const committing = performance.now();
  assert.is(state.drainChangelog().length, ENTRIES);
  await state.commit({ inputPositions: { "bulk:0": String(ENTRIES) } });
  const committed = performance.now();
  report(`${ENTRIES} puts: ${Math.round(ENTRIES / ((committing - writing) / 1000))} records/s into the cache`);
  report(`one commit of ${ENTRIES}: ${Math.round(committed - committing)} ms, ${Math.round(ENTRIES / ((committed - writing) / 1000))} records/s put + commit`);

  const store = state.readOnly("bulk").store as ReadOnlyKeyValueStore<string, string>;
  collectGarbage();
  const baseline = process.memoryUsage().heapUsed;
  let growth = 0;
  let seen = 0;
  let previous = "";
  const streaming = performance.now();
  for await (const { key, value } of store.all()) {
    assert.ok(key > previous, "keys in order");
    previous = key;
    if (!value.startsWith(padding)) assert.unreachable(`value of ${key}`);
    if (++seen % 10_000 === 0) {
      collectGarbage();
      growth = Math.max(growth, process.memoryUsage().heapUsed - baseline);
    }
  }
  report(`all() over ${seen}: ${Math.round(seen / ((performance.now() - streaming) / 1000))} entries/s, live heap growth at most ${(growth / MiB).toFixed(1)} MiB`);
  assert.is(seen, ENTRIES);
  assert.ok(growth < 8 * MiB, `live heap grew by ${(growth / MiB).toFixed(1)} MiB while streaming`);
  assert.is(await store.approximateNumEntries(), ENTRIES);
});

test.run();
