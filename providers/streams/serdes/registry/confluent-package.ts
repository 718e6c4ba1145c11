/**
 * Loads `@confluentinc/schemaregistry` (Confluent's registry client and wire format) the first time a registry serde is
 * named. It is an optional peer dependency of Sluice: its cloud-KMS dependencies weigh about 108 MB, which an
 * installation that never reads registry-framed topics should not carry. Only the client and serde modules are loaded,
 * not the package's index, which loads the AWS, Azure and Google KMS SDKs (seconds of startup). The types below are
 * the part of the package Sluice uses, so that Sluice's declarations compile without it.
 */
import type * as RegistryClientModule from "@confluentinc/schemaregistry/dist/schemaregistry-client";
import type * as JsonModule from "@confluentinc/schemaregistry/dist/serde/json";
import type * as ProtobufModule from "@confluentinc/schemaregistry/dist/serde/protobuf";
import type * as SerdeModule from "@confluentinc/schemaregistry/dist/serde/serde";
import type * as ProtobufEs from "@bufbuild/protobuf";
import type * as ProtobufReflect from "@bufbuild/protobuf/reflect";
import { createRequire } from "node:module";

export const CONFLUENT_PACKAGE = "@confluentinc/schemaregistry";

export interface SchemaReference {
  name: string;
  subject: string;
  version: number;
}

export interface RegisteredSchema {
  schema: string;
  schemaType?: string;
  references?: SchemaReference[];
}

/** Why `value` does not fit a JSON schema, or undefined when it does. */
export type JsonValidator = (value: unknown) => string | undefined;

/**
 * The calls the serdes make of Confluent's SchemaRegistryClient (which caches each answer). `format` asks the registry
 * for another form of the schema (Protobuf's `serialized`: the base64 FileDescriptorProto rather than the .proto text).
 */
export interface RegistryClient {
  getLatestSchemaMetadata(subject: string, format?: string): Promise<RegisteredSchema & { id?: number }>;
  getBySubjectAndId(subject: string, id: number, format?: string): Promise<RegisteredSchema>;
  getByGuid(guid: string, format?: string): Promise<RegisteredSchema>;
  getSchemaMetadata(subject: string, version: number, deleted?: boolean, format?: string): Promise<RegisteredSchema>;
  /** Registers `schema` under `subject` (POST /subjects/{subject}/versions): its id. */
  register(subject: string, schema: RegisteredSchema): Promise<number>;
  /** The id of `schema` registered under `subject` (POST /subjects/{subject}). */
  getId(subject: string, schema: RegisteredSchema): Promise<number>;
}

export interface RegistryClientConfig {
  baseURLs: string[];
  basicAuthCredentials?: { credentialsSource: "USER_INFO" | "URL"; userInfo?: string };
  bearerAuthCredentials?: { credentialsSource: "STATIC_TOKEN"; token: string };
}

/** Confluent's SchemaId: the frame's magic byte and schema id (or guid), and for Protobuf the message indexes after it. */
export interface SchemaId {
  id?: number;
  guid?: string;
  /** Reads the frame at the start of `payload`; returns its length. Throws on another magic byte. */
  fromBytes(payload: Buffer): number;
  idToBytes(): Buffer;
}

/** What the `protobuf` serde uses of Confluent's Protobuf serdes, and protobuf-es (the package's own) for the bodies. */
export interface ProtobufTools {
  /** protobuf-es: fromJson, toJson, toBinary, fromBinary. */
  readonly es: typeof ProtobufEs;
  /** protobuf-es's lowerCamelCase of a field name, as protoc derives a field's JSON name. */
  readonly camelCase: (name: string) => string;
  /** The file of a schema fetched with `format=serialized`, its references fetched so too (Confluent's ProtobufDeserializer builds it). */
  file(schema: RegisteredSchema): Promise<ProtobufEs.DescFile>;
  /** The message a frame's indexes name in `file`; throws when an index is out of range. */
  messageAt(file: ProtobufEs.DescFile, indexes: number[]): ProtobufEs.DescMessage;
  /** The indexes that name `message` in its file, as a frame carries them after the schema id. */
  indexesOf(message: ProtobufEs.DescMessage): number[];
  /** The message indexes at the start of `afterId` (what follows a frame's schema id), and how many bytes they take. */
  readIndexes(afterId: Buffer): [number, number[]];
}

