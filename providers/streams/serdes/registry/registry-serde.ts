/**
 * A schema registry serde: bytes framed as Confluent's serializers frame them (a magic byte, the schema's id, what the
 * format writes after it, the body), with the schemas kept in a schema registry. Confluent's own package reads and
 * writes the frame, talks to the registry and names subjects; a SchemaFormat (avro-format, json-format,
 * protobuf-format) turns a registered schema into the codec of its bodies.
 *
 * The serde contract is synchronous and a registry answers over HTTP, so the schemas are fetched ahead:
 * `prepareDeserialize` fetches the schema a record names when it is not cached yet (the runtime awaits it before the
 * record, and only then), and `prepareSerialize` fetches the writer schema of a topic's subject before a task's first
 * record. Records are then read and written from the caches without waiting. A topology may give the serde the schema
 * it writes (`withSchema`), which it registers or looks up under the subject as `auto.register.schemas` and
 * `use.latest.version` say; its record name names the subject under the record strategies (subject-names).
 */
import type { RegistrySerdeRef } from "../../../../kernel/contracts/streams/dsl/serde-ref";
import type { SchemaSerde } from "../serde-resolver";
import type { ConfluentPackage, RegisteredSchema, RegistryClient } from "./confluent-package";
import type { SubjectStrategy, WritingSettings } from "./registry-settings";
import { writingSubject } from "./subject-names";

export type SerdeRole = "key" | "value";

/** How one schema type's bodies are read and written once its schema is known. */
export interface SchemaFormat<Codec> {
  /** The serde's name, as topologies give it (`avro`). */
  readonly serdeName: string;
  /** The registry's name of the schema type (`AVRO`). */
  readonly schemaType: string;
  /** The form the registry is asked to give this type's schemas in (`?format=`, Protobuf's `serialized`); absent: as registered. */
  readonly fetchFormat?: string;
  /** The codec of `schema` (its references fetched through `client` when it has some). */
  compile(schema: RegisteredSchema, client: RegistryClient): Promise<Codec>;
  /** What the frame carries after the schema id when `codec` writes (Protobuf's message indexes, which Confluent's SchemaId writes); absent: nothing. */
  messageIndexes?(codec: Codec): number[];
  encode(codec: Codec, value: unknown): Buffer;
  /** The value of `afterId`, all that follows the frame's schema id (message indexes included, for a format that writes them); `schema` (its id or guid) is for errors. */
  decode(codec: Codec, afterId: Buffer, schema: number | string): unknown;
  /** The codec reading bodies written with `writer` as values of `reader`'s schema; absent: read as written. Throws when they do not match. */
  readAs?(reader: Codec, writer: Codec): Codec;
  /** The format of a serde given `ref` when it says more than the schema (Protobuf's `message`); undefined: this one. */
  withRef?(ref: RegistrySerdeRef): SchemaFormat<Codec> | undefined;
  /**
   * The name the record subject name strategies give `schema` (Confluent's ParsedSchema.name()), or undefined when it
   * has none; `codec` compiles it, for a format that reads the name there. Absent: those strategies are refused.
   */
  recordName?(schema: RegisteredSchema, codec: () => Promise<Codec>): Promise<string | undefined>;
}

interface Writer<Codec> {
  /** The frame: magic byte, schema id and what the format writes after it. */
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

export class RegistrySerde<Codec> implements SchemaSerde<unknown> {
  readonly name: string;
  /** The writers' codecs by schema id (or guid), as the records name them. */
  private readonly readers = new Map<number | string, Reader<Codec> | Failure | Fetching>();
  private readonly writers = new Map<string, Writer<Codec>>();
  /** This serde given each schema a topology gives it, by the schema's text and references. */
  private readonly withSchemas = new Map<string, RegistrySerde<Codec>>();
  private compiledGiven: Promise<Codec> | undefined;

  constructor(
    private readonly format: SchemaFormat<Codec>,
    private readonly pkg: ConfluentPackage,
    private readonly client: RegistryClient,
    private readonly role: SerdeRole,
    private readonly strategy: SubjectStrategy,
    private readonly writing: WritingSettings,
    /** The schema the topology gives it to write, if any. */
    private readonly given?: RegisteredSchema,
  ) {
    this.name = format.serdeName;
  }

  withSchema(ref: RegistrySerdeRef): RegistrySerde<Codec> {
    const given: RegisteredSchema = {
      schemaType: this.format.schemaType,
      schema: typeof ref.schema === "string" ? ref.schema : JSON.stringify(ref.schema),
      ...(ref.references === undefined ? {} : { references: ref.references.map(({ name, subject, version }) => ({ name, subject, version })) }),
    };
    const id = JSON.stringify({ ...ref, schema: given.schema });
    let serde = this.withSchemas.get(id);
    if (serde === undefined) {
      serde = new RegistrySerde(this.format.withRef?.(ref) ?? this.format, this.pkg, this.client, this.role, this.strategy, this.writing, given);
      this.withSchemas.set(id, serde);
    }
    return serde;
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
      const id = bytes.readInt32BE(1);
      const known = this.readers.get(id);
      if (known instanceof Reader) return this.format.decode(known.codec, bytes.subarray(5), id);
    }
    const unframed = framingProblem(bytes);
    if (unframed !== undefined) throw new Error(unframed);
    const { key, end } = this.pkg.frameId(bytes);
    const reader = this.readers.get(key);
    if (reader instanceof Reader) return this.format.decode(reader.codec, bytes.subarray(end), key);
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
    let key: number | string;
    try {
      key = this.pkg.frameId(bytes.subarray(start, end)).key;
    } catch {
      return undefined; // not framed: deserialize says so
    }
    const known = this.readers.get(key);
    if (known !== undefined) return known instanceof Fetching ? known.done : undefined;
    const fetching = this.fetchReader(key).then(
      (codec) => void this.readers.set(key, new Reader(codec)),
      (error: Error) => void this.readers.set(key, new Failure(`cannot be read from the registry: ${error.message}`)),
    );
    this.readers.set(key, new Fetching(fetching));
    return fetching;
  }

