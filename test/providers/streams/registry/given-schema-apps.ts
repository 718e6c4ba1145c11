/** What the tests of registry serdes given their schema share: the sentences application, and reading what it writes or why it stopped. */
import { AvroDeserializer, JsonDeserializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import type { RegistrySerdeRef } from "../../../../kernel/contracts/streams/dsl";
import type { ConfigValue, TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../../helpers/eventually";
import type { Harness } from "../streams-harness";
import { readUntil, type RecordReader } from "./registry-topics";

/** Application `id`: the strings of `<id>-in` as Sentence records to `<id>-out`, written with `valueSerde`. */
export function sentences(id: string, valueSerde: RegistrySerdeRef | "avro" | "json_schema", config: Record<string, ConfigValue>): TopologyProvider {
  return {
    name: id,
    version: "1.0.0",
    config: { "application.id": id, ...config },
    topology: (builder) =>
      builder
        .stream<string, string>(`${id}-in`, { keySerde: "string", valueSerde: "string" })
        .mapValues((text) => ({ text, language: "en" }))
        .to(`${id}-out`, { keySerde: "string", valueSerde }),
  };
}

export async function send(harness: Harness, topic: string, texts: string[]): Promise<void> {
  await harness.producer.send({ topic, messages: texts.map((text, i) => ({ key: `k${i}`, value: text })) });
}

/** The schema id and the value `reader` (AvroDeserializer by default) reads of each of the first `count` records of `topic`. */
export async function framedValues(harness: Harness, registryUrl: string, topic: string, count: number, reader: RecordReader = new AvroDeserializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, {})): Promise<[number, unknown][]> {
  const read: [number, unknown][] = [];
  await readUntil(harness, topic, async (message) => {
    read.push([message.value!.readInt32BE(1), { ...((await reader.deserialize(topic, message.value!)) as object) }]);
    return read.length >= count;
  });
  return read;
}

/**
 * Application `id` writing `text` with `json_schema` given `schema`: what JsonDeserializer (validating) reads of the
 * record, with its schema id, and the latest schema of `subject`, where the serde should have registered it.
 */
export async function jsonSentence(harness: Harness, registryUrl: string, id: string, schema: object, config: Record<string, ConfigValue>, subject: string, text: string) {
  await send(harness, `${id}-in`, [text]);
  await harness.runtime([sentences(id, { serde: "json_schema", schema }, { "schema.registry.url": registryUrl, "auto.register.schemas": true, ...config })]).start();
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const read = await framedValues(harness, registryUrl, `${id}-out`, 1, new JsonDeserializer(client, SerdeType.VALUE, { validate: true }));
  return { read, registered: await client.getLatestSchemaMetadata(subject) };
}

/** The exception of `provider`'s application once it is in ERROR. */
export async function failure(harness: Harness, provider: TopologyProvider): Promise<string> {
  const runtime = harness.runtime([provider]);
  await runtime.start();
  const app = await eventually(() => {
    const handle = runtime.application(String(provider.config["application.id"]));
    return handle?.state === "ERROR" && handle;
  }, { what: `${provider.name} in ERROR`, timeoutMs: 20_000 });
  return String(app.exception);
}
