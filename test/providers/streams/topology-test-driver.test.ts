import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ReadOnlyKeyValueStore, ReadOnlySessionStore, ReadOnlyWindowStore, ReadOnlyTimestampedWindowStore, KeyValueStore } from "../../../kernel/contracts/streams/stores";
import type { ValueAndTimestamp } from "../../../kernel/contracts/streams/stores";
import { TopologyTestDriver, type StreamsBuilder } from "../../../providers/streams";

const test = suite("TopologyTestDriver: DSL operators");

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

test("stateless operators transform, filter, branch and merge records", async () => {
  const seen: string[] = [];
  const driver = await TopologyTestDriver.create((builder) => {
    const lines = builder.stream<string, string>("in");
    const words = lines.flatMapValues((line) => line.split(" ")).filter((_, word) => word.length > 0);
    const [short, long] = words.branch((_, word) => word.length <= 3, () => true);
    short.mapValues((word) => word.toUpperCase()).to("short");
    long.filterNot((_, word) => word.startsWith("x")).map((_, word) => ({ key: word, value: word.length })).to("long", { valueSerde: "int" });
    words.selectKey((_, word) => word[0]).peek((key) => seen.push(key)).merge(lines.flatMap((key, line) => [{ key: `${key}!`, value: line }])).to("merged");
    words.foreach((key, word) => seen.push(`${key}:${word}`));
  });
  await driver.pipeInput("in", [{ key: "k", value: "a quick xylophone" }]);
  assert.equal(driver.readOutput("short").map((r) => r.value), ["A"]);
  assert.equal(driver.readOutput("long", { value: "int" }).map((r) => [r.key, r.value]), [["quick", 5]]);
  assert.equal(driver.readOutput("merged").map((r) => [r.key, r.value]), [["a", "a"], ["q", "quick"], ["x", "xylophone"], ["k!", "a quick xylophone"]]);
  assert.equal(seen, ["a", "k:a", "q", "k:quick", "x", "k:xylophone"]);
  await driver.close();
});

test("groupBy repartitions and counts into a timestamped key_value store, emitting every update", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder
      .stream<string, string>("words")
      .flatMapValues((line) => line.toLowerCase().split(/\W+/).filter(Boolean))
      .groupBy((_, word) => word)
      .count({ storeName: "counts" })
      .toStream()
      .to("word-counts", { valueSerde: "long" });
  }, { partitions: 2 });
  await driver.pipeInput("words", [{ key: null as unknown as string, value: "Kafka streams kafka" }, { key: "x", value: "streams" }]);
  const updates = driver.readOutput<string, number>("word-counts");
  assert.equal(updates.filter((r) => r.key === "kafka").map((r) => r.value), [1, 2]);
  assert.equal(updates.filter((r) => r.key === "streams").map((r) => r.value), [1, 2]);
  const totals = new Map<string, number>();
  for (const partition of [0, 1]) {
    const store = driver.store("counts", partition);
    assert.is(store.type, "timestamped_key_value", "an aggregation keeps timestamps unless materialized otherwise");
    for (const { key, value } of await collect((store.store as ReadOnlyKeyValueStore<string, ValueAndTimestamp<number>>).all())) totals.set(key, value.value);
  }
  assert.equal(Object.fromEntries(totals), { kafka: 2, streams: 2 });
  await driver.close();
});

test("reduce and aggregate keep per-key results, plain when asked", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    const grouped = builder.stream<string, string>("in", { valueSerde: "json" }).groupByKey();
    grouped.reduce((a, b) => `${a}+${b}`, { storeName: "joined", valueSerde: "string", storeType: "key_value" });
    builder
      .stream<string, number>("nums", { valueSerde: "long" })
      .groupByKey()
      .aggregate(() => 0, (_k, v, sum: number) => sum + v, { storeName: "sums", storeType: "timestamped_key_value", valueSerde: "long" });
  });
  await driver.pipeInput("in", [{ key: "a", value: "x" }, { key: "a", value: "y" }, { key: "b", value: "z" }]);
  await driver.pipeInput("nums", [{ key: "n", value: 2, timestamp: 10 }, { key: "n", value: 5, timestamp: 20 }]);
  const joined = driver.store("joined").store as ReadOnlyKeyValueStore<string, string>;
  assert.is(await joined.get("a"), "x+y");
  assert.is(await joined.get("b"), "z");
  const sums = driver.store("sums");
  assert.is(sums.type, "timestamped_key_value");
  assert.equal(await (sums.store as ReadOnlyKeyValueStore<string, ValueAndTimestamp<number>>).get("n"), { value: 7, timestamp: 20 });
  await driver.close();
});

