/**
 * Stores without changelogs (Kafka Streams' Materialized.withLoggingDisabled / StoreBuilder.withLoggingDisabled) in
 * the test driver: the DSL's aggregations and Processor API stores count as logged ones do.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ReadOnlyKeyValueStore, ReadOnlyWindowStore, ValueAndTimestamp } from "../../../kernel/contracts/streams/stores";
import { Stores } from "../../../providers/streams/processor/stores";
import { TopologyTestDriver } from "../../../providers/streams";
import { keyCounter } from "../../helpers/processors";

const test = suite("stores with logging disabled in the test driver");

test("a count and a windowed count materialized with logging: false keep and emit their counts", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    const grouped = builder.stream<string, string>("clicks").groupByKey();
    grouped.count({ storeName: "per-user", logging: false }).toStream().to("per-user-counts", { valueSerde: "long" });
    grouped.windowedBy({ type: "tumbling", sizeMs: 1_000 }).count({ storeName: "per-second", logging: false, storeType: "window" });
  });
  await driver.pipeInput("clicks", [{ key: "ann", value: "a", timestamp: 100 }, { key: "ann", value: "b", timestamp: 1_500 }, { key: "bob", value: "c", timestamp: 1_600 }]);
  assert.equal(driver.readOutput<string, number>("per-user-counts", { value: "long" }).map((r) => [r.key, r.value]), [["ann", 1], ["ann", 2], ["bob", 1]]);
  assert.equal(await (driver.store("per-user").store as ReadOnlyKeyValueStore<string, ValueAndTimestamp<number>>).get("ann"), { value: 2, timestamp: 1_500 });
  assert.is(await (driver.store("per-second").store as ReadOnlyWindowStore<string, number>).fetch("ann", 1_000), 1);
  await driver.close();
});

test("a Processor API store built withLoggingDisabled() serves its processor", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("seen"), "string", "long").withLoggingDisabled());
    builder.stream<string, string>("in").process(keyCounter("seen"), ["seen"]).to("out");
  });
  await driver.pipeInput("in", [{ key: "k", value: "x" }, { key: "k", value: "y" }]);
  assert.equal(driver.readOutput("out").map((r) => r.value), ["k=1", "k=2"]);
  await driver.close();
});

test.run();