  async prepareSerialize(topic: string): Promise<void> {
    if (this.writers.has(topic)) return;
    const given = this.given;
    const subject = await writingSubject(this.pkg, this.strategy, topic, this.role, {
      serdeName: this.name,
      schemaType: this.format.schemaType,
      hasSchema: given !== undefined,
      recordName: async () => given && this.format.recordName?.(given, () => this.givenCodec(given)),
    });
    const { id, schema } = await this.writerSchema(topic, subject);
    const schemaType = schema.schemaType ?? "AVRO";
    if (schemaType !== this.format.schemaType) throw new Error(`subject '${subject}' holds a ${schemaType} schema, not ${this.format.schemaType}`);
    const codec = await this.format.compile(schema, this.client);
    const header = this.pkg.schemaId(this.format.schemaType, id, this.format.messageIndexes?.(codec)).idToBytes();
    this.writers.set(topic, { header, codec });
    // What it writes, it reads back without asking (a store reads its own bytes, and a store has no prepareDeserialize).
    if (id !== undefined && !(this.readers.get(id) instanceof Reader)) this.readers.set(id, new Reader(await this.readerOf(codec)));
  }

  /**
   * The schema records written to `subject` carry, chosen as Kafka's serializers choose it: the given schema registered
   * (`auto.register.schemas=true`), else the subject's latest (`use.latest.version=true`), else the given schema's id
   * looked up under the subject. A serde given no schema writes with the latest only.
   */
  private async writerSchema(topic: string, subject: string): Promise<{ id?: number; schema: RegisteredSchema }> {
    const chosen = await this.chooseWriterSchema(topic, subject);
    const { fetchFormat } = this.format;
    // The given schema as registered, in the form the format reads (the registry parses what it is given, not the serde).
    if (fetchFormat === undefined || chosen.id === undefined || chosen.schema !== this.given) return chosen;
    return { id: chosen.id, schema: await this.client.getBySubjectAndId("", chosen.id, fetchFormat) };
  }

  private async chooseWriterSchema(topic: string, subject: string): Promise<{ id?: number; schema: RegisteredSchema }> {
    const { autoRegister, useLatestVersion } = this.writing;
    const given = this.given;
    const giveIt = `give the serde its schema ({ serde: "${this.name}", schema })`;
    if (given === undefined && autoRegister) throw new Error(`auto.register.schemas=true: the ${this.name} serde writing a ${this.role} to '${topic}' has no schema to register (a JavaScript value carries none); ${giveIt} or set the key false`);
    if (given === undefined && !useLatestVersion) throw new Error(`use.latest.version=false: the ${this.name} serde writing a ${this.role} to '${topic}' has no schema of its own to write with (a JavaScript value carries none); ${giveIt} or leave the key true`);
    if (given !== undefined && autoRegister) {
      try {
        return { id: await this.client.register(subject, given), schema: given };
      } catch (error) {
        throw new Error(`the ${this.name} serde cannot register its ${this.role} schema under subject '${subject}': ${(error as Error).message}`);
      }
    }
    if (given !== undefined && !useLatestVersion) {
      try {
        return { id: await this.client.getId(subject, given), schema: given };
      } catch (error) {
        throw new Error(`the ${this.name} serde's ${this.role} schema is not registered under subject '${subject}' (${(error as Error).message}); register it, or set auto.register.schemas=true`);
      }
    }
    try {
      const latest = await this.client.getLatestSchemaMetadata(subject, this.format.fetchFormat);
      return { id: latest.id, schema: latest };
    } catch (error) {
      throw new Error(`the ${this.name} serde cannot write to '${topic}': no schema of subject '${subject}' in the registry (${(error as Error).message}); register the ${this.role} schema first`);
    }
  }

  private async fetchReader(key: number | string): Promise<Codec> {
    const { fetchFormat } = this.format;
    const info = typeof key === "number" ? await this.client.getBySubjectAndId("", key, fetchFormat) : await this.client.getByGuid(key, fetchFormat);
    const schemaType = info.schemaType ?? "AVRO";
    if (schemaType !== this.format.schemaType) throw new Error(`it is a ${schemaType} schema, not ${this.format.schemaType}`);
    return this.readerOf(await this.format.compile(info, this.client));
  }

  /** How records written with `writer` are read: as the given schema, where the format resolves one schema to another. */
  private async readerOf(writer: Codec): Promise<Codec> {
    if (this.given === undefined || this.format.readAs === undefined) return writer;
    return this.format.readAs(await this.givenCodec(this.given), writer);
  }

  /** The codec of `given`, the schema the topology gives this serde, compiled once. */
  private givenCodec(given: RegisteredSchema): Promise<Codec> {
    return (this.compiledGiven ??= this.format.compile(given, this.client));
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

/** A schema id or guid in words: `id 3`. */
export function describe(key: number | string): string {
  return typeof key === "number" ? `id ${key}` : `guid ${key}`;
}
