/**
 * Topology validation at build time, as Kafka Streams validates (issue #34 item 10): a topic is subscribed once,
 * names are unique, a named grouping feeds several aggregations through one repartition topic, and processors that a
 * store puts in one task must be able to share it. Each error names the operator.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Processor } from "../../../kernel/contracts/streams/processor";
import { TopologyTestDriver } from "../../../providers/streams/testing/topology-test-driver";
import { buildError } from "./build-error";

const test = suite("topology validation");

test("a topic read by a table and by a stream is an error naming both sources", async () => {
  const message = await buildError((builder) => {
    builder.stream<string, string>("users", { name: "user-events" }).to("out");
    builder.table<string, string>("users", { name: "user-rows" });
  });
  assert.is(message, "source 'user-rows' reads topic 'users', which source 'user-events' already reads: a topic is subscribed once (streams of exactly the same topics and serdes share one source)");
});

test("streams of overlapping but not equal topics are an error; of the same topics with other serdes too", async () => {
  const overlapping = await buildError((builder) => {
    builder.stream<string, string>(["a", "b"], { name: "ab" }).to("out");
    builder.stream<string, string>("b", { name: "b-only" }).to("out");
  });
  assert.match(overlapping, "source 'b-only' reads topic 'b', which source 'ab' already reads");
  const otherSerdes = await buildError((builder) => {
    builder.stream<string, string>("a", { name: "as-text" }).to("out");
    builder.stream<string, number>("a", { name: "as-long", valueSerde: "long" }).to("out");
  });
  assert.match(otherSerdes, "source 'as-long' reads topic 'a' with other serdes, which source 'as-text' already reads");
});

test("two streams of the same topic share its source: both see every record", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder.stream<string, string>("in").mapValues((value) => `1:${value}`).to("out1");
    builder.stream<string, string>("in").mapValues((value) => `2:${value}`).to("out2");
  });
  try {
    await driver.pipeInput("in", [{ key: "k", value: "v" }]);
    assert.equal(driver.readOutput<string, string>("out1").map((record) => record.value), ["1:v"]);
    assert.equal(driver.readOutput<string, string>("out2").map((record) => record.value), ["2:v"]);
  } finally {
    await driver.close();
  }
});

test("a name given twice is an error naming it", async () => {
  const message = await buildError((builder) => {
    const stream = builder.stream<string, string>("in");
    stream.mapValues((value) => value, "upper").to("out1");
    stream.filter(() => true, "upper").to("out2");
  });
  assert.is(message, "topology already has a node named 'upper'");
});

test("a named grouping feeds several aggregations through one repartition topic", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    const grouped = builder.stream<string, string>("words").groupBy((_key, word) => word, { name: "by-word" });
    grouped.count({ storeName: "counts" }).toStream().to("counts-out", { valueSerde: "long" });
    grouped.reduce((a, b) => `${a}|${b}`, { storeName: "joined" }).toStream().to("joined-out");
  }, { partitions: 2 });
  try {
    await driver.pipeInput("words", [{ key: "1", value: "a" }, { key: "2", value: "b" }, { key: "3", value: "a" }]);
    const counts = driver.readOutput<string, number>("counts-out").filter((record) => record.key === "a").map((record) => record.value);
    assert.equal(counts, [1, 2]);
    assert.equal(driver.readOutput<string, string>("joined-out").map((record) => [record.key, record.value]).sort(), [["a", "a"], ["a", "a|a"], ["b", "b"]]);
    const sinks = driver.topology.describe("1").subTopologies.flatMap((sub) => sub.nodes).filter((node) => node.type === "SINK" && node.topic?.endsWith("-repartition"));
    assert.equal(sinks.map((node) => node.topic), ["test-app-by-word-repartition"]);
  } finally {
    await driver.close();
  }
});

test("a store shared by processors that read repartition topics of different sizes is an error naming the store and both", async () => {
  const passThrough = (): Processor<string, string, string, string> => ({ process: () => undefined });
  const message = await buildError((builder) => {
    builder.addStateStore({ name: "shared", type: "key_value" });
    builder.stream<string, string>("a").repartition({ name: "two", numberOfPartitions: 2 }).process(passThrough, ["shared"], "reads-two");
    builder.stream<string, string>("b").repartition({ name: "four", numberOfPartitions: 4 }).process(passThrough, ["shared"], "reads-four");
  });
  assert.is(
    message,
    "topics test-app-two-repartition (2), test-app-four-repartition (4) are read by one task but are repartitioned to different numbers of partitions " +
      "(store 'shared' is used by processors 'reads-two' and 'reads-four', so they run in one task)",
  );
});

test("repartition() needs a positive number of partitions", async () => {
  const message = await buildError((builder) => {
    builder.stream<string, string>("a").repartition({ name: "none", numberOfPartitions: 0 }).to("out");
  });
  assert.is(message, "repartition 'none': numberOfPartitions must be a positive integer, got 0");
});

test.run();
