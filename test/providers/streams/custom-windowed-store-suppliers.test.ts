/**
 * A user's own WindowBytesStoreSupplier and SessionBytesStoreSupplier (#35 point 7) behind DSL windowed and session
 * aggregations (Materialized's storeSupplier) and Processor API stores (Stores.windowStoreBuilder /
 * sessionStoreBuilder): the data lives in the user's store, which counts what it is asked; queries read it; the
 * store takes its window size and retention from the supplier, unchecked against the windows, as in Kafka Streams.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ReadOnlySessionStore, ReadOnlyTimestampedWindowStore, SessionStore, WindowStore } from "../../../kernel/contracts/streams/stores";
import { Stores } from "../../../providers/streams/processor/stores";
import { EmitStrategy, JoinWindows, SessionWindows, StreamJoined, TimeWindows, TopologyTestDriver } from "../../../index";
import type { WindowBytesStoreSupplier } from "../../../kernel/contracts/streams/stores";
import { processorOf } from "../../helpers/processors";
import { countingSessionSupplier, countingWindowSupplier } from "../../helpers/counting-windowed-stores";
import { countingSupplier } from "../../helpers/counting-store";
import { buildError } from "./build-error";

const test = suite("custom window and session store suppliers");

async function entries<T>(walk: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const entry of walk) all.push(entry);
  return all;
}

test("a windowed count materialized in a user's window supplier keeps its windows there, drops them by the supplier's retention, and answers queries from it", async () => {
  const supplier = countingWindowSupplier("per-ten", 20, 10);
  const driver = await TopologyTestDriver.create((builder) => {
    builder
      .stream<string, string>("clicks")
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
      .count({ storeName: "per-ten", storeSupplier: supplier })
      .toStream()
      .map((windowed, count) => ({ key: `${windowed.key}@${windowed.windowStart}`, value: count }))
      .to("out", { valueSerde: "long" });
  });
  await driver.pipeInput("clicks", [
    { key: "ann", value: "a", timestamp: 1 },
    { key: "bob", value: "b", timestamp: 3 },
    { key: "ann", value: "c", timestamp: 8 },
    { key: "ann", value: "d", timestamp: 12 },
    { key: "bob", value: "e", timestamp: 31 },
  ]);
  assert.equal(driver.readOutput<string, number>("out", { value: "long" }).map((r) => [r.key, r.value]), [["ann@0", 1], ["bob@0", 1], ["ann@0", 2], ["ann@10", 1], ["bob@30", 1]]);
  const [store] = supplier.made;
  assert.is(store.calls.put, 5);
  assert.ok(store.calls.flush > 0, "told of the commits");
  const perTen = driver.store("per-ten").store as ReadOnlyTimestampedWindowStore<string, number>;
  // Stream time 30, retention 20: the windows that start at or before 10 are gone, whatever the user's store holds.
  assert.is(await perTen.fetch("ann", 0), undefined);
  assert.equal(await perTen.fetch("bob", 30), { value: 1, timestamp: 31 });
  assert.equal(await entries(perTen.fetchAll(0, 100)), [{ key: "bob", windowStart: 30, windowEnd: 40, value: 1, timestamp: 31 }]);
  assert.is(await perTen.approximateNumEntries(), 1);
  await driver.close();
  assert.is(store.calls.close, 1);
});

test("a supplier whose window size differs from the windows' is taken as Kafka Streams takes it: the store's windows end by the supplier's size", async () => {
  const supplier = countingWindowSupplier("counts", 1_000, 25);
  const driver = await TopologyTestDriver.create((builder) => {
    builder.stream<string, string>("in").groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count({ storeName: "counts", storeSupplier: supplier });
  });
  await driver.pipeInput("in", [{ key: "k", value: "x", timestamp: 12 }]);
  const counts = driver.store("counts").store as ReadOnlyTimestampedWindowStore<string, number>;
  assert.equal(await entries(counts.fetchTimeRange("k", 0, 100)), [{ key: "k", windowStart: 10, windowEnd: 35, value: 1, timestamp: 12 }]);
  await driver.close();
});

test("the record cache folds a value's updates of a user's window store into one output and write, unless the store's caching is off", async () => {
  for (const caching of [true, false]) {
    const supplier = countingWindowSupplier("words", 1_000, 10);
    const driver = await TopologyTestDriver.create(
      (builder) => {
        builder
          .stream<string, string>("lines")
          .flatMapValues((line) => line.split(" "))
          .groupByKey()
          .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
          .count({ storeName: "words", storeSupplier: supplier, caching })
          .toStream()
          .map((windowed, count) => ({ key: windowed.key, value: count }))
          .to("out", { valueSerde: "long" });
      },
      { config: { "statestore.cache.max.bytes": 1_000_000 } },
    );
    await driver.pipeInput("lines", [{ key: "a", value: "x x x", timestamp: 1 }]);
    const counts = driver.readOutput<string, number>("out", { value: "long" }).map((r) => r.value);
    assert.equal(counts, caching ? [3] : [1, 2, 3], `caching ${caching}`);
    assert.is(supplier.made[0].calls.put, caching ? 1 : 3, `caching ${caching}`);
    await driver.close();
  }
});

test("emitting on window close reads each closed window's final count from the user's store", async () => {
  const supplier = countingWindowSupplier("closing", 1_000, 10);
  const driver = await TopologyTestDriver.create((builder) => {
    builder
      .stream<string, string>("clicks")
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .emitStrategy(EmitStrategy.onWindowClose())
      .count({ storeName: "closing", storeSupplier: supplier })
      .toStream()
      .map((windowed, count) => ({ key: `${windowed.key}@${windowed.windowStart}`, value: count }))
      .to("out", { valueSerde: "long" });
  });
  await driver.pipeInput("clicks", [
    { key: "a", value: "x", timestamp: 1 },
    { key: "a", value: "x", timestamp: 5 },
    { key: "b", value: "x", timestamp: 12 },
    { key: "a", value: "x", timestamp: 25 },
  ]);
  assert.equal(driver.readOutput<string, number>("out", { value: "long" }).map((r) => [r.key, r.value]), [["a@0", 2], ["b@10", 1]]);
  assert.ok(supplier.made[0].calls.fetch > 0, "the closed windows were read from the user's store");
  await driver.close();
});

test("a session count materialized in a user's session supplier merges sessions in it and answers session fetches", async () => {
  const supplier = countingSessionSupplier("sessions", 100);
  const driver = await TopologyTestDriver.create((builder) => {
    builder
      .stream<string, string>("clicks")
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 0))
      .count({ storeName: "sessions", storeSupplier: supplier })
      .toStream()
      .map((windowed, count) => ({ key: `${windowed.key}@${windowed.windowStart}-${windowed.windowEnd}`, value: count === null ? "gone" : String(count) }))
      .to("out");
  });
  await driver.pipeInput("clicks", [
    { key: "ann", value: "a", timestamp: 1 },
    { key: "ann", value: "b", timestamp: 30 },
    { key: "ann", value: "c", timestamp: 25 },
    { key: "bob", value: "d", timestamp: 26 },
  ]);
  assert.equal(driver.readOutput("out").map((r) => [r.key, r.value]), [
    ["ann@1-1", "1"],
    ["ann@30-30", "1"],
    ["ann@30-30", "gone"],
    ["ann@25-30", "2"],
    ["bob@26-26", "1"],
  ]);
  const [store] = supplier.made;
  assert.equal({ put: store.calls.put, remove: store.calls.remove }, { put: 4, remove: 1 });
  const sessions = driver.store("sessions").store as ReadOnlySessionStore<string, number>;
  assert.equal(await entries(sessions.fetch("ann")), [
    { key: "ann", windowStart: 1, windowEnd: 1, value: 1 },
    { key: "ann", windowStart: 25, windowEnd: 30, value: 2 },
  ]);
  await driver.close();
  assert.is(store.calls.close, 1);
});

test("Processor API window and session stores built from a user's suppliers serve their processor", async () => {
  const windows = countingWindowSupplier("seen", 1_000, 10);
  const sessions = countingSessionSupplier("visits", 1_000);
  const driver = await TopologyTestDriver.create((builder) => {
    builder.addStateStore(Stores.windowStoreBuilder(windows, "string", "string"));
    builder.addStateStore(Stores.sessionStoreBuilder(sessions, "string", "long"));
    builder
      .stream<string, string>("in")
      .process(
        processorOf<string, string, string, string>((record, context) => {
          const seen = context.getStateStore<WindowStore<string, string>>("seen");
          const visits = context.getStateStore<SessionStore<string, number>>("visits");
          seen.put(record.key, record.value, record.timestamp);
          visits.put({ key: record.key, start: record.timestamp, end: record.timestamp }, record.timestamp);
          const ofKey = [...seen.fetch(record.key, 0, 1_000)].map(({ key, value }) => `${key}:${value}`).join(",");
          const backward = [...seen.backwardFetchAll(0, 1_000)].map(({ key }) => `${key.key}@${key.windowStart}`).join(",");
          const found = [...visits.fetch(record.key)].map(({ key }) => key.windowEnd).join(",");
          context.forward(record.withValue(`${ofKey} | ${backward} | ${found}`));
        }),
        ["seen", "visits"],
      )
      .to("out");
  });
  await driver.pipeInput("in", [{ key: "b", value: "x", timestamp: 5 }, { key: "a", value: "y", timestamp: 5 }, { key: "a", value: "z", timestamp: 7 }]);
  assert.equal(driver.readOutput("out").map((r) => r.value), ["5:x | b@5 | 5", "5:y | b@5,a@5 | 5", "5:y,7:z | a@7,b@5,a@5 | 5,7"]);
  assert.is(windows.made[0].windows.length, 3);
  assert.is(sessions.made[0].sessions.length, 3);
  await driver.close();
});

test("a supplier named otherwise than its store, or of another kind than the store, is refused naming both", async () => {
  const misnamed = await buildError((builder) => void builder.stream<string, string>("in").groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count({ storeName: "counts", storeSupplier: countingWindowSupplier("other", 100, 10) }));
  assert.match(misnamed, /store 'counts' is given a WindowBytesStoreSupplier named 'other'/);
  const sessionForWindows = await buildError((builder) => void builder.stream<string, string>("in").groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count({ storeName: "counts", storeSupplier: countingSessionSupplier("counts", 100) as never }));
  assert.match(sessionForWindows, /store 'counts': a SessionBytesStoreSupplier makes a session store, not a timestamped_window one/);
  const windowForKeyValue = await buildError((builder) => void builder.addStateStore(Stores.keyValueStoreBuilder(countingWindowSupplier("kv", 100, 10) as never, "string", "string")));
  assert.match(windowForKeyValue, /store 'kv': a WindowBytesStoreSupplier makes a window store, not a key_value one/);
  const keyValueForSessions = await buildError((builder) => void builder.addStateStore(Stores.sessionStoreBuilder(countingSupplier("s") as never, "string", "string")));
  assert.match(keyValueForSessions, /store 's': a KeyValueBytesStoreSupplier makes a key-value store, not a session one/);
});

test("a stream-stream join's user stores are refused as Kafka Streams refuses them: without duplicates, not matching the join windows, or named alike", async () => {
  // JoinWindows of 10 ms either side with a grace of 5: window size 20, retention 25.
  const joinWith = (thisSupplier: WindowBytesStoreSupplier, otherSupplier: WindowBytesStoreSupplier) =>
    buildError((builder) => {
      const views = builder.stream<string, string>("views");
      builder.stream<string, string>("clicks").join(views, (click, view) => `${click}+${view}`, JoinWindows.ofTimeDifferenceAndGrace(10, 5), StreamJoined.with(thisSupplier, otherSupplier)).to("out");
    });
  const fine = countingWindowSupplier("theirs", 25, 20, true);
  assert.match(await joinWith(countingWindowSupplier("mine", 25, 20, false), fine), /the join store supplier 'mine' must retain duplicates/);
  assert.match(await joinWith(countingWindowSupplier("mine", 25, 10, true), fine), /the join store supplier 'mine' \(window size 10 ms, retention 25 ms\) must match the join windows: window size 20 ms \(before \+ after\) and retention 25 ms/);
  assert.match(await joinWith(countingWindowSupplier("mine", 30, 20, true), fine), /the join store supplier 'mine' \(window size 20 ms, retention 30 ms\) must match/);
  assert.match(await joinWith(countingWindowSupplier("theirs", 25, 20, true), fine), /both join store suppliers are named 'theirs'/);
});

test("a stream-stream join keeps each side's records in the user's stores, duplicates included", async () => {
  const mine = countingWindowSupplier("mine", 25, 20, true);
  const theirs = countingWindowSupplier("theirs", 25, 20, true);
  const driver = await TopologyTestDriver.create((builder) => {
    const views = builder.stream<string, string>("views");
    builder
      .stream<string, string>("clicks")
      .join(views, (click, view) => `${click}+${view}`, JoinWindows.ofTimeDifferenceAndGrace(10, 5), StreamJoined.with<string, string, string>("string", "string", "string").withThisStoreSupplier(mine).withOtherStoreSupplier(theirs))
      .to("out");
  });
  await driver.pipeInput("views", [{ key: "a", value: "v1", timestamp: 5 }, { key: "a", value: "v2", timestamp: 5 }]);
  await driver.pipeInput("clicks", [{ key: "a", value: "c1", timestamp: 10 }]);
  assert.equal(driver.readOutput("out").map((r) => r.value), ["c1+v1", "c1+v2"]);
  assert.equal(theirs.made[0].windows.map(({ start, value }) => `${start}:${value.toString()}`), ["5:v1", "5:v2"]);
  assert.equal(mine.made[0].windows.map(({ start, value }) => `${start}:${value.toString()}`), ["10:c1"]);
  await driver.close();
});

test.run();