test("tumbling and hopping windows count by event time and drop records past the grace period", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    const grouped = builder.stream<string, string>("views").groupByKey();
    // Kept an hour: by default a window store keeps only size + grace behind stream time, as in Kafka Streams.
    const retentionMs = 3_600_000;
    grouped.windowedBy({ type: "tumbling", sizeMs: 60_000 }).count({ storeName: "per-minute", retentionMs }).toStream().to("per-minute-out", { valueSerde: "long" });
    grouped.windowedBy({ type: "hopping", sizeMs: 10_000, advanceMs: 5_000 }).count({ storeName: "hopping", storeType: "window", retentionMs });
  });
  await driver.pipeInput("views", [
    { key: "home", value: "u1", timestamp: 1_000 },
    { key: "home", value: "u2", timestamp: 59_000 },
    { key: "home", value: "u3", timestamp: 61_000 },
    { key: "home", value: "late", timestamp: 2_000 },
  ]);
  const minutes = driver.store("per-minute").store as ReadOnlyTimestampedWindowStore<string, number>;
  assert.equal(await minutes.fetch("home", 0), { value: 2, timestamp: 59_000 }, "a window keeps the largest timestamp of its records");
  assert.equal(await minutes.fetch("home", 60_000), { value: 1, timestamp: 61_000 });
  const out = driver.readOutput<{ key: string; windowStart: number; windowEnd: number }, number>("per-minute-out");
  assert.equal(out.map((r) => [r.key.windowStart, r.value]), [[0, 1], [0, 2], [60_000, 1]]);
  const hopping = driver.store("hopping");
  assert.is(hopping.type, "window", "a plain window store when materialized so");
  const windows = await collect((hopping.store as ReadOnlyWindowStore<string, number>).fetchTimeRange("home", 0, 100_000));
  assert.equal(windows.map((w) => [w.windowStart, w.value]), [[0, 1], [50_000, 1], [55_000, 2], [60_000, 1]]);
  await driver.close();
});

test("session windows merge records closer than the gap", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder.stream<string, string>("clicks").groupByKey().windowedBy({ type: "session", gapMs: 300_000 }).count({ storeName: "user-sessions", retentionMs: 3_600_000 });
  });
  await driver.pipeInput("clicks", [
    { key: "ann", value: "a", timestamp: 0 },
    { key: "ann", value: "b", timestamp: 200_000 },
    { key: "ann", value: "c", timestamp: 1_000_000 },
    { key: "bob", value: "d", timestamp: 100_000 },
  ]);
  const sessions = driver.store("user-sessions");
  assert.is(sessions.type, "session");
  const ann = await collect((sessions.store as ReadOnlySessionStore<string, number>).fetch("ann"));
  assert.equal(ann.map((s) => [s.windowStart, s.windowEnd, s.value]), [[0, 200_000, 2], [1_000_000, 1_000_000, 1]]);
  await driver.close();
});

test("stream-table joins look the key up in the table", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    const users = builder.table<string, string>("users", {}, { storeName: "users-store" });
    const clicks = builder.stream<string, string>("clicks");
    clicks.join(users, (page, name) => `${name}@${page}`).to("joined");
    clicks.leftJoin(users, (page, name) => `${name ?? "?"}@${page}`).to("left-joined");
  });
  await driver.pipeInput("users", [{ key: "u1", value: "Ann" }]);
  await driver.pipeInput("clicks", [{ key: "u1", value: "home" }, { key: "u2", value: "faq" }]);
  assert.equal(driver.readOutput("joined").map((r) => r.value), ["Ann@home"]);
  assert.equal(driver.readOutput("left-joined").map((r) => r.value), ["Ann@home", "?@faq"]);
  await driver.close();
});

test("processors use stores, punctuate on stream and wall-clock time, and send events", async () => {
  const driver = await TopologyTestDriver.create(
    (builder) => {
      builder.addStateStore({ name: "last", type: "key_value" });
      builder
        .stream<string, string>("in")
        .process<string, string>(() => {
          let store!: KeyValueStore<string, string>;
          return {
            init(context) {
              store = context.getStateStore<KeyValueStore<string, string>>("last");
              context.schedule(1_000, "stream_time", (time) => context.forward({ key: "stream", value: String(time), timestamp: time }));
              context.schedule(5_000, "wall_clock_time", (time) => context.forward({ key: "wall", value: String(time), timestamp: time }));
            },
            process(record) {
              store.put(record.key, record.value);
            },
          };
        }, ["last"])
        .toEventStream("ticks");
    },
    { startTimeMs: 0 },
  );
  await driver.pipeInput("in", [{ key: "a", value: "1", timestamp: 100 }, { key: "b", value: "2", timestamp: 1_200 }]);
  await driver.advanceWallClock(5_000);
  // Stream time punctuates as soon as there is data (100), then at the multiples of its interval (1,000).
  assert.equal(driver.readEvents("ticks").map((e) => [e.key, e.value]), [["stream", "100"], ["stream", "1200"], ["wall", "5000"]]);
  assert.is(await (driver.store("last").store as ReadOnlyKeyValueStore<string, string>).get("b"), "2");
  await driver.close();
});

test("a bad record fails the task under 'fail' and is skipped under 'log_and_continue'", async () => {
  const topology = (builder: StreamsBuilder) => {
    builder.stream<string, number>("in", { valueSerde: "long" }).mapValues((v) => v * 2).to("out", { valueSerde: "long" });
  };
  const failing = await TopologyTestDriver.create(topology);
  const failure = await failing.pipeInput("in", [{ key: "a", value: "oops" }], { value: "string" }).then(() => undefined, (error: Error) => error);
  assert.match(String(failure), /deserialization/);
  await failing.close();
  const lenient = await TopologyTestDriver.create(topology, { config: { "processing.error.policy": "log_and_continue" } });
  await lenient.pipeInput("in", [{ key: "a", value: "oops" }], { value: "string" });
  await lenient.pipeInput("in", [{ key: "b", value: 4 }]);
  assert.equal(lenient.readOutput("out").map((r) => r.value), [8]);
  await lenient.close();
});

test.run();
