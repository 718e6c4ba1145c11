/**
 * The `protobuf` serde's bodies, as Confluent's ProtobufSerializer frames them: after the schema id, the indexes of the
 * message in its file (Confluent's SchemaId writes and reads them), then the message's Protobuf bytes. The registry is
 * asked for schemas with `format=serialized` (the base64 FileDescriptorProto, references alike), so the serde never
 * parses .proto text: the registry does, as Confluent's own does. Confluent's ProtobufDeserializer builds the files,
 * protobuf-es (the package's own) reads and writes the messages.
 *
 * Reading is generic: the message the record's indexes name, rendered as protobuf-es `toJson` renders it (the
 * Protobuf JSON mapping: lowerCamelCase field names, 64-bit integers as strings, enums by name, bytes as base64),
 * fields at their default value included, so that a topology, a query, an event and the console see plain JSON.
 * Writing takes such a plain object (`fromJson`: either field name, numbers or strings for 64-bit integers) as the
 * serde's message: the one named `message` when the topology gives its schema, else the file's first.
 *
 * Under the record subject name strategies a schema is named as Confluent's ProtobufSchema names itself: by the full
 * name of the message written (`message`), else of the file's first. That name is needed before the schema is
 * registered, so it is read from the given .proto text (protobufjs parses it; only the name is taken).
 */
import type { DescFile, DescMessage, JsonValue } from "@bufbuild/protobuf";
import type { ProtobufTools } from "./confluent-package";
import { describe, type SchemaFormat } from "./registry-serde";

interface ProtobufCodec {
  file: DescFile;
  /** What values are written as: the message and its indexes in the file; undefined when the file has no such message. */
  writes?: { message: DescMessage; indexes: number[] };
}

/** `fromJson` and `toJson` settings: every field shown, unknown keys refused (a misspelt field is an error, not a loss). */
const READ_OPTIONS = { alwaysEmitImplicit: true } as const;
const WRITE_OPTIONS = { ignoreUnknownFields: false } as const;

/** The format, writing the message `messageName` (a full name, `pkg.Outer.Inner`), or the file's first when none is given. */
export function protobufFormat(tools: ProtobufTools, messageName?: string): SchemaFormat<ProtobufCodec> {
  const { es } = tools;
  return {
    serdeName: "protobuf",
    schemaType: "PROTOBUF",
    fetchFormat: "serialized",
    async compile(schema) {
      const file = await tools.file(schema);
      nameJsonFields(file, tools.camelCase, new Set());
      const message = messageName === undefined ? file.messages[0] : findMessage(file.messages, messageName);
      return { file, writes: message === undefined ? undefined : { message, indexes: tools.indexesOf(message) } };
    },
    messageIndexes(codec) {
      if (codec.writes !== undefined) return codec.writes.indexes;
      const names = allMessages(codec.file.messages).map((message) => message.typeName);
      throw new Error(messageName === undefined ? `the Protobuf schema ${codec.file.name} has no message to write` : `the Protobuf schema ${codec.file.name} has no message '${messageName}' (it has ${names.join(", ") || "none"})`);
    },
    encode(codec, value) {
      const { message } = codec.writes!;
      const bytes = es.toBinary(message, es.fromJson(message, value as JsonValue, WRITE_OPTIONS));
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    decode(codec, afterId, schema) {
      try {
        const [length, indexes] = tools.readIndexes(afterId);
        const message = tools.messageAt(codec.file, indexes);
        return es.toJson(message, es.fromBinary(message, afterId.subarray(length)), READ_OPTIONS);
      } catch (error) {
        throw new Error(`schema ${describe(schema)}: ${(error as Error).message}`);
      }
    },
    recordName: async (schema) => messageName ?? (await firstMessageName(schema.schema)),
    withRef: (ref) => (ref.serde === "protobuf" && ref.message !== undefined ? protobufFormat(tools, ref.message) : undefined),
  };
}

/** The full name of the first message `text` declares at its top level, or undefined when it declares none. */
async function firstMessageName(text: string): Promise<string | undefined> {
  const { parse, Type } = await import("protobufjs");
  const parsed = parse(text, { keepCase: true });
  const scope = parsed.package === undefined ? parsed.root : parsed.root.lookup(parsed.package);
  const first = scope && "nestedArray" in scope ? (scope.nestedArray as unknown[]).find((member): member is InstanceType<typeof Type> => member instanceof Type) : undefined;
  if (first === undefined) return undefined;
  return parsed.package === undefined ? first.name : `${parsed.package}.${first.name}`;
}

function allMessages(messages: readonly DescMessage[]): DescMessage[] {
  return messages.flatMap((message) => [message, ...allMessages(message.nestedMessages)]);
}

function findMessage(messages: readonly DescMessage[], typeName: string): DescMessage | undefined {
  return allMessages(messages).find((message) => message.typeName === typeName);
}

/**
 * Gives each field of `file` and of the files it imports the JSON name protoc gives it where the descriptor has none:
 * protoc writes `json_name` into every descriptor, but one a client serialized from protobuf-es's embedded descriptors
 * (Confluent's JavaScript serializer registers those) leaves the default names out, and protobuf-es then maps fields
 * to JSON keys by an empty name.
 */
function nameJsonFields(file: DescFile, camelCase: (name: string) => string, seen: Set<DescFile>): void {
  if (seen.has(file)) return;
  seen.add(file);
  for (const message of allMessages(file.messages)) {
    for (const field of message.fields) if (!field.jsonName) (field as { jsonName: string }).jsonName = camelCase(field.name);
  }
  for (const dependency of file.dependencies) nameJsonFields(dependency, camelCase, seen);
}
