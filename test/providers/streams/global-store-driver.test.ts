/**
 * Global stores kept by a processor (StreamsBuilder.addGlobalStore, issue #34 point 4) in the TopologyTestDriver and
 * at build time: what the builder refuses, what the processor's context offers, and that other processors read the
 * store but cannot write it. The semantics are proven against Kafka Streams by the goldens global-store-processor
 * and global-store-timestamped; the runtime by global-store.test.ts.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ProcessorContext } from "../../../kernel/contracts/streams/processor";
import type { KeyValueStore } from "../../../kernel/contracts/streams/stores";
import { Stores } from "../../../providers/streams/processor/stores";
import { TopologyTestDriver } from "../../../providers/streams/testing/topology-test-driver";
import { buildError } from "./build-error";
import { countingSupplier } from "../../helpers/counting-store";

const test = suite("global stores kept by a processor, in the test driver");

const ignore = () => ({ process: () => undefined });

test("a store with a changelog of its own, a user's store supplier, a window store, a taken name or a read topic is refused", async () => {
  const logged = await buildError((builder) => void builder.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("kv")).withLoggingEnabled({}), "t", {}, ignore));
  assert.is(logged, "StateStore kv for global table must not have logging enabled: topic 't' is its changelog");
  const supplied = await buildError((builder) => void builder.addGlobalStore(Stores.keyValueStoreBuilder(countingSupplier("kv")).withLoggingDisabled(), "t", {}, ignore));
  assert.is(supplied, "global store 'kv' cannot be kept in a user's store supplier: Sluice keeps global stores in memory, filled from topic 't' at each start");
  const windowed = await buildError((builder) => void builder.addGlobalStore(Stores.windowStoreBuilder(Stores.inMemoryWindowStore("w", 100, 10)), "t", {}, ignore));
  assert.is(windowed, "global store 'w' cannot be a window store: Sluice keeps global stores as key_value or timestamped_key_value stores");
  const taken = await buildError((builder) => {
    builder.globalTable("t1", {}, { storeName: "kv" });
    builder.addGlobalStore({ name: "kv", type: "key_value" }, "t2", {}, ignore);
  });
  assert.is(taken, "topology already has a store named 'kv'");
  const read = await buildError((builder) => {
    builder.stream("t").to("out");
    builder.addGlobalStore({ name: "kv", type: "key_value" }, "t", {}, ignore);
  });
  assert.match(read, /global store 'kv' reads topic 't', which source '.*' already reads/);
});

test("the processor's context: record metadata of the global topic, the global task id, no punctuation; other processors read, never write", async () => {
  const seen: string[] = [];
  const driver = await TopologyTestDriver.create(
    (builder) => {
      // As a Kafka Streams application writes it: a global store's builder has its logging disabled.
      const counts = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("counts"), "string", "long").withLoggingDisabled();
      builder.addGlobalStore<string, number>(counts, "words", { valueSerde: "long" }, () => {
        let context!: ProcessorContext<void, void>;
        let counts!: KeyValueStore<string, number>;
        return {
          init: (given) => {
            context = given;
            counts = context.getStateStore("counts");
            assert.throws(() => context.schedule(10, "wall_clock_time", () => undefined), /processor '.*' of global store 'counts' cannot schedule punctuations/);
          },
          process: (record) => {
            const { topic, partition, offset } = context.recordMetadata();
            seen.push(`${context.taskId} ${topic}-${partition}@${offset}`);
            counts.put(record.key, (counts.get(record.key) ?? 0) + record.value);
          },
        };
      });
      builder.stream<string, string>("asks").process<string, string>(() => {
        let context!: ProcessorContext<string, string>;
        return {
          init: (given) => void (context = given),
          process: (record) => {
            const counts = context.getStateStore<KeyValueStore<string, number>>("counts");
            assert.throws(() => counts.put(record.key, 0), /global store 'counts' is written by its topic only, through processor '.*',: other processors may read it/);
            context.forward({ key: record.key, value: String(counts.get(record.key) ?? "none"), timestamp: record.timestamp });
          },
        };
      }).to("answers");
    },
    { partitions: 2 },
  );
  try {
    await driver.pipeInput("words", [{ key: "a", value: 2, partition: 0 }, { key: "a", value: 3, partition: 1 }, { key: "b", value: 1, partition: 1 }]);
    await driver.pipeInput("asks", [{ key: "a", value: "?" }, { key: "b", value: "?" }, { key: "c", value: "?" }]);
    assert.equal(seen, ["-1_-1 words-0@0", "-1_-1 words-1@0", "-1_-1 words-1@1"]);
    assert.equal(driver.readOutput<string, string>("answers").map(({ key, value }) => `${key}=${value}`).sort(), ["a=5", "b=1", "c=none"]);
    assert.equal(driver.topology.describe("1").globalStores, ["counts"]);
  } finally {
    await driver.close();
  }
});

test.run();
