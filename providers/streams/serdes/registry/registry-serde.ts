/**
 * A schema registry serde: bytes framed as Confluent's serializers frame them (a magic byte, the schema's id, the
 * body), with the schemas kept in a schema registry. Confluent's own package reads and writes the frame, talks to the
 * registry and names subjects; a SchemaFormat (avro-format, json-format) turns a registered schema into the codec of
 * its bodies.
 *
 * The serde contract is synchronous and a registry answers over HTTP, so the schemas are fetched ahead:
 * `prepareDeserialize` fetches the schema a record names when it is not cached yet (the runtime awaits it before the
 * record, and only then), and `prepareSerialize` fetches the writer schema of a topic's subject before a task's first
 * record. Records are then read and written from the caches without waiting.
 */
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import type { ConfluentPackage, RegisteredSchema, RegistryClient } from "./confluent-package";
import type { SubjectStrategy } from "./registry-settings";

export type SerdeRole = "key" | "value";

/** How one schema type's bodies are read and written once its schema is known. */
export interface SchemaFormat<Codec> {
  /** The serde's name, as topologies give it (`avro`). */
  readonly serdeName: string;
  /** The registry's name of the schema type (`AVRO`). */
  readonly schemaType: string;
  /** The codec of `schema` (its references fetched through `client` when it has some). */
  compile(schema: RegisteredSchema, client: RegistryClient): Promise<Codec>;
  encode(codec: Codec, value: unknown): Buffer;
  decode(codec: Codec, body: Buffer): unknown;
}

interface Writer<Codec> {
  /** The frame: magic byte and schema id. */
  header: Buffer;
  codec: Codec;
}

/** A schema that could not be fetched: what deserialize says of the records that name it, until it is asked again. */
class Failure {
  constructor(readonly reason: string) {}
}

/** A reader being fetched, until it is known. */
class Fetching {
  constructor(readonly done: Promise<void>) {}
}

class Reader<Codec> {
  constructor(readonly codec: Codec) {}
}

export class RegistrySerde<Codec> implements Serde<unknown> {
  readonly name: string;
  /** The writers' codecs by schema id (or guid), as the records name them. */
  private readonly readers = new Map<number | string, Reader<Codec> | Failure | Fetching>();
  private readonly writers = new Map<string, Writer<Codec>>();

  constructor(
    private readonly format: SchemaFormat<Codec>,
    private readonly pkg: ConfluentPackage,
    private readonly client: RegistryClient,
    private readonly role: SerdeRole,
    private readonly strategy: SubjectStrategy,
  ) {
    this.name = format.serdeName;
  }

  serialize(value: unknown, topic?: string): Buffer {
    if (topic === undefined) throw new Error(`the ${this.name} serde writes to topics only (its subject comes from the topic): it cannot serialize a ${this.role} outside one`);
    const writer = this.writers.get(topic);
    if (writer === undefined) throw new Error(`the ${this.name} serde has no writer schema for topic '${topic}' (it is fetched before the task's first record)`);
    return Buffer.concat([writer.header, this.format.encode(writer.codec, value)]);
  }

  deserialize(bytes: Buffer): unknown {
    // The common case without an allocation: magic byte 0 and a 4-byte id already fetched.
    if (bytes[0] === 0 && bytes.length >= 5) {
      const known = this.readers.get(bytes.readInt32BE(1));
      if (known instanceof Reader) return this.format.decode(known.codec, bytes.subarray(5));
    }
    const unframed = framingProblem(bytes);
    if (unframed !== undefined) throw new Error(unframed);
    const schemaId = this.pkg.schemaId(this.format.schemaType);
    const start = schemaId.fromBytes(bytes);
    const key = schemaId.id ?? schemaId.guid!;
    const reader = this.readers.get(key);
    if (reader instanceof Reader) return this.format.decode(reader.codec, start === 0 ? bytes : bytes.subarray(start));
    if (!(reader instanceof Failure)) throw new Error(`schema ${describe(key)} was not fetched from the registry`);
    // Asked again at the next record that names it: the registry may have been unreachable for a moment.
    this.readers.delete(key);
    throw new Error(`schema ${describe(key)}: ${reader.reason}`);
  }

