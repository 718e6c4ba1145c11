/**
 * A user's own KeyValueBytesStoreSupplier (#35 point 7) through the Processor API (Stores.keyValueStoreBuilder) and
 * the DSL (Materialized's storeSupplier): the data lives in the user's store, which counts what it is asked.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { KeyValueStore, ReadOnlyKeyValueStore } from "../../../kernel/contracts/streams/stores";
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

test("a DSL count materialized in a user's supplier keeps its counts there and answers queries from it", async () => {
  const supplier = countingSupplier("counts");
  const driver = await TopologyTestDriver.create((builder) => {
    builder.stream<string, string>("clicks").groupByKey().count({ storeName: "counts", storeType: "key_value", storeSupplier: supplier }).toStream().to("out", { valueSerde: "long" });
  });
  await driver.pipeInput("clicks", [{ key: "ann", value: "a" }, { key: "ann", value: "b" }, { key: "bob", value: "c" }]);
  assert.equal(driver.readOutput<string, number>("out", { value: "long" }).map((r) => [r.key, r.value]), [["ann", 1], ["ann", 2], ["bob", 1]]);
  assert.equal([...supplier.made[0].entries.keys()].sort(), ["ann", "bob"]);
  const counts = driver.store("counts").store as ReadOnlyKeyValueStore<string, number>;
  assert.is(await counts.get("ann"), 2);
  const all: string[] = [];
  for await (const { key, value } of counts.all()) all.push(`${key}=${value}`);
  assert.equal(all, ["ann=2", "bob=1"]);
  await driver.close();
});

test("a supplier named otherwise than its store, or for a store that is not a plain key-value one, is refused naming both", async () => {
  const misnamed = await buildError((builder) => void builder.stream<string, string>("in").groupByKey().count({ storeName: "counts", storeType: "key_value", storeSupplier: countingSupplier("other") }));
  assert.match(misnamed, /store 'counts' is given a KeyValueBytesStoreSupplier named 'other'/);
  const timestamped = await buildError((builder) => void builder.stream<string, string>("in").groupByKey().count({ storeName: "counts", storeSupplier: countingSupplier("counts") }));
  assert.match(timestamped, /store 'counts': a KeyValueBytesStoreSupplier makes a key_value store, not timestamped_key_value/);
});

test.run();
