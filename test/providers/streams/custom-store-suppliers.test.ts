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

test("a supplier named otherwise than its store, or for a store that is not a plain key-value one, is refused naming both", async () => {
  const misnamed = await buildError((builder) => void builder.stream<string, string>("in").groupByKey().count({ storeName: "counts", storeType: "key_value", storeSupplier: countingSupplier("other") }));
  assert.match(misnamed, /store 'counts' is given a KeyValueBytesStoreSupplier named 'other'/);
  const windowed = await buildError((builder) => void builder.stream<string, string>("in").groupByKey().windowedBy({ type: "tumbling", sizeMs: 10 }).count({ storeName: "counts", storeSupplier: countingSupplier("counts") as never }));
  assert.match(windowed, /store 'counts': a KeyValueBytesStoreSupplier makes a key-value store, not a timestamped_window one/);
});

test.run();
