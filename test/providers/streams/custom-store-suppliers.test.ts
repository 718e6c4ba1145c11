/**
 * A user's own KeyValueBytesStoreSupplier (#35 point 7) through the Processor API (Stores.keyValueStoreBuilder) and
 * the DSL (Materialized's storeSupplier): the data lives in the user's store, which counts what it is asked.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { KeyValueStore, ReadOnlyKeyValueStore, ValueAndTimestamp } from "../../../kernel/contracts/streams/stores";
import { Stores } from "../../../providers/streams/processor/stores";
import { TopologyTestDriver } from "../../../providers/streams";
import { processorOf } from "../../helpers/processors";
import { countingSupplier } from "../../helpers/counting-store";
import { buildError } from "./build-error";

const test = suite("custom store suppliers");

test("a Processor API store built from a user's supplier holds the processor's data: get, put, delete and ranges reach it", async () => {
  const supplier = countingSupplier("seen");
  const driver = await TopologyTestDriver.create((builder) => {
    builder.addStateStore(Stores.keyValueStoreBuilder(supplier, "string", "long"));
    builder
      .stream<string, string>("in")
      .process(
        processorOf<string, string, string, string>((record, context) => {
          const seen = context.getStateStore<KeyValueStore<string, number>>("seen");
          if (record.value === "forget") seen.delete(record.key);
          else seen.put(record.key, (seen.get(record.key) ?? 0) + 1);
          const all = [...seen.all()].map(({ key, value }) => `${key}:${value}`).join(",");
          const from = [...seen.reverseRange("b")].map(({ key }) => key).join(",");
          context.forward(record.withValue(`${all} | ${from}`));
        }),
        ["seen"],
      )
      .to("out");
  });
  await driver.pipeInput("in", [{ key: "b", value: "x" }, { key: "a", value: "x" }, { key: "c", value: "x" }, { key: "b", value: "x" }, { key: "a", value: "forget" }]);
  assert.equal(driver.readOutput("out").map((r) => r.value), ["b:1 | b", "a:1,b:1 | b", "a:1,b:1,c:1 | c,b", "a:1,b:2,c:1 | c,b", "b:2,c:1 | c,b"]);
  const [store] = supplier.made;
  assert.equal(supplier.made.length, 1);
  assert.equal({ put: store.calls.put, delete: store.calls.delete }, { put: 4, delete: 1 });
  assert.ok(store.calls.flush > 0, "told of the commits");
  assert.equal(await (driver.store("seen").store as ReadOnlyKeyValueStore<string, number>).get("b"), 2);
  await driver.close();
  assert.is(store.calls.close, 1);
});

test("a DSL count materialized in a user's supplier keeps its counts there, with their timestamps, and answers queries from it", async () => {
  const supplier = countingSupplier("counts");
  const plain = countingSupplier("plain-counts");
  const driver = await TopologyTestDriver.create((builder) => {
    const grouped = builder.stream<string, string>("clicks").groupByKey();
    grouped.count({ storeName: "counts", storeSupplier: supplier }).toStream().to("out", { valueSerde: "long" });
    grouped.count({ storeName: "plain-counts", storeType: "key_value", storeSupplier: plain });
  });
  await driver.pipeInput("clicks", [{ key: "ann", value: "a", timestamp: 5 }, { key: "ann", value: "b", timestamp: 9 }, { key: "bob", value: "c", timestamp: 7 }]);
  assert.equal(driver.readOutput<string, number>("out", { value: "long" }).map((r) => [r.key, r.value]), [["ann", 1], ["ann", 2], ["bob", 1]]);
  assert.equal([...supplier.made[0].entries.keys()].sort(), ["ann", "bob"]);
  const counts = driver.store("counts").store as ReadOnlyKeyValueStore<string, ValueAndTimestamp<number>>;
  assert.equal(await counts.get("ann"), { value: 2, timestamp: 9 });
  const all: string[] = [];
  for await (const { key, value } of counts.all()) all.push(`${key}=${value.value}@${value.timestamp}`);
  assert.equal(all, ["ann=2@9", "bob=1@7"]);
  assert.is(await (driver.store("plain-counts").store as ReadOnlyKeyValueStore<string, number>).get("ann"), 2);
  await driver.close();
});

test("a table materialized in a user's supplier keeps its rows there", async () => {
  const supplier = countingSupplier("prices");
  const driver = await TopologyTestDriver.create((builder) => void builder.table<string, string>("prices", undefined, { storeName: "prices", storeSupplier: supplier }));
  await driver.pipeInput("prices", [{ key: "pear", value: "3", timestamp: 1 }, { key: "plum", value: "2", timestamp: 2 }, { key: "pear", value: null as unknown as string, timestamp: 3 }]);
  assert.equal([...supplier.made[0].entries.keys()], ["plum"]);
  assert.equal(await (driver.store("prices").store as ReadOnlyKeyValueStore<string, ValueAndTimestamp<string>>).get("plum"), { value: "2", timestamp: 2 });
  await driver.close();
});

test("the record cache folds a DSL count's updates of a key in a user's supplier into one output and write per commit, as in a built-in store, unless caching is off", async () => {
  for (const caching of [true, false]) {
    const supplier = countingSupplier("words");
    const driver = await TopologyTestDriver.create(
      (builder) => {
        const words = builder.stream<string, string>("lines").flatMapValues((line) => line.split(" ")).groupByKey();
        words.count({ storeName: "words", storeSupplier: supplier, caching }).toStream().to("supplied", { valueSerde: "long" });
        words.count({ storeName: "built-in", caching }).toStream().to("built-in", { valueSerde: "long" });
      },
      { config: { "statestore.cache.max.bytes": 1_000_000 } },
    );
    await driver.pipeInput("lines", [{ key: "a", value: "x x x", timestamp: 1 }, { key: "b", value: "y", timestamp: 2 }, { key: "a", value: "x x", timestamp: 3 }]);
    const supplied = driver.readOutput<string, number>("supplied", { value: "long" }).map((r) => [r.key, r.value, r.timestamp]);
    const builtIn = driver.readOutput<string, number>("built-in", { value: "long" }).map((r) => [r.key, r.value, r.timestamp]);
    const expected = caching
      ? [["a", 3, 1], ["b", 1, 2], ["a", 5, 3]]
      : [["a", 1, 1], ["a", 2, 1], ["a", 3, 1], ["b", 1, 2], ["a", 4, 3], ["a", 5, 3]];
    assert.equal(supplied, expected, `caching ${caching}`);
    assert.equal(builtIn, expected, `built-in, caching ${caching}`);
    assert.is(supplier.made[0].calls.put, caching ? 3 : 6, `caching ${caching}`);
    await driver.close();
  }
});

// The counts reach a repartition topic, so Sluice forwards each of their updates at once (reading old values through
// the cache); the lengths reach only the join, so the cache forwards them as it flushes, with their old values.
test("tables in a cached user's supplier go downstream with the old values the cache replaced, as from a built-in store: a re-grouping subtracts them, a table-table join sees them", async () => {
  const run = async (supplied: boolean) => {
    const supplier = (name: string) => (supplied ? { storeSupplier: countingSupplier(name) } : {});
    const driver = await TopologyTestDriver.create(
      (builder) => {
        const lines = builder.stream<string, string>("lines").flatMapValues((line) => line.split(" "));
        const counts = lines.groupByKey().count({ storeName: "words", ...supplier("words") });
        const lengths = lines.mapValues((word) => word.length).groupByKey().reduce((sum, length) => sum + length, { storeName: "lengths", valueSerde: "long", ...supplier("lengths") });
        counts
          .groupBy((key, count) => ({ key: count % 2 === 0 ? "even" : "odd", value: key }))
          .count({ storeName: "parity" })
          .toStream()
          .to("parity", { valueSerde: "long" });
        counts.join(lengths, (count, length) => `${count}/${length}`).toStream().to("joined");
      },
      { config: { "statestore.cache.max.bytes": 1_000_000 } },
    );
    await driver.pipeInput("lines", [{ key: "a", value: "x x x", timestamp: 1 }, { key: "b", value: "yy yy", timestamp: 2 }, { key: "a", value: "x", timestamp: 3 }]);
    const outputs = {
      parity: driver.readOutput<string, number>("parity", { value: "long" }).map((r) => `${r.key}=${r.value}`),
      joined: driver.readOutput("joined").map((r) => `${r.key}=${r.value}`),
    };
    await driver.close();
    return outputs;
  };
  const supplied = await run(true);
  assert.equal(supplied, await run(false));
  assert.equal(supplied.parity.slice(-2), ["odd=0", "even=2"], "a's count went from 3 (odd) to 4 (even): its old value was subtracted");
  assert.equal(supplied.joined.slice(-1), ["a=4/4"]);
});

test("a Processor API store built withCachingEnabled from a user's supplier reads and walks its cached updates, and writes each key once per commit", async () => {
  const supplier = countingSupplier("tally");
  const driver = await TopologyTestDriver.create(
    (builder) => {
      builder.addStateStore(Stores.keyValueStoreBuilder(supplier, "string", "long").withCachingEnabled());
      builder
        .stream<string, string>("in")
        .process(
          processorOf<string, string, string, string>((record, context) => {
            const tally = context.getStateStore<KeyValueStore<string, number>>("tally");
            for (const word of record.value.split(" ")) {
              if (word === "forget") tally.delete(record.key);
              else tally.put(word, (tally.get(word) ?? 0) + 1);
            }
            const all = [...tally.all()].map(({ key, value }) => `${key}:${value}`).join(",");
            const backwards = [...tally.reverseRange("b", "y")].map(({ key }) => key).join(",");
            context.forward(record.withValue(`${all} | ${backwards}`));
          }),
          ["tally"],
        )
        .to("out");
    },
    { config: { "statestore.cache.max.bytes": 1_000_000 } },
  );
  const [store] = supplier.made;
  await driver.pipeInput("in", [{ key: "a", value: "y x y" }]);
  assert.is(store.calls.put, 2, "x and y written once each");
  await driver.pipeInput("in", [{ key: "x", value: "b forget b" }, { key: "y", value: "forget" }]);
  assert.equal(driver.readOutput("out").map((r) => r.value), ["x:1,y:2 | y,x", "b:2,y:2 | y,b", "b:2 | b"]);
  assert.equal({ put: store.calls.put, delete: store.calls.delete }, { put: 3, delete: 2 });
  assert.equal([...store.entries.keys()], ["b"]);
  await driver.close();
});

test("a supplier named otherwise than its store, or for a store that is not a plain key-value one, is refused naming both", async () => {
  const misnamed = await buildError((builder) => void builder.stream<string, string>("in").groupByKey().count({ storeName: "counts", storeType: "key_value", storeSupplier: countingSupplier("other") }));
  assert.match(misnamed, /store 'counts' is given a KeyValueBytesStoreSupplier named 'other'/);
  const windowed = await buildError((builder) => void builder.stream<string, string>("in").groupByKey().windowedBy({ type: "tumbling", sizeMs: 10 }).count({ storeName: "counts", storeSupplier: countingSupplier("counts") as never }));
  assert.match(windowed, /store 'counts': a KeyValueBytesStoreSupplier makes a key-value store, not a timestamped_window one/);
});

test.run();
