/**
 * Routing (#35 point 6): split() with Branched, to(TopicNameExtractor), Produced.streamPartitioner and processValues,
 * in the test driver and on the embedded broker.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { KStream, StreamPartitioner, TopicNameExtractor } from "../../../kernel/contracts/streams/dsl";
import type { FixedKeyProcessorContext, FixedKeyRecord } from "../../../kernel/contracts/streams/processor";
import { Branched, TopologyTestDriver } from "../../../providers/streams";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("routing: split, topic name extractors, stream partitioners, processValues");
let harness: Harness | undefined;

test.after(async () => {
  await harness?.close();
});

async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const outcome = await promise.then(
    () => undefined,
    (error: Error) => error,
  );
  assert.ok(outcome instanceof Error, "expected a rejection");
  assert.match(outcome.message, pattern);
}

const isNumber = (_key: string, value: string) => /^[0-9]+$/.test(value);
const isWord = (_key: string, value: string) => /^[a-z]+$/.test(value);

test("split names its branches after the split and each branch, numbers the unnamed, and ends with the default branch", async () => {
  let branches = new Map<string, KStream<string, string>>();
  const driver = await TopologyTestDriver.create((builder) => {
    branches = builder
      .stream<string, string>("in")
      .split("kind-")
      .branch(isNumber, Branched.as("numbers"))
      .branch(isWord)
      .branch((_key, value) => value === "", Branched.withConsumer((stream) => stream.to("empty")))
      .defaultBranch(Branched.withFunction((stream) => stream.mapValues((value) => `?${value}`)));
    for (const [name, stream] of branches) stream.to(name);
  });
  assert.equal([...branches.keys()], ["kind-numbers", "kind-2", "kind-0"]);
  await driver.pipeInput("in", [
    { key: "a", value: "123", timestamp: 1 },
    { key: "b", value: "abc", timestamp: 2 },
    { key: "c", value: "", timestamp: 3 },
    { key: "d", value: "a1!", timestamp: 4 },
  ]);
  assert.equal(driver.readOutput("kind-numbers").map((r) => r.value), ["123"]);
  assert.equal(driver.readOutput("kind-2").map((r) => r.value), ["abc"]);
  assert.equal(driver.readOutput("empty").map((r) => r.key), ["c"]);
  assert.equal(driver.readOutput("kind-0").map((r) => [r.key, r.value, r.timestamp]), [["d", "?a1!", 4]]);
  await driver.close();
});

test("split without a name prefixes its branches with its node's name; without a default branch unmatched records go nowhere", async () => {
  let branches = new Map<string, KStream<string, string>>();
  const driver = await TopologyTestDriver.create((builder) => {
    const stream = builder.stream<string, string>("in");
    branches = stream.split().branch(isNumber).branch(isWord, Branched.withFunction(() => null, "dropped")).noDefaultBranch();
    for (const [name, branch] of branches) branch.to(`out-${name}`);
  });
  const [name] = [...branches.keys()];
  assert.equal(branches.size, 1);
  assert.match(name, /^split-\d+-1$/);
  await driver.pipeInput("in", [{ key: "a", value: "1" }, { key: "b", value: "x!" }]);
  assert.equal(driver.producedTopicNames(), [`out-${name}`]);
  await driver.close();
});

test("a branch after the default branch is an error", async () => {
  await rejectsWith(
    TopologyTestDriver.create((builder) => {
      const split = builder.stream<string, string>("in").split("s-");
      split.defaultBranch();
      split.branch(isNumber);
    }),
    /has its default branch already/,
  );
});

test("to(TopicNameExtractor) writes each record to the topic named for it, with the record's context", async () => {
  const contexts: unknown[] = [];
  const extractor: TopicNameExtractor<string, string> = {
    extract: (key, value, context) => {
      contexts.push([context.topic, context.partition, context.offset, context.timestamp, context.headers.lastHeader("h")?.value?.toString()]);
      return `out-${value[0]}`;
    },
  };
  const driver = await TopologyTestDriver.create((builder) => builder.stream<string, string>("in").to(extractor));
  await driver.pipeInput("in", [
    { key: "a", value: "x1", timestamp: 5, headers: [{ key: "h", value: Buffer.from("one") }] },
    { key: "b", value: "y1", timestamp: 6 },
    { key: "c", value: "x2", timestamp: 7 },
  ]);
  assert.equal(driver.readOutput("out-x").map((r) => [r.key, r.value]), [["a", "x1"], ["c", "x2"]]);
  assert.equal(driver.readOutput("out-y").map((r) => r.key), ["b"]);
  assert.equal(contexts, [["in", 0, 0, 5, "one"], ["in", 0, 1, 6, undefined], ["in", 0, 2, 7, undefined]]);
  await driver.close();
});

test("a StreamPartitioner multicasts, drops on an empty choice (dropped-records) and leaves undefined to the default partitioner", async () => {
  const asked: number[] = [];
  const partitioner: StreamPartitioner<string, string> = {
    partitions: (topic, key, value, numPartitions) => {
      asked.push(numPartitions);
      if (value === "all") return new Set([0, 1, 2]);
      if (value === "none") return new Set();
      return value === "default" ? undefined : new Set([2]);
    },
  };
  // The output is read back through a repartition-like loop: a topology that reads what it wrote shows the partitions.
  const driver = await TopologyTestDriver.create(
    (builder) => {
      builder.stream<string, string>("in").to("routed", { streamPartitioner: partitioner });
      builder.stream<string, string>("routed").process(() => {
        let context!: { recordMetadata(): { partition: number } };
        return {
          init: (ctx) => void (context = ctx),
          process: (record) => seen.push([record.value, context.recordMetadata().partition]),
        };
      });
    },
    { partitions: 3 },
  );
  const seen: [string, number][] = [];
  await driver.pipeInput("in", [
    { key: "k", value: "all" },
    { key: "k", value: "none" },
    { key: "k", value: "two" },
  ]);
  assert.equal(seen, [["all", 0], ["all", 1], ["all", 2], ["two", 2]]);
  assert.equal(asked, [3, 3, 3]);
  assert.equal(driver.readOutput("routed").map((r) => r.value), ["all", "all", "all", "two"]);
  await driver.close();
});

test("a StreamPartitioner's partition outside the topic fails the record", async () => {
  const driver = await TopologyTestDriver.create((builder) =>
    builder.stream<string, string>("in").to("out", { streamPartitioner: { partitions: () => new Set([7]) } }),
  );
  await rejectsWith(driver.pipeInput("in", [{ key: "k", value: "v" }]), /chose partition 7 of 'out', which has 1/);
  await driver.close();
});

test("processValues changes values and keeps the key: a grouping after it needs no repartition", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder
      .stream<string, string>("in")
      .processValues<string>(() => {
        let context!: FixedKeyProcessorContext<string, string>;
        return {
          init: (ctx) => void (context = ctx),
          process: (record: FixedKeyRecord<string, string>) => context.forward(record.withValue(`${record.value}@${record.timestamp}`)),
        };
      })
      .groupByKey()
      .count({ storeName: "counts" })
      .toStream()
      .to("out", { valueSerde: "long" });
  });
  assert.equal(driver.topology.definition.repartitionTopics.size, 0);
  await driver.pipeInput("in", [{ key: "a", value: "x", timestamp: 1 }, { key: "a", value: "y", timestamp: 2 }]);
  assert.equal(driver.readOutput("out", { value: "long" }).map((r) => [r.key, r.value]), [["a", 1], ["a", 2]]);
  await driver.close();
});

test("on the embedded broker, an extracted topic is created with num.partitions and a partitioner's choice is where records land", async () => {
  harness = await startHarness();
  await harness.kafka.admin().createTopics({ topics: [{ topic: "routing-in", numPartitions: 1 }] });
  const runtime = harness.runtime(
    [
      {
        name: "routing",
        version: "1",
        config: { "application.id": "routing", "num.partitions": 3 },
        topology: (builder) =>
          builder.stream<string, string>("routing-in").to(
            { extract: (_key, value) => `routing-${value.split(":")[0]}` },
            { streamPartitioner: { partitions: (_topic, _key, value, count) => new Set([Number(value.split(":")[1]) % count]) } },
          ),
      },
    ],
  );
  await runtime.start();
  const app = runtime.application("routing")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  await harness.producer.send({ topic: "routing-in", messages: ["a:0", "a:1", "b:2", "a:5"].map((value) => ({ key: "k", value })) });
  // A reader's metadata request would create the topics itself (with one partition): wait for Sluice to make them.
  const admin = harness.kafka.admin();
  await admin.connect();
  await eventually(async () => {
    const topics = await admin.listTopics();
    return ["routing-a", "routing-b"].every((topic) => topics.includes(topic));
  }, { what: "topics created", timeoutMs: 15_000 });
  const a = await harness.readTopic("routing-a", (records) => records.length === 3);
  assert.equal(a.map((r) => [r.value!.toString(), r.partition]).sort(), [["a:0", 0], ["a:1", 1], ["a:5", 2]]);
  const b = await harness.readTopic("routing-b", (records) => records.length === 1);
  assert.equal(b.map((r) => [r.value!.toString(), r.partition]), [["b:2", 2]]);
  const { topics } = await admin.fetchTopicMetadata({ topics: ["routing-a"] });
  assert.is(topics[0].partitions.length, 3);
  await admin.disconnect();
});

test.run();
