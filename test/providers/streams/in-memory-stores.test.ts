/**
 * Kafka Streams' in-memory stores on the embedded broker (#35 point 7): nothing of them outlives an assignment, so
 * when the application starts again on the same state directory the store is restored from its changelog (a
 * persistent store there would start from its local state, restoring nothing) and goes on from where it was. Its
 * processor walks a window store as Kafka Streams' processors do (fetch by key and time range, fetchAll).
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { KeyValueStore, WindowStore } from "../../../kernel/contracts/streams/stores";
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { Stores } from "../../../providers/streams/processor/stores";
import type { StreamsRuntime } from "../../../providers/streams";
import { eventually } from "../../helpers/eventually";
import { keyCounter, processorOf } from "../../helpers/processors";
import { countingSupplier } from "../../helpers/counting-store";
import { countingSessionSupplier, countingWindowSupplier } from "../../helpers/counting-windowed-stores";
import { SessionWindows, TimeWindows } from "../../../index";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("in-memory stores on Kafka");
const DAY = 86_400_000;
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

/**
 * Counts each key's records in a key-value store the supplier gives, and keeps each record in a window store of the
 * same kind, writing "<key>=<count> <windows of the key>/<windows of all keys>" to `<id>-out`.
 */
function countingApp(id: string, inMemory: boolean): TopologyProvider {
  return {
    name: id,
    version: "1.0.0",
    config: { "application.id": id, "default.key.serde": "string", "default.value.serde": "string" },
    topology(builder: StreamsBuilder) {
      const supplier = inMemory ? Stores.inMemoryKeyValueStore("counts") : Stores.persistentKeyValueStore("counts");
      const windowSupplier = (inMemory ? Stores.inMemoryWindowStore : Stores.persistentWindowStore)("seen", DAY, 1_000);
      builder.addStateStore(Stores.keyValueStoreBuilder(supplier, "string", "long"));
      builder.addStateStore(Stores.windowStoreBuilder(windowSupplier, "string", "string"));
      builder
        .stream<string, string>(`${id}-in`)
        .process(
          processorOf<string, string, string, string>((record, context) => {
            const store = context.getStateStore<KeyValueStore<string, number>>("counts");
            const seen = context.getStateStore<WindowStore<string, string>>("seen");
            const count = (store.get(record.key) ?? 0) + 1;
            store.put(record.key, count);
            seen.put(record.key, record.value, record.timestamp);
            const ofKey = [...seen.fetch(record.key, 0, DAY)].length;
            const ofAll = [...seen.fetchAll(0, DAY)].length;
            context.forward(record.withValue(`${record.key}=${count} ${ofKey}/${ofAll}`));
          }),
          ["counts", "seen"],
        )
        .to(`${id}-out`);
    },
  };
}

function restoredRecords(runtime: StreamsRuntime, id: string): number {
  const groups = runtime.application(id)!.metrics();
  return groups
    .flatMap((group) => group.metrics)
    .filter((metric) => metric.name === "restore-total")
    .reduce((sum, metric) => sum + Number(metric.value), 0);
}

async function runOnce(id: string, inMemory: boolean, stateDir: string, value: string, timestamp: number, expected: string): Promise<number> {
  const runtime = harness.runtime([countingApp(id, inMemory)], { stateDir });
  await runtime.start();
  const app = runtime.application(id)!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  await harness.producer.send({ topic: `${id}-in`, messages: [{ key: "k", value, timestamp: String(timestamp) }] });
  await harness.readTopic(`${id}-out`, (records) => records.some((record) => record.value?.toString() === expected));
  const restored = restoredRecords(runtime, id);
  await runtime.close(5_000);
  return restored;
}

test("an in-memory store is restored from its changelog when its application starts again on the same state directory", async () => {
  const stateDir = harness.stateDir();
  assert.is(await runOnce("in-memory", true, stateDir, "one", 1_000, "k=1 1/1"), 0, "nothing to restore the first time");
  assert.ok((await runOnce("in-memory", true, stateDir, "two", 5_000, "k=2 2/2")) >= 1, "the in-memory store came back from its changelog");
});

test("a persistent store on the same state directory starts from its local state instead, restoring nothing", async () => {
  const stateDir = harness.stateDir();
  await runOnce("persistent", false, stateDir, "one", 1_000, "k=1 1/1");
  assert.is(await runOnce("persistent", false, stateDir, "two", 5_000, "k=2 2/2"), 0);
});