export interface ConfluentPackage {
  client(config: RegistryClientConfig): RegistryClient;
  schemaId(schemaType: string, id?: number, messageIndexes?: number[]): SchemaId;
  /** The schema id (or guid) of the frame at the start of `payload`, and where what follows it starts; throws on another magic byte. */
  frameId(payload: Buffer): { key: number | string; end: number };
  /** Confluent's TopicNameStrategy: `<topic>-key` or `<topic>-value`. */
  topicSubject(topic: string, role: "key" | "value"): string | Promise<string>;
  /** The validation Confluent's JSON serdes make with `validate` (ajv, the schema's references resolved through `client`). */
  jsonValidator(client: RegistryClient, schema: RegisteredSchema): Promise<JsonValidator>;
  /** The Protobuf pieces, fetching schemas through `client`. */
  protobuf(client: RegistryClient): ProtobufTools;
}

let loaded: ConfluentPackage | undefined;

/** The package, or an error naming the serde that needs it and how to install it. */
export function confluentPackage(serdeName: string): ConfluentPackage {
  if (loaded !== undefined) return loaded;
  let clients: typeof RegistryClientModule;
  let serdes: typeof SerdeModule;
  try {
    clients = require(`${CONFLUENT_PACKAGE}/dist/schemaregistry-client`) as typeof RegistryClientModule;
    serdes = require(`${CONFLUENT_PACKAGE}/dist/serde/serde`) as typeof SerdeModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(`the '${serdeName}' serde needs the optional package ${CONFLUENT_PACKAGE}: install it next to Sluice (npm install ${CONFLUENT_PACKAGE})`);
  }
  loaded = {
    client: (config) => new clients.SchemaRegistryClient(config),
    schemaId: (schemaType, id, messageIndexes) => new serdes.SchemaId(schemaType, id, undefined, messageIndexes),
    frameId(payload) {
      // SchemaId reads message indexes after the id for PROTOBUF only: with no type it reads the id alone.
      const schemaId = new serdes.SchemaId("");
      const end = schemaId.fromBytes(payload);
      return { key: schemaId.id ?? schemaId.guid!, end };
    },
    topicSubject: (topic, role) => serdes.TopicNameStrategy(topic, role === "key" ? serdes.SerdeType.KEY : serdes.SerdeType.VALUE),
    async jsonValidator(client, schema) {
      // Loaded only when asked for: it brings ajv and a JSON Schema dereferencer.
      const json = require(`${CONFLUENT_PACKAGE}/dist/serde/json`) as typeof JsonModule;
      const deserializer = new json.JsonDeserializer(client as unknown as RegistryClientModule.Client, serdes.SerdeType.VALUE, { validate: true });
      const validate = await deserializer.toValidateFunction(schema);
      return (value) => (validate === undefined || validate(value) ? undefined : `does not fit its JSON schema: ${JSON.stringify(validate.errors ?? [])}`);
    },
    protobuf(client) {
      // Loaded only when asked for, with the protobuf-es the package itself uses (descriptors are shared between them).
      const path = require.resolve(`${CONFLUENT_PACKAGE}/dist/serde/protobuf`);
      const protobuf = require(path) as typeof ProtobufModule;
      const requireEs = createRequire(path);
      const es = requireEs("@bufbuild/protobuf") as typeof ProtobufEs;
      const { protoCamelCase } = requireEs("@bufbuild/protobuf/reflect") as typeof ProtobufReflect;
      const registryClient = client as unknown as RegistryClientModule.Client;
      // The deserializer asks for the references of a reference without format=serialized, getting .proto text it
      // cannot read (an import of an import fails): it is given a client that asks for every reference serialized.
      const serializedReferences = {
        getSchemaMetadata: (subject: string, version: number, deleted?: boolean) => client.getSchemaMetadata(subject, version, deleted, "serialized"),
        config: () => registryClient.config(),
      } as unknown as RegistryClientModule.Client;
      const deserializer = new protobuf.ProtobufDeserializer(serializedReferences, serdes.SerdeType.VALUE, {});
      const serializer = new protobuf.ProtobufSerializer(registryClient, serdes.SerdeType.VALUE, {});
      const frame = new serdes.SchemaId(protobuf.PROTOBUF_TYPE);
      return {
        es,
        camelCase: protoCamelCase,
        file: (schema) => deserializer.toFileDesc(serializedReferences, schema as RegistryClientModule.SchemaInfo),
        messageAt: (file, indexes) => deserializer.toMessageDescFromIndexes(file, indexes),
        indexesOf: (message) => serializer.toMessageIndexArray(message),
        readIndexes: (afterId) => frame.readMessageIndexes(afterId),
      };
    },
  };
  return loaded;
}
