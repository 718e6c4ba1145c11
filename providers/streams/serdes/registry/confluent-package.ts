/**
 * Loads `@confluentinc/schemaregistry` (Confluent's registry client and wire format) the first time a registry serde is
 * named. It is an optional peer dependency of Sluice: its cloud-KMS dependencies weigh about 108 MB, which an
 * installation that never reads registry-framed topics should not carry. Only the client and serde modules are loaded,
 * not the package's index, which loads the AWS, Azure and Google KMS SDKs (seconds of startup). The types below are
 * the part of the package Sluice uses, so that Sluice's declarations compile without it.
 */
import type * as RegistryClientModule from "@confluentinc/schemaregistry/dist/schemaregistry-client";
import type * as JsonModule from "@confluentinc/schemaregistry/dist/serde/json";
import type * as SerdeModule from "@confluentinc/schemaregistry/dist/serde/serde";

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

/** The calls the serdes make of Confluent's SchemaRegistryClient (which caches each answer). */
export interface RegistryClient {
  getLatestSchemaMetadata(subject: string): Promise<RegisteredSchema & { id?: number }>;
  getBySubjectAndId(subject: string, id: number): Promise<RegisteredSchema>;
  getByGuid(guid: string): Promise<RegisteredSchema>;
  getSchemaMetadata(subject: string, version: number): Promise<RegisteredSchema>;
}

export interface RegistryClientConfig {
  baseURLs: string[];
  basicAuthCredentials?: { credentialsSource: "USER_INFO" | "URL"; userInfo?: string };
  bearerAuthCredentials?: { credentialsSource: "STATIC_TOKEN"; token: string };
}

/** Confluent's SchemaId: the frame's magic byte and schema id (or guid). */
export interface SchemaId {
  id?: number;
  guid?: string;
  /** Reads the frame at the start of `payload`; returns its length. Throws on another magic byte. */
  fromBytes(payload: Buffer): number;
  idToBytes(): Buffer;
}

export interface ConfluentPackage {
  client(config: RegistryClientConfig): RegistryClient;
  schemaId(schemaType: string, id?: number): SchemaId;
  /** Confluent's TopicNameStrategy: `<topic>-key` or `<topic>-value`. */
  topicSubject(topic: string, role: "key" | "value"): string | Promise<string>;
  /** The validation Confluent's JSON serdes make with `validate` (ajv, the schema's references resolved through `client`). */
  jsonValidator(client: RegistryClient, schema: RegisteredSchema): Promise<JsonValidator>;
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
    schemaId: (schemaType, id) => new serdes.SchemaId(schemaType, id),
    topicSubject: (topic, role) => serdes.TopicNameStrategy(topic, role === "key" ? serdes.SerdeType.KEY : serdes.SerdeType.VALUE),
    async jsonValidator(client, schema) {
      // Loaded only when asked for: it brings ajv and a JSON Schema dereferencer.
      const json = require(`${CONFLUENT_PACKAGE}/dist/serde/json`) as typeof JsonModule;
      const deserializer = new json.JsonDeserializer(client as unknown as RegistryClientModule.Client, serdes.SerdeType.VALUE, { validate: true });
      const validate = await deserializer.toValidateFunction(schema);
      return (value) => (validate === undefined || validate(value) ? undefined : `does not fit its JSON schema: ${JSON.stringify(validate.errors ?? [])}`);
    },
  };
  return loaded;
}
