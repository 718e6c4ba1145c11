/**
 * The PROTOBUF schema type. A schema arrives as `.proto` text (Java clients, curl) or as the base64 of a serialized
 * `FileDescriptorProto` (Confluent's JavaScript and Python serializers); either becomes a descriptor, and the
 * descriptor written back as text is the canonical schema, so the two forms of one schema are one schema. An import
 * is satisfied by a reference of its name, or is one of Google's well-known types, which the registry knows.
 * `format=serialized` answers the descriptor again, named `default` as Confluent's registry names it;
 * `format=ignore_extensions` the text without `extend` blocks and extension ranges. Other formats answer the text.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import type { GenFile } from "@bufbuild/protobuf/codegenv2";
import * as wkt from "@bufbuild/protobuf/wkt";
import { type DescriptorProto, type FieldDescriptorProto, type FileDescriptorProto, FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { descriptorOfText } from "./protobuf-descriptor";
import { TypeNames } from "./protobuf-names";
import { protoText } from "./protobuf-text";
import { protobufUnreadable } from "./protobuf-compatibility";
import type { ResolvedSchema, SchemaType } from "./schema-types";

/** The file name Confluent's registry gives a schema's descriptor. */
const DESCRIPTOR_NAME = "default";

/** Google's well-known types (`google/protobuf/<name>.proto`), which a schema imports without a reference. */
const WELL_KNOWN_NAMES = ["any", "api", "descriptor", "duration", "empty", "field_mask", "source_context", "struct", "timestamp", "type", "wrappers"];
const WELL_KNOWN = new Map(
  WELL_KNOWN_NAMES.map((name) => (wkt as unknown as Record<string, GenFile>)[`file_google_protobuf_${name}`].proto).map((file) => [file.name, file]),
);

/** A schema's descriptor, with every type it may name (its own, its references', the well-known ones). */
export interface ProtobufSchema {
  file: FileDescriptorProto;
  types: TypeNames;
}

/** `schema` as a descriptor named `name`; throws naming what does not parse, resolve or import. */
export function protobufSchemaOf({ schema, dependencies, referenceNames }: ResolvedSchema, name = DESCRIPTOR_NAME): ProtobufSchema {
  const types = new TypeNames();
  for (const file of WELL_KNOWN.values()) learnDescriptorTypes(file, types);
  // Dependencies come before what uses them, so each resolves against those already learnt.
  for (const dependency of dependencies) descriptorOfText(dependency, DESCRIPTOR_NAME, types);
  const file = isSerialized(schema) ? descriptorOfBinary(schema, name, types) : descriptorOfText(schema, name, types);
  for (const path of file.dependency) {
    if (!WELL_KNOWN.has(path) && !referenceNames.includes(path)) throw new Error(`import "${path}" has no reference of that name`);
  }
  return { file, types };
}

/** Base64 only: `.proto` text always holds a character outside it (`;`, `{`, a space). */
const isSerialized = (schema: string) => schema.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(schema.trim());

function descriptorOfBinary(schema: string, name: string, types: TypeNames): FileDescriptorProto {
  let file: FileDescriptorProto;
  try {
    file = fromBinary(FileDescriptorProtoSchema, Buffer.from(schema.trim(), "base64"));
  } catch (error) {
    throw new Error(`not a serialized FileDescriptorProto: ${(error as Error).message}`);
  }
  file.name = name;
  learnDescriptorTypes(file, types);
  qualifyTypeNames(file, types);
  return file;
}

function learnDescriptorTypes(file: FileDescriptorProto, types: TypeNames): void {
  const learn = (messages: DescriptorProto[], scope: string) => {
    for (const message of messages) {
      const name = `${scope}.${message.name}`;
      types.add(name, "message");
      for (const type of message.enumType) types.add(`${name}.${type.name}`, "enum");
      learn(message.nestedType, name);
    }
  };
  const scope = file.package === "" ? "" : `.${file.package}`;
  for (const type of file.enumType) types.add(`${scope}.${type.name}`, "enum");
  learn(file.messageType, scope);
}

/** Some writers leave type names relative; the canonical text and `format=serialized` carry them fully qualified. */
function qualifyTypeNames(file: FileDescriptorProto, types: TypeNames): void {
  const qualify = (fields: FieldDescriptorProto[], scope: string) => {
    for (const field of fields) {
      if (field.typeName !== "") field.typeName = types.resolve(field.typeName, scope).name;
      if (field.extendee !== "") field.extendee = types.resolve(field.extendee, scope, "message").name;
    }
  };
  const visit = (messages: DescriptorProto[], scope: string) => {
    for (const message of messages) {
      const name = `${scope}.${message.name}`;
      qualify(message.field, name);
      qualify(message.extension, name);
      visit(message.nestedType, name);
    }
  };
  const scope = file.package === "" ? "" : `.${file.package}`;
  visit(file.messageType, scope);
  qualify(file.extension, scope);
  for (const service of file.service) {
    for (const method of service.method) {
      method.inputType = types.resolve(method.inputType, scope, "message").name;
      method.outputType = types.resolve(method.outputType, scope, "message").name;
    }
  }
}

/** `file` without its `extend` blocks and extension ranges, as Confluent's `format=ignore_extensions` writes it. */
function withoutExtensions(file: FileDescriptorProto): FileDescriptorProto {
  const strip = (messages: DescriptorProto[]) => {
    for (const message of messages) {
      message.extension = [];
      message.extensionRange = [];
      strip(message.nestedType);
    }
  };
  file.extension = [];
  strip(file.messageType);
  return file;
}

export const PROTOBUF_TYPE: SchemaType = {
  canonical(schema) {
    return protoText(protobufSchemaOf(schema).file);
  },
  unreadable: (reader, writer) => protobufUnreadable(protobufSchemaOf(reader), protobufSchemaOf(writer)),
  formatted(schema, format) {
    if (format !== "serialized" && format !== "ignore_extensions") return schema.schema;
    const { file } = protobufSchemaOf(schema);
    if (format === "ignore_extensions") return protoText(withoutExtensions(file));
    return Buffer.from(toBinary(FileDescriptorProtoSchema, file)).toString("base64");
  },
};
