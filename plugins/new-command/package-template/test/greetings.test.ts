/** The topology run by Sluice's TopologyTestDriver: no broker, real stores in a temporary folder. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { TopologyTestDriver } from "sluice";
import { Greetings } from "../src/greetings";

test("counts each name, skips blank lines, and writes every new count", async () => {
  const driver = await TopologyTestDriver.create(new Greetings());
  try {
    await driver.pipeInput("names", [{ key: null, value: "ada" }, { key: null, value: " " }, { key: null, value: "alan" }]);
    await driver.pipeInput("names", [{ key: null, value: "ada " }]);
    const counts = driver.readOutput<string, number>("greeting-counts").map(({ key, value }) => [key, value]);
    assert.deepEqual(counts, [["ada", 1], ["alan", 1], ["ada", 2]]);
    const store = driver.store("counts");
    // An aggregation keeps each count with its timestamp, as Kafka Streams' TimestampedKeyValueStore does.
    assert.equal(store.type, "timestamped_key_value");
    if (store.type === "timestamped_key_value") assert.equal((await store.store.get("ada"))?.value, 2);
  } finally {
    await driver.close();
  }
});