  prepareDeserialize(bytes: Buffer, start: number, end: number): Promise<void> | undefined {
    // The common case without an allocation: magic byte 0 and a 4-byte id already known.
    if (bytes[start] === 0 && end - start >= 5) {
      const known = this.readers.get(bytes.readInt32BE(start + 1));
      if (known !== undefined) return known instanceof Fetching ? known.done : undefined;
    }
    const schemaId = this.pkg.schemaId(this.format.schemaType);
    try {
      schemaId.fromBytes(bytes.subarray(start, end));
    } catch {
      return undefined; // not framed: deserialize says so
    }
    const key = schemaId.id ?? schemaId.guid!;
    const known = this.readers.get(key);
    if (known !== undefined) return known instanceof Fetching ? known.done : undefined;
    const fetching = this.fetchReader(schemaId).then(
      (codec) => void this.readers.set(key, new Reader(codec)),
      (error: Error) => void this.readers.set(key, new Failure(`cannot be read from the registry: ${error.message}`)),
    );
    this.readers.set(key, new Fetching(fetching));
    return fetching;
  }

  async prepareSerialize(topic: string): Promise<void> {
    if (this.writers.has(topic)) return;
    if (this.strategy !== "topic") {
      throw new Error(`the ${this.name} serde writes a ${this.role} to '${topic}' with ${this.role}.subject.name.strategy=topic only: with '${this.strategy}' its subject comes from the record's schema, which a JavaScript value does not carry`);
    }
    const subject = await this.pkg.topicSubject(topic, this.role);
    let latest;
    try {
      latest = await this.client.getLatestSchemaMetadata(subject);
    } catch (error) {
      throw new Error(`the ${this.name} serde cannot write to '${topic}': no schema of subject '${subject}' in the registry (${(error as Error).message}); register the ${this.role} schema first`);
    }
    const schemaType = latest.schemaType ?? "AVRO";
    if (schemaType !== this.format.schemaType) throw new Error(`subject '${subject}' holds a ${schemaType} schema, not ${this.format.schemaType}`);
    const header = this.pkg.schemaId(this.format.schemaType, latest.id).idToBytes();
    const codec = await this.format.compile(latest, this.client);
    this.writers.set(topic, { header, codec });
    // What it writes, it reads back without asking (a store reads its own bytes, and a store has no prepareDeserialize).
    if (latest.id !== undefined && !(this.readers.get(latest.id) instanceof Reader)) this.readers.set(latest.id, new Reader(codec));
  }

  private async fetchReader(schemaId: { id?: number; guid?: string }): Promise<Codec> {
    const info = schemaId.id !== undefined ? await this.client.getBySubjectAndId("", schemaId.id) : await this.client.getByGuid(schemaId.guid!);
    const schemaType = info.schemaType ?? "AVRO";
    if (schemaType !== this.format.schemaType) throw new Error(`it is a ${schemaType} schema, not ${this.format.schemaType}`);
    return this.format.compile(info, this.client);
  }
}

/** The frame's first byte: 0 before a 4-byte schema id, or 1 before a 16-byte schema guid (Confluent's newer frame). */
const FRAME_LENGTHS = new Map([
  [0, 5],
  [1, 17],
]);

/** Why `bytes` is not a registry frame, in words that point at the cause (a topic written without the registry); none when it is one. */
function framingProblem(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return "not Confluent-framed (an empty record, expected magic byte 0 and a schema id)";
  const length = FRAME_LENGTHS.get(bytes[0]);
  if (length === undefined) return `not Confluent-framed (magic byte ${bytes[0]}, expected 0)`;
  if (bytes.length < length) return `not Confluent-framed (${bytes.length} bytes, shorter than the ${length}-byte frame of magic byte ${bytes[0]})`;
  return undefined;
}

function describe(key: number | string): string {
  return typeof key === "number" ? `id ${key}` : `guid ${key}`;
}
