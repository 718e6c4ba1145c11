/** What the registry serde tests share: a Sluice (whose registry they use) with a streams harness, and reading output topics with kafkajs and Confluent's deserializers. */
import type { KafkaMessage } from "kafkajs";
import { suite } from "uvu";
import { eventually } from "../../../helpers/eventually";
import { startSluice, type RunningSluice } from "../../../helpers/sluice";
import { startHarness, type Harness } from "../streams-harness";

export interface RegistryContext {
  sluice: RunningSluice;
  harness: Harness;
  registryUrl: string;
}

/** A suite whose tests share one Sluice, its built-in registry's URL, and a streams harness. */
export function registrySuite(name: string) {
  const test = suite<RegistryContext>(name);
  test.before(async (context) => {
    context.sluice = await startSluice();
    context.harness = await startHarness();
    context.registryUrl = `${context.sluice.url}/schema-registry`;
  });
  test.after(async ({ sluice, harness }) => {
    await harness?.close();
    await sluice?.close();
  });
  return test;
}

/** What Confluent's deserializers (AvroDeserializer, JsonDeserializer, …) offer. */
export interface RecordReader {
  deserialize(topic: string, payload: Buffer): Promise<unknown>;
}

/** Reads `topic` from its start with kafkajs until `enough` says so (asked after each record, which it may keep). */
export async function readUntil(harness: Harness, topic: string, enough: (message: KafkaMessage) => Promise<boolean>): Promise<void> {
  const consumer = harness.kafka.consumer({ groupId: `reader-${topic}-${Date.now()}`, maxWaitTimeInMs: 100 });
  let done = false;
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void (done ||= await enough(message)) });
    await eventually(() => done, { what: `enough records of ${topic}`, timeoutMs: 20_000 });
  } finally {
    await consumer.disconnect();
  }
}

/** The last count of each word in `topic`, decoded by `reader` (Confluent's deserializer), once they are `expected` (the record cache may skip intermediate counts). */
export async function countsOf(harness: Harness, topic: string, reader: RecordReader, expected: Record<string, number>): Promise<Map<string, { word: string; count: number }>> {
  const latest = new Map<string, { word: string; count: number }>();
  await readUntil(harness, topic, async (message) => {
    latest.set(message.key!.toString(), (await reader.deserialize(topic, message.value!)) as { word: string; count: number });
    return latest.size === Object.keys(expected).length && Object.keys(expected).every((word) => latest.get(word)?.count === expected[word]);
  });
  return latest;
}

/** The headers of the first `count` records of `topic`. */
export async function headersOf(harness: Harness, topic: string, count: number): Promise<Record<string, string>[]> {
  const read: Record<string, string>[] = [];
  await readUntil(harness, topic, async (message) => {
    read.push(Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)])));
    return read.length >= count;
  });
  return read;
}

