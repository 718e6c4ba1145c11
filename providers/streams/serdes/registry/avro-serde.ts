/**
 * The `avro` serde: Avro bytes framed as Confluent's serializers frame them (a magic byte, the schema's id, the Avro
 * body), with the schemas kept in a schema registry. Confluent's own package reads and writes the frame, talks to the
 * registry and names subjects; avsc (which that package uses too) encodes and decodes the bodies.
 *
 * The serde contract is synchronous and a registry answers over HTTP, so the schemas are fetched ahead:
 * `prepareDeserialize` fetches the schema a record names when it is not cached yet (the runtime awaits it before the
 * record, and only then), and `prepareSerialize` fetches the writer schema of a topic's subject before a task's first
 * record. Records are then read and written from the caches without waiting.
 *
 * Reading gives avsc's plain values: records as objects of their fields, unions unwrapped where their branches do not
 * overlap, `long` as a number, `bytes` and `fixed` as Buffers — what Kafka's generic reading gives, in JavaScript form
 * (there are no generated classes for a `specific.avro.reader` to make).
 */
import { Type } from "avsc";
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import type { ConfluentPackage, RegistryClient } from "./confluent-package";
import type { SubjectStrategy } from "./registry-settings";

export type SerdeRole = "key" | "value";

interface Writer {
  /** The frame: magic byte and schema id. */
  header: Buffer;
  type: Type;
}

/** A schema that could not be fetched: what deserialize says of the records that name it, until it is asked again. */
interface Failure {
  reason: string;
}

export class AvroRegistrySerde implements Serde<unknown> {
  readonly name = "avro";
  /** The writers' types by schema id (or guid), as the records name them. */
  private readonly readers = new Map<number | string, Type | Failure | Promise<void>>();
  private readonly writers = new Map<string, Writer>();

  constructor(
    private readonly pkg: ConfluentPackage,
    private readonly client: RegistryClient,
    private readonly role: SerdeRole,
    private readonly strategy: SubjectStrategy,
  ) {}

  serialize(value: unknown, topic?: string): Buffer {
    if (topic === undefined) throw new Error(`the avro serde writes to topics only (its subject comes from the topic): it cannot serialize a ${this.role} outside one`);
    const writer = this.writers.get(topic);
    if (writer === undefined) throw new Error(`the avro serde has no writer schema for topic '${topic}' (it is fetched before the task's first record)`);
    return Buffer.concat([writer.header, writer.type.toBuffer(value)]);
  }

  deserialize(bytes: Buffer): unknown {
    // The common case without an allocation: magic byte 0 and a 4-byte id already fetched.
    if (bytes[0] === 0 && bytes.length >= 5) {
      const known = this.readers.get(bytes.readInt32BE(1));
      if (known instanceof Type) return known.fromBuffer(bytes.subarray(5));
    }
    const unframed = framingProblem(bytes);
    if (unframed !== undefined) throw new Error(unframed);
    const schemaId = this.pkg.schemaId("AVRO");
    const start = schemaId.fromBytes(bytes);
    const key = schemaId.id ?? schemaId.guid!;
    const reader = this.readers.get(key);
    if (reader instanceof Type) return reader.fromBuffer(start === 0 ? bytes : bytes.subarray(start));
    if (reader === undefined || reader instanceof Promise) throw new Error(`schema ${describe(key)} was not fetched from the registry`);
    // Asked again at the next record that names it: the registry may have been unreachable for a moment.
    this.readers.delete(key);
    throw new Error(`schema ${describe(key)}: ${reader.reason}`);
  }

  prepareDeserialize(bytes: Buffer, start: number, end: number): Promise<void> | undefined {
    // The common case without an allocation: magic byte 0 and a 4-byte id already known.
    if (bytes[start] === 0 && end - start >= 5) {
      const known = this.readers.get(bytes.readInt32BE(start + 1));
      if (known !== undefined) return known instanceof Promise ? known : undefined;
    }
    const schemaId = this.pkg.schemaId("AVRO");
    try {
      schemaId.fromBytes(bytes.subarray(start, end));
    } catch {
      return undefined; // not framed: deserialize says so
    }
    const key = schemaId.id ?? schemaId.guid!;
    const known = this.readers.get(key);
    if (known !== undefined) return known instanceof Promise ? known : undefined;
    const fetching = this.fetchReader(schemaId).then(
      (type) => void this.readers.set(key, type),
      (error: Error) => void this.readers.set(key, { reason: `cannot be read from the registry: ${error.message}` }),
    );
    this.readers.set(key, fetching);
    return fetching;
  }

  async prepareSerialize(topic: string): Promise<void> {
    if (this.writers.has(topic)) return;
    if (this.strategy !== "topic") {
      throw new Error(`the avro serde writes a ${this.role} to '${topic}' with ${this.role}.subject.name.strategy=topic only: with '${this.strategy}' its subject comes from the record's schema, which a JavaScript value does not carry`);
    }
    const subject = await this.pkg.topicSubject(topic, this.role);
    let latest;
    try {
      latest = await this.client.getLatestSchemaMetadata(subject);
    } catch (error) {
      throw new Error(`the avro serde cannot write to '${topic}': no schema of subject '${subject}' in the registry (${(error as Error).message}); register the ${this.role} schema first`);
    }
    if ((latest.schemaType ?? "AVRO") !== "AVRO") throw new Error(`subject '${subject}' holds a ${latest.schemaType} schema, not AVRO`);
    const header = this.pkg.schemaId("AVRO", latest.id).idToBytes();
    const type = Type.forSchema(JSON.parse(latest.schema));
    this.writers.set(topic, { header, type });
    // What it writes, it reads back without asking (a store reads its own bytes, and a store has no prepareDeserialize).
    if (latest.id !== undefined && !(this.readers.get(latest.id) instanceof Type)) this.readers.set(latest.id, type);
  }

  private async fetchReader(schemaId: { id?: number; guid?: string }): Promise<Type> {
    const info = schemaId.id !== undefined ? await this.client.getBySubjectAndId("", schemaId.id) : await this.client.getByGuid(schemaId.guid!);
    if ((info.schemaType ?? "AVRO") !== "AVRO") throw new Error(`it is a ${info.schemaType} schema, not AVRO`);
    return Type.forSchema(JSON.parse(info.schema));
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
