/**
 * Runs a scenario's Sluice topology (topology.ts beside its script) in Sluice's TopologyTestDriver and collects
 * what the Java recorder collects from Kafka Streams, in the same shape.
 */
import { TopologyTestDriver } from "../../providers/streams/testing/topology-test-driver";
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import type { ReadOnlyStore, WindowedEntry } from "../../kernel/contracts/streams/stores";
import type { Golden, GoldenOutput, StoreEntry } from "./golden-file";
import { actionsOf, type Header, type JsonValue, type ScenarioScript, type TopicSerde } from "./scenario-script";
import { decode, encode, keepsBytes } from "./topic-codec";

/** What both sides agree on unless the script says otherwise (the Java recorder's baseline). */
const BASELINE_CONFIG = { "application.id": "golden", "default.key.serde": "string", "default.value.serde": "string", "statestore.cache.max.bytes": 0 };

export type ScenarioTopology = (builder: StreamsBuilder) => void;

export async function runInSluice(script: ScenarioScript, topology: ScenarioTopology, storeNames: string[]): Promise<Golden> {
  const partitions = script.partitions ?? 1;
  const driver = await TopologyTestDriver.create(topology, {
    config: { ...BASELINE_CONFIG, ...script.config },
    partitions,
    startTimeMs: script.wallClockStart ?? 0,
  });
  const golden: Golden = { outputs: [], storeReads: [], stores: {} };
  try {
    for (const [at, action] of actionsOf(script).entries()) {
      if (action.kind === "pipe") {
        const serdes = script.topics[action.topic];
        const headers = action.headers.map(([key, value]) => ({ key, value: value === null ? null : Buffer.from(value, "utf8") }));
        const record = { key: encode(serdes.key, action.key), value: encode(serdes.value, action.value), timestamp: action.timestamp, headers, partition: action.partition };
        await driver.pipeInput<Buffer | null, Buffer | null>(action.topic, [record], { key: "bytes", value: "bytes" });
      } else if (action.kind === "advance") {
        await driver.advanceWallClock(action.ms);
      } else {
        golden.storeReads.push({ at, store: action.store, entries: await dumpStore(driver, action.store, partitions) });
      }
      for (const topic of driver.producedTopicNames().sort()) golden.outputs.push(...readOutputs(driver, script, topic, at));
    }
    for (const name of storeNames) golden.stores[name] = await dumpStore(driver, name, partitions);
  } finally {
    await driver.close();
  }
  return golden;
}

function readOutputs(driver: TopologyTestDriver, script: ScenarioScript, topic: string, at: number): GoldenOutput[] {
  const serdes = script.topics[topic];
  if (serdes === undefined) throw new Error(`the topology wrote to '${topic}', which script.json does not declare`);
  return driver.readOutput<Buffer | null, Buffer | null>(topic, { key: "bytes", value: "bytes" }).map((record) => {
    const output: GoldenOutput = { at, topic, key: decodeOrHex(serdes.key, record.key), value: decodeOrHex(serdes.value, record.value), timestamp: record.timestamp! };
    if (keepsBytes(serdes.key) && record.key !== null) output.keyBytes = record.key.toString("hex");
    if (keepsBytes(serdes.value) && record.value !== null) output.valueBytes = record.value.toString("hex");
    const headers = [...record.headers].map(({ key, value }): Header => [key, value === null ? null : value.toString("utf8")]);
    if (headers.length > 0) output.headers = headers;
    return output;
  });
}

/** Bytes that do not read with the declared serde show as themselves: the comparison then names the field. */
function decodeOrHex(serde: TopicSerde, bytes: Buffer | null): JsonValue {
  try {
    return decode(serde, bytes);
  } catch (error) {
    return { undecodable: bytes!.toString("hex"), error: (error as Error).message };
  }
}

/** Every partition's part of the store, as one store. */
async function dumpStore(driver: TopologyTestDriver, name: string, partitions: number): Promise<StoreEntry[]> {
  const entries: StoreEntry[] = [];
  for (let partition = 0; partition < partitions; partition++) entries.push(...(await entriesOf(driver.store(name, partition))));
  return entries;
}

const EARLIEST = Number.MIN_SAFE_INTEGER;
const LATEST = Number.MAX_SAFE_INTEGER;

async function entriesOf(store: ReadOnlyStore): Promise<StoreEntry[]> {
  const entries: StoreEntry[] = [];
  const windowed = (entry: WindowedEntry<unknown, unknown>, timestamp?: number): StoreEntry => ({
    key: asJson(entry.key),
    start: entry.windowStart,
    end: entry.windowEnd,
    value: asJson(entry.value),
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  switch (store.type) {
    case "key_value":
      for await (const { key, value } of store.store.all()) entries.push({ key: asJson(key), value: asJson(value) });
      break;
    case "timestamped_key_value":
      for await (const { key, value } of store.store.all()) entries.push({ key: asJson(key), value: asJson(value.value), timestamp: value.timestamp });
      break;
    case "window":
      for await (const entry of store.store.fetchAll(EARLIEST, LATEST)) entries.push(windowed(entry));
      break;
    case "timestamped_window":
      for await (const entry of store.store.fetchAll(EARLIEST, LATEST)) entries.push(windowed(entry, entry.timestamp));
      break;
    case "session":
      for await (const entry of store.store.fetchKeyRange(undefined, undefined)) entries.push(windowed(entry));
      break;
  }
  return entries;
}

/** A store's key or value as the goldens write it: bytes as hex, the rest as JSON. */
function asJson(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (Buffer.isBuffer(value)) return value.toString("hex");
  return value as JsonValue;
}
