/**
 * The test driver's Kafka Streams face: TestInputTopic and TestOutputTopic with serdes, headers and timestamps,
 * producedTopicNames, and the wall clock.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Stores, TestRecord, TopologyTestDriver, type ProcessorContext, type TimestampedKeyValueStore, type WindowStore } from "../../../index";

import { processorOf } from "../../helpers/processors";

const test = suite("TestInputTopic and TestOutputTopic");

const text = (record: TestRecord<unknown, unknown>) => record.headers.toArray().map(({ key, value }) => `${key}=${value?.toString() ?? "null"}`);

test("records piped with headers and timestamps come out with the headers a processor left them", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder
      .stream<string, string>("in")
      .process(
        processorOf<string, string, string, string>((record, context) => {
          context.forward(record.withValue(record.value.toUpperCase()));
          record.headers.remove("drop");
        }),
      )
      .mapValues((value) => value.length)
      .to("out", { valueSerde: "int" });
  }, { startTimeMs: 1_000 });
  const input = driver.createInputTopic<string, string>("in", "string", "string", { autoAdvanceMs: 10 });
  const output = driver.createOutputTopic<string, number>("out", "string", "int");
  assert.ok(output.isEmpty());
  await input.pipeInput(new TestRecord("a", "one", [{ key: "trace", value: Buffer.from("t1") }, { key: "drop", value: null }], 5));
  await input.pipeInput("b", "three");
  await input.pipeInput("nokey");
  input.advanceTime(100);
  await input.pipeKeyValueList([{ key: "c", value: "x" }, { key: "d", value: "yy" }]);
  await input.pipeKeyValueList([{ key: "e", value: "zzz" }], 50, 5);
  await input.pipeRecordList([{ key: "f", value: "four", timestamp: 7, headers: [{ key: "h", value: Buffer.from("v") }] }]);
  assert.is(output.getQueueSize(), 7);
  const first = output.readRecord();
  assert.equal([first.key, first.value, first.timestamp, text(first)], ["a", 3, 5, ["trace=t1", "drop=null"]]);
  assert.equal(output.readKeyValue(), { key: "b", value: 5 });
  assert.equal(output.readRecordsToList().map((record) => [record.key, record.value, record.timestamp, text(record)]), [
    [null, 5, 1_010, []],
    ["c", 1, 1_120, []],
    ["d", 2, 1_130, []],
    ["e", 3, 50, []],
    ["f", 4, 7, ["h=v"]],
  ]);
  assert.throws(() => output.readValue(), /Empty topic: out/);
  assert.equal(driver.producedTopicNames(), ["out"]);
  await driver.close();
});

test("readKeyValuesToMap keeps each key's last value, readValuesToList every value", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder.stream<string, string>("in").groupByKey().count({ storeName: "counts" }).toStream().to("counts", { valueSerde: "long" });
  });
  const input = driver.createInputTopic<string, string>("in");
  await input.pipeValueList([]);
  await input.pipeKeyValueList(["a", "b", "a"].map((key) => ({ key, value: "x" })));
  const output = driver.createOutputTopic<string, number>("counts", undefined, "long");
  assert.is(output.getQueueSize(), 3);
  assert.equal([...output.readKeyValuesToMap()], [["a", 2], ["b", 1]]);
  await input.pipeInput("c", "x");
  assert.equal(output.readValuesToList(), [1]);
  await driver.close();
});

test("advanceWallClockTime runs wall-clock punctuators; the old advanceWallClock name still works", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder
      .stream<string, string>("in")
      .process<string, string>(() => ({
        init(context: ProcessorContext<string, string>) {
          context.schedule(100, "wall_clock_time", (time) => context.forward({ key: "tick", value: String(time), timestamp: time }));
        },
        process() {},
      }))
      .to("ticks");
  });
  const ticks = driver.createOutputTopic<string, string>("ticks");
  await driver.advanceWallClockTime(100);
  await driver.advanceWallClock(100);
  assert.equal(ticks.readValuesToList(), ["100", "200"]);
  const refused = await driver.advanceWallClockTime(-1).then(() => undefined, (error: Error) => error);
  assert.match(String(refused), /negative/);
  await driver.close();
});

test("typed store getters give the stores as processors see them; Stores builders declare them", async () => {
  const driver = await TopologyTestDriver.create((builder) => {
    builder.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore("latest"), "string", "long").withCachingEnabled());
    builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("windows", 1_000, 10), "string", "long"));
    builder
      .stream<string, string>("in")
      .process(
        processorOf<string, string, string, string>((record, context) => {
          context.getStateStore<TimestampedKeyValueStore<string, number>>("latest").put(record.key, record.value.length, record.timestamp);
          context.getStateStore<WindowStore<string, number>>("windows").put(record.key, record.value.length, record.timestamp - (record.timestamp % 10));
        }),
        ["latest", "windows"],
      );
  });
  await driver.createInputTopic<string, string>("in").pipeInput("k", "abc", 25);
  assert.equal(driver.getTimestampedKeyValueStore<string, number>("latest").get("k"), { value: 3, timestamp: 25 });
  assert.equal([...driver.getTimestampedKeyValueStore<string, number>("latest").all()].map(({ key }) => key), ["k"]);
  assert.is(driver.getWindowStore<string, number>("windows").fetch("k", 20), 3);
  assert.equal([...driver.getAllStateStores().keys()].sort(), ["latest", "windows"]);
  assert.throws(() => driver.getKeyValueStore("latest"), /timestamped_key_value store, not key_value/);
  assert.throws(() => Stores.persistentWindowStore("w", 5, 10), /must not be shorter than its window/);
  assert.throws(() => Stores.keyValueStoreBuilder(Stores.persistentSessionStore("s", 10)), /session store, not a key_value store/);
  await driver.close();
});

test.run();
