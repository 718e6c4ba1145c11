/**
 * Windowed keys with a registry serde, as Kafka Streams' WindowedSerdes wrap SpecificAvroSerde: a windowed count whose
 * key is written by `avro` keeps it in its window store and writes it to its output topic as the time-windowed layout
 * (the inner key's Confluent-framed Avro bytes, then the window start), the inner key under the output topic's key
 * subject, so that Confluent's AvroDeserializer reads the key once the window start is taken off.
 */
import { AvroDeserializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import * as assert from "uvu/assert";
import type { TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";
import { TimeWindows } from "../../../../providers/streams";
import { readUntil, registrySuite } from "./registry-topics";

const WORD = { type: "record", name: "Word", namespace: "test", fields: [{ name: "word", type: "string" }] };
const MINUTE = 60_000;
/** The start of a minute window. */
const WINDOW_START = 28_333_334 * MINUTE;

function wordsPerMinute(id: string, registryUrl: string): TopologyProvider {
  return {
    name: id,
    version: "1.0.0",
    config: { "application.id": id, "schema.registry.url": registryUrl, "auto.register.schemas": true },
    topology: (builder) =>
      builder
        .stream<string, string>(`${id}-in`, { keySerde: "string", valueSerde: "string" })
        .groupBy((_key, word) => ({ word }), { keySerde: { serde: "avro", schema: WORD }, valueSerde: "string" })
        .windowedBy(TimeWindows.ofSizeWithNoGrace(MINUTE))
        .count({ storeName: "per-minute" })
        .toStream()
        .to(`${id}-out`, { valueSerde: "long" }),
  };
}

const test = registrySuite("registry serdes in windowed keys");

test("a windowed count keyed by avro writes time-windowed keys whose inner key AvroDeserializer reads, registered under the output's key subject", async ({ harness, registryUrl }) => {
  const words = ["a", "b", "a"];
  await harness.producer.send({ topic: "wk-in", messages: words.map((word, i) => ({ key: `k${i}`, value: word, timestamp: String(WINDOW_START + i * 1000) })) });
  await harness.runtime([wordsPerMinute("wk", registryUrl)]).start();
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const keys = new AvroDeserializer(client, SerdeType.KEY, {});
  const counts = new Map<string, [number, bigint]>();
  await readUntil(harness, "wk-out", async (message) => {
    const key = message.key!;
    const inner = (await keys.deserialize("wk-out", key.subarray(0, key.length - 8))) as { word: string };
    counts.set(inner.word, [Number(key.readBigInt64BE(key.length - 8)), message.value!.readBigInt64BE(0)]);
    return counts.get("a")?.[1] === 2n && counts.get("b")?.[1] === 1n;
  });
  assert.equal([...counts].sort(), [["a", [WINDOW_START, 2n]], ["b", [WINDOW_START, 1n]]]);
  const registered = await client.getLatestSchemaMetadata("wk-out-key");
  assert.equal(JSON.parse(registered.schema), WORD);
});

test.run();
