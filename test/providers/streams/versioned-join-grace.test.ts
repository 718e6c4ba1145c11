/**
 * Stream-table joins with a grace period (#34 point 9, KIP-923) through the public surface: the Joined factory
 * "sluice" exports, what Kafka Streams refuses when the topology is built, the buffer's store, and the buffer
 * changelogged on the embedded broker and restored by an instance with an empty state directory. What the join
 * emits, and when, is proven against Kafka Streams by the golden scenario versioned-join-grace.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Joined, TopologyTestDriver, type StreamsBuilder, type TopologyProvider } from "../../../index";
import { eventually } from "../../helpers/eventually";
import { buildError } from "./build-error";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("stream-table joins with a grace period");
let harness: Harness | undefined;

test.after(async () => {
  await harness?.close();
});

const versionedPrices = (builder: StreamsBuilder) =>
  builder.table<string, string>("prices", { keySerde: "string", valueSerde: "string" }, { storeName: "prices-versioned", storeType: "versioned_key_value", historyRetentionMs: 1_000 });

test("Joined's factory returns a new value per call", () => {
  const base = Joined.with("string", "json", "long");
  const named = base.withName("orders-prices").withGracePeriod(10);
  assert.equal([base.name, base.gracePeriodMs], [undefined, undefined]);
  assert.equal([named.keySerde, named.valueSerde, named.otherValueSerde, named.name, named.gracePeriodMs], ["string", "json", "long", "orders-prices", 10]);
  assert.is(Joined.as("j").name, "j");
});

test("a grace period needs a versioned table, and a whole number of milliseconds, as Kafka Streams says when built", async () => {
  assert.match(
    await buildError((builder) => builder.stream<string, string>("orders").join(builder.table<string, string>("prices"), (o, p) => o + p, Joined.as<string, string, string>("j").withGracePeriod(10))),
    /^KTable must be versioned to use a grace period in a stream table join/,
  );
  assert.match(
    await buildError((builder) => builder.stream<string, string>("orders").leftJoin(versionedPrices(builder), (o, p) => o + p, Joined.as<string, string, string>("j").withGracePeriod(-1))),
    /grace period of join 'j' must be a whole number of milliseconds, at least 0; got -1/,
  );
});

test("the buffer is an uncached, rangeable key_value store named after the join; a null-value order is dropped, a late one joins at once", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder.stream<string, string>("orders").leftJoin(versionedPrices(builder), (o, p) => `${o}@${p}`, Joined.as<string, string, string>("priced").withGracePeriod(10)).to("out");
  });
  try {
    const buffer = driver.topology.definition.stores.get("priced-Buffer")!;
    assert.equal([buffer.type, buffer.rangeable, buffer.caching], ["key_value", true, false]);
    await driver.pipeInput("prices", [{ key: "p", value: "10", timestamp: 10 }]);
    await driver.pipeInput("orders", [{ key: "p", value: "o1", timestamp: 30 }, { key: "p", value: null, timestamp: 31 }, { key: "p", value: "o2", timestamp: 12 }]);
    assert.equal(driver.readOutput("out").map((record) => [record.value, record.timestamp]), [["o2@10", 12]], "o1 waits, the null value is dropped, o2 (older than 30 - 10) joins at once");
  } finally {
    await driver.close();
  }
});

function graceApp(id: string): TopologyProvider {
  return {
    name: id,
    version: "1.0.0",
    config: { "application.id": id },
    topology(builder: StreamsBuilder) {
      builder
        .stream<string, string>(`${id}-orders`, { keySerde: "string", valueSerde: "string" })
        .leftJoin(
          builder.table<string, string>(`${id}-prices`, { keySerde: "string", valueSerde: "string" }, { storeName: "prices", storeType: "versioned_key_value", historyRetentionMs: 1_000 }),
          (order, price) => `${order}@${price}`,
          Joined.as<string, string, string>("priced").withGracePeriod(10),
        )
        .to(`${id}-out`, { keySerde: "string", valueSerde: "string" });
    },
  };
}

test("a buffered order survives a move to an instance with no local state: restored from the changelog, it joins the late price; a null-value order is counted dropped", async () => {
  harness = await startHarness();
  const id = "grace-restore";
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: ["orders", "prices", "out"].map((name) => ({ topic: `${id}-${name}`, numPartitions: 1 })), waitForLeaders: true });
  await admin.disconnect();
  const send = (topic: string, key: string, value: string, timestamp: number) =>
    harness!.producer.send({ topic: `${id}-${topic}`, acks: -1, messages: [{ key, value, timestamp: String(timestamp) }] });

  const first = harness.runtime([graceApp(id)]);
  await first.start();
  await eventually(() => first.application(id)?.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  await send("prices", "p", "10", 10);
  await send("orders", "p", "o1", 20);
  const changelog = await harness.readTopic(`${id}-priced-Buffer-changelog`, (records) => records.length >= 1);
  assert.ok(changelog[0].value !== null, "the buffered order is in the changelog");
  await first.close(5_000);

  const second = harness.runtime([graceApp(id)]);
  await second.start();
  await eventually(() => second.application(id)?.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  // Late but within the grace of o1: o1 must see it. o2 moves stream time to 31, so o1 (20 <= 31 - 10) joins; o3,
  // older than 31 - 10 by the restored buffer's stream time, joins at once.
  await send("prices", "p", "15", 15);
  await send("orders", "p", "o2", 31);
  await send("orders", "p", "o3", 5);
  await harness.producer.send({ topic: `${id}-orders`, acks: -1, messages: [{ key: "p", value: null, timestamp: "32" }] });
  const outputs = await harness.readTopic(`${id}-out`, (records) => records.length >= 2);
  assert.equal(outputs.map((record) => record.value?.toString()), ["o1@15", "o3@null"]);
  const dropped = () =>
    second
      .application(id)!
      .metrics()
      .filter((group) => group.name === "stream-task-metrics")
      .flatMap((group) => group.metrics)
      .filter((metric) => metric.name === "dropped-records-total")
      .reduce((sum, metric) => sum + Number(metric.value), 0);
  await eventually(() => dropped() === 1, { what: "the null-value order counted in dropped-records-total", timeoutMs: 15_000 });
  await second.close(5_000);
});

test.run();
