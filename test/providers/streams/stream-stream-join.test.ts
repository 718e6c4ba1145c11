/**
 * Stream-stream joins through the public surface: the JoinWindows and StreamJoined factories "sluice" exports, the
 * errors a topology gets for what Kafka Streams refuses, and what the join's stores are. The join's results are
 * proven against Kafka Streams by the golden scenarios stream-stream-*.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { JoinWindows, StreamJoined, Stores, TopologyTestDriver, type StreamsBuilder, type WindowStore } from "../../../index";

const test = suite("stream-stream joins");

function throwsWith(run: () => unknown, message: RegExp): void {
  try {
    run();
  } catch (error) {
    assert.match((error as Error).message, message);
    return;
  }
  assert.unreachable(`expected an error matching ${message}`);
}

test("JoinWindows keeps Kafka Streams' bounds and refuses a negative interval or grace", () => {
  const windows = JoinWindows.ofTimeDifferenceAndGrace(10, 5);
  assert.equal([windows.beforeMs, windows.afterMs, windows.graceMs, windows.size(), windows.gracePeriodMs()], [10, 10, 5, 20, 5]);
  const shifted = windows.before(-5).after(15);
  assert.equal([shifted.beforeMs, shifted.afterMs, shifted.graceMs, shifted.size()], [-5, 15, 5, 10]);
  assert.equal([windows.beforeMs, windows.afterMs], [10, 10], "before and after return new windows");
  assert.is(JoinWindows.ofTimeDifferenceWithNoGrace(7).graceMs, 0);
  throwsWith(() => JoinWindows.ofTimeDifferenceWithNoGrace(-1), /window interval .* must not be negative/);
  throwsWith(() => JoinWindows.ofTimeDifferenceAndGrace(10, -1), /grace period must not be negative/);
  throwsWith(() => JoinWindows.ofTimeDifferenceWithNoGrace(10).before(-11), /window interval \(before -11 ms \+ after 10 ms\) must not be negative/);
  throwsWith(() => JoinWindows.ofTimeDifferenceWithNoGrace(1.5), /whole number of milliseconds/);
});

test("StreamJoined's factory returns a new value per call", () => {
  const base = StreamJoined.with("string", "json", "long");
  const named = base.withStoreName("pairs").withName("join").withLoggingEnabled({ "retention.ms": "1000" });
  assert.equal([base.storeName, base.name, base.topicConfig], [undefined, undefined, undefined]);
  assert.equal([named.keySerde, named.valueSerde, named.otherValueSerde, named.storeName, named.name, named.topicConfig], ["string", "json", "long", "pairs", "join", { "retention.ms": "1000" }]);
  assert.is(StreamJoined.as("x").storeName, "x");
});

test("a stream-stream join needs windows, and outerJoin takes only a stream", async () => {
  const build = (topology: (builder: StreamsBuilder) => void) => TopologyTestDriver.create(topology);
  for (const [what, topology] of [
    ["no windows", (builder: StreamsBuilder) => builder.stream("a").join(builder.stream("b") as never, (l: string, r: string) => l + r)],
    ["a table", (builder: StreamsBuilder) => builder.stream("a").outerJoin(builder.table("b") as never, (l, r) => `${l}${r}`, JoinWindows.ofTimeDifferenceWithNoGrace(1))],
  ] as const) {
    try {
      await build(topology);
      assert.unreachable(`${what}: built`);
    } catch (error) {
      assert.match((error as Error).message, what === "no windows" ? /needs JoinWindows/ : /outerJoin takes a KStream/);
    }
  }
});

test("the join's stores are named after StreamJoined and hold each side for size + grace; the shared store is walked in order, uncached", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder
      .stream("left")
      .outerJoin(builder.stream("right"), (l, r) => `${l}/${r}`, JoinWindows.ofTimeDifferenceAndGrace(10, 5), StreamJoined.as<string, string, string>("pairs").withLoggingEnabled({ "min.insync.replicas": "2" }))
      .to("out");
  });
  try {
    const stores = driver.topology.definition.stores;
    assert.equal([...stores.keys()].sort(), ["pairs-outer-shared-join-store", "pairs-outer-other-join-store", "pairs-outer-this-join-store"].sort());
    const window = stores.get("pairs-outer-this-join-store")!;
    assert.equal([window.type, window.windowSizeMs, window.retentionMs, window.retainDuplicates, window.changelogConfigs], ["window", 20, 25, true, { "min.insync.replicas": "2" }]);
    const shared = stores.get("pairs-outer-shared-join-store")!;
    assert.equal([shared.type, shared.rangeable, shared.caching, shared.changelogConfigs], ["key_value", true, false, { "min.insync.replicas": "2" }]);
    await driver.pipeInput("left", [{ key: "a", value: "L", timestamp: 100 }]);
    await driver.pipeInput("right", [{ key: "a", value: "R", timestamp: 108 }]);
    assert.equal(driver.readOutput("out").map((record) => [record.value, record.timestamp]), [["L/R", 108]]);
  } finally {
    await driver.close();
  }
});

test("the Stores factory offers window stores that retain duplicates to processors, as the join's own are", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("seen", 100, 10, true), "string", "string"));
    builder.stream<string, string>("in").process(() => {
      let store!: WindowStore<string, string>;
      let forward!: (record: { key: string; value: string; timestamp: number }) => void;
      return {
        init: (context) => {
          store = context.getStateStore("seen");
          forward = (record) => context.forward(record);
        },
        process: (record) => {
          store.put(record.key, record.value, record.timestamp);
          forward({ key: record.key, value: store.fetchRange(record.key, 0, record.timestamp).map((window) => window.value).join(","), timestamp: record.timestamp });
        },
      };
    }, ["seen"]).to("out");
  });
  try {
    await driver.pipeInput("in", [{ key: "a", value: "x", timestamp: 5 }, { key: "a", value: "y", timestamp: 5 }, { key: "a", value: "z", timestamp: 6 }]);
    assert.equal(driver.readOutput("out").map((record) => record.value), ["x", "x,y", "x,y,z"]);
  } finally {
    await driver.close();
  }
});

test.run();
