/**
 * Global tables in the TopologyTestDriver and at build time (issue #34 point 4): a record piped into the table's
 * topic updates its global store at once; the store is read whole whatever the partition, by joins, by Processor API
 * processors (without connecting to it, as in Kafka Streams) and by queries; a topic is read by one source only.
 * The joins' semantics are proven against Kafka Streams by the goldens global-table-join and
 * global-table-join-with-key.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Processor, ProcessorContext } from "../../../kernel/contracts/streams/processor";
import type { TimestampedKeyValueStore } from "../../../kernel/contracts/streams/stores";
import { TopologyTestDriver } from "../../../providers/streams/testing/topology-test-driver";
import { buildError } from "./build-error";

const test = suite("global tables in the test driver");

test("a global table's topic is read by no other source, either way round", async () => {
  const streamFirst = await buildError((builder) => {
    builder.stream<string, string>("users").to("out");
    builder.globalTable<string, string>("users", {}, { storeName: "users-global" });
  });
  assert.is(streamFirst, "global store 'users-global' reads topic 'users', which source 'source-0' already reads: a topic is read by one source only");
  const globalFirst = await buildError((builder) => {
    builder.globalTable<string, string>("users");
    builder.table<string, string>("users", {}, { storeName: "users-table" });
  });
  assert.is(globalFirst, "topic 'users' is the topic of global store 'users': a topic is read by one source only");
});

test("a global table is a key_value or timestamped_key_value store, and its name is its own", async () => {
  const versioned = await buildError((builder) => void builder.globalTable("rates", {}, { storeName: "rates", storeType: "versioned_key_value", historyRetentionMs: 1000 }));
  assert.is(versioned, "global table 'rates' cannot be kept in a versioned_key_value store: a global table is a key_value or timestamped_key_value store");
  const taken = await buildError((builder) => {
    builder.stream<string, string>("in").groupByKey().count({ storeName: "shared" });
    builder.globalTable("rates", {}, { storeName: "shared" });
  });
  assert.is(taken, "topology already has a store named 'shared'");
});

test("every partition's records reach the one store; the join meets it on every partition; the topology lists it", async () => {
  const driver = await TopologyTestDriver.create(
    (builder) => {
      const rates = builder.globalTable<string, number>("rates", { valueSerde: "long" }, { storeName: "rates" });
      builder
        .stream<string, number>("amounts", { valueSerde: "long" })
        .join(rates, (_key, amount) => (amount > 0 ? "eur" : null), (amount, rate) => amount * rate)
        .to("converted", { valueSerde: "long" });
    },
    { partitions: 4 },
  );
  try {
    await driver.pipeInput("rates", [{ key: "eur", value: 2, timestamp: 5 }, { key: "usd", value: 3, timestamp: 6, partition: 3 }]);
    await driver.pipeInput("amounts", ["a", "b", "c", "d", "e", "f"].map((key, i) => ({ key, value: i - 1 })));
    assert.equal(driver.readOutput<string, number>("converted").map(({ key, value }) => `${key}=${value}`).sort(), ["c=2", "d=4", "e=6", "f=8"]);
    for (const partition of [0, 3]) {
      const store = driver.store("rates", partition);
      if (store.type !== "timestamped_key_value") throw new Error(`a ${store.type} store`);
      const rows: string[] = [];
      for await (const { key, value } of store.store.all()) rows.push(`${key}=${JSON.stringify(value)}`);
      assert.equal(rows, ['eur={"value":2,"timestamp":5}', 'usd={"value":3,"timestamp":6}']);
    }
    assert.equal(driver.topology.describe("1").globalStores, ["rates"]);
  } finally {
    await driver.close();
  }
});

test("a Processor API processor reads a global store by name without connecting to it, and cannot write it", async () => {
  const seen: string[] = [];
  const driver = await TopologyTestDriver.create((builder) => {
    builder.globalTable<string, string>("names", {}, { storeName: "names" });
    builder.stream<string, string>("ids").process(() => {
      let store!: TimestampedKeyValueStore<string, string>;
      const processor: Processor<string, string, string, string> = {
        init: (context: ProcessorContext<string, string>) => void (store = context.getStateStore("names")),
        process: (record) => {
          seen.push(store.get(record.value!)?.value ?? "none");
          assert.throws(() => store.put(record.value!, "x", 0), /global store 'names' is written by its topic only/);
        },
      };
      return processor;
    });
  });
  try {
    await driver.pipeInput("names", [{ key: "1", value: "one" }, { key: "2", value: "two" }, { key: "1", value: null }]);
    await driver.pipeInput("ids", [{ key: "a", value: "1" }, { key: "b", value: "2" }]);
    assert.equal(seen, ["none", "two"]);
  } finally {
    await driver.close();
  }
});

test.run();