test("a user's supplied store is likewise got new and restored from its changelog at each start, here on the same state directory", async () => {
  const stateDir = harness.stateDir();
  const supplier = countingSupplier("counts");
  const app: TopologyProvider = {
    name: "supplied",
    version: "1.0.0",
    config: { "application.id": "supplied", "default.key.serde": "string", "default.value.serde": "string" },
    topology(builder: StreamsBuilder) {
      builder.addStateStore(Stores.keyValueStoreBuilder(supplier, "string", "long"));
      builder.stream<string, string>("supplied-in").process(keyCounter("counts"), ["counts"]).to("supplied-out");
    },
  };
  for (const expected of ["k=1", "k=2"]) {
    const runtime = harness.runtime([app], { stateDir });
    await runtime.start();
    await eventually(() => runtime.application("supplied")!.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
    await harness.producer.send({ topic: "supplied-in", messages: [{ key: "k", value: expected }] });
    await harness.readTopic("supplied-out", (records) => records.some((record) => record.value?.toString() === expected));
    await runtime.close(5_000);
  }
  // The first run's store, and any opened while the task's local state was dropped, were closed and not used again.
  const last = supplier.made[supplier.made.length - 1];
  assert.ok(supplier.made.length >= 2, "a new store at each start");
  assert.ok(supplier.made.every((store) => store.calls.close === 1));
  // The last store got the first run's count from its changelog (a put), then the second run's.
  assert.equal(last.entries.get("k"), Buffer.from([0, 0, 0, 0, 0, 0, 0, 2]));
  assert.is(last.calls.put, 2);
});

/**
 * A windowed and a session count kept in a user's window and session suppliers, run twice on one state directory with
 * one record each time: what the second run writes shows what its new stores got back from their changelogs.
 */
async function runSuppliedWindows(id: string, logging: boolean, stateDir: string, timestamp: number, outputs: number): Promise<string[]> {
  const windows = countingWindowSupplier("per-minute", 3_600_000, 60_000);
  const sessions = countingSessionSupplier("visits", 3_600_000);
  const app: TopologyProvider = {
    name: id,
    version: "1.0.0",
    config: { "application.id": id, "default.key.serde": "string", "default.value.serde": "string" },
    topology(builder: StreamsBuilder) {
      const grouped = builder.stream<string, string>(`${id}-in`).groupByKey();
      const asText = (kind: string) => (windowed: { key: string; windowStart: number; windowEnd: number }, count: number | null) => ({
        key: windowed.key,
        value: `${kind} ${windowed.windowStart}-${windowed.windowEnd}=${count}`,
      });
      grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(60_000)).count({ storeName: "per-minute", storeSupplier: windows, logging }).toStream().map(asText("window")).to(`${id}-out`);
      grouped.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(60_000)).count({ storeName: "visits", storeSupplier: sessions, logging }).toStream().map(asText("session")).to(`${id}-out`);
    },
  };
  const runtime = harness.runtime([app], { stateDir });
  try {
    await runtime.start();
    await eventually(() => runtime.application(id)!.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
    await harness.producer.send({ topic: `${id}-in`, messages: [{ key: "k", value: "x", timestamp: String(timestamp) }] });
    const out = await harness.readTopic(`${id}-out`, (records) => records.length >= outputs);
    return out.map((record) => record.value!.toString());
  } finally {
    await runtime.close(5_000);
    assert.ok([...windows.made, ...sessions.made].every((store) => store.calls.close === 1), "each store the run got was closed");
  }
}

test("a user's window and session suppliers behind DSL aggregations are got new and restored from their changelogs at each start", async () => {
  const stateDir = harness.stateDir();
  await runSuppliedWindows("supplied-windows", true, stateDir, 1_000, 2);
  // The window's new count, the first session's tombstone and the merged session.
  const second = await runSuppliedWindows("supplied-windows", true, stateDir, 2_000, 5);
  // The window's count and the session go on from the first run's: the new stores were restored.
  assert.ok(second.includes("window 0-60000=2"), second.join("; "));
  assert.ok(second.includes("session 1000-2000=2"), second.join("; "));
});

test("with logging disabled, a user's window and session stores keep no changelog: a new start finds them empty", async () => {
  const stateDir = harness.stateDir();
  await runSuppliedWindows("unlogged-windows", false, stateDir, 1_000, 2);
  const second = await runSuppliedWindows("unlogged-windows", false, stateDir, 2_000, 4);
  assert.ok(second.includes("window 0-60000=1") && !second.includes("window 0-60000=2"), second.join("; "));
  assert.ok(second.includes("session 2000-2000=1"), second.join("; "));
});

test.run();
