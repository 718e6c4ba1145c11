/**
 * A `.proto` file's text as the `google.protobuf.FileDescriptorProto` protoc would write for it: protobufjs parses the
 * text, and this module lays its result out as a descriptor — only the file's own definitions, its imports as
 * `dependency`, type names fully qualified (with the leading dot) against the types of the file and of its
 * dependencies. protobufjs's own descriptor extension is not used: it merges files by package and writes relative
 * names, which Confluent's deserializer cannot resolve.
 *
 * Not taken: editions, groups and custom (parenthesised) options; each is refused with its name.
 */
import { create, type DescEnum, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf";
import {
  DescriptorProtoSchema,
  EnumDescriptorProtoSchema,
  EnumOptionsSchema,
  EnumValueOptionsSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FieldOptionsSchema,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
  FileOptionsSchema,
  MessageOptionsSchema,
  MethodOptionsSchema,
  ServiceDescriptorProtoSchema,
  ServiceOptionsSchema,
} from "@bufbuild/protobuf/wkt";
import { Enum, Field, MapField, Namespace, parse, type ReflectionObject, Service, Type } from "protobufjs";
import { type Import, importsOf, nestedDeclarationOrder } from "./protobuf-declaration-order";
import { jsonNameOf, mapEntryNameOf, TypeNames } from "./protobuf-names";

type FieldInit = MessageInitShape<typeof FieldDescriptorProtoSchema>;
type MessageInit = MessageInitShape<typeof DescriptorProtoSchema>;
type EnumInit = MessageInitShape<typeof EnumDescriptorProtoSchema>;
type Options = Record<string, unknown> | undefined;

const SCALARS: Readonly<Record<string, FieldDescriptorProto_Type>> = {
  double: FieldDescriptorProto_Type.DOUBLE,
  float: FieldDescriptorProto_Type.FLOAT,
  int64: FieldDescriptorProto_Type.INT64,
  uint64: FieldDescriptorProto_Type.UINT64,
  int32: FieldDescriptorProto_Type.INT32,
  fixed64: FieldDescriptorProto_Type.FIXED64,
  fixed32: FieldDescriptorProto_Type.FIXED32,
  bool: FieldDescriptorProto_Type.BOOL,
  string: FieldDescriptorProto_Type.STRING,
  bytes: FieldDescriptorProto_Type.BYTES,
  uint32: FieldDescriptorProto_Type.UINT32,
  sfixed32: FieldDescriptorProto_Type.SFIXED32,
  sfixed64: FieldDescriptorProto_Type.SFIXED64,
  sint32: FieldDescriptorProto_Type.SINT32,
  sint64: FieldDescriptorProto_Type.SINT64,
};

/**
 * The descriptor of `text`, named `name`, whose imports are resolved among `known` (the types of its dependencies,
 * which it learns its own into); throws naming what does not parse or resolve.
 */
export function descriptorOfText(text: string, name: string, known: TypeNames): FileDescriptorProto {
  const syntax = syntaxOf(text);
  const parsed = parse(text, { keepCase: true });
  const packageName = parsed.package ?? "";
  const scope = packageName === "" ? parsed.root : (parsed.root.lookup(packageName) as Namespace);
  const prefix = packageName === "" ? "" : `.${packageName}`;
  const context: Context = { known, syntax, nestedOrder: nestedDeclarationOrder(text), packagePrefix: prefix };
  learnTypes(scope, prefix, known);
  const members = scope.nestedArray;
  const imports = importsOf(text);
  return create(FileDescriptorProtoSchema, {
    name,
    package: packageName === "" ? undefined : packageName,
    dependency: imports.map((i) => i.path),
    publicDependency: indexesOf(imports, "public"),
    weakDependency: indexesOf(imports, "weak"),
    messageType: members.filter(isMessage).map((type) => messageOf(type, prefix, context)),
    enumType: members.filter(isEnum).map((type) => enumOf(type)),
    service: members.filter((member): member is Service => member instanceof Service).map((service) => serviceOf(service, prefix, context)),
    extension: members.filter(isExtension).map((field) => fieldOf(field, prefix, context, -1)),
    options: optionsOf(FileOptionsSchema, scope.options, "file"),
    syntax: syntax === "proto3" ? "proto3" : undefined,
  });
}

const indexesOf = (imports: Import[], kind: Import["kind"]) => imports.flatMap((i, index) => (i.kind === kind ? [index] : []));

interface Context {
  known: TypeNames;
  syntax: "proto2" | "proto3";
  /** Where each message declares its nested messages and map fields, for the order of its nested types. */
  nestedOrder: Map<string, string[]>;
  packagePrefix: string;
}

/** The file's `syntax` statement; editions are refused. Comments are stripped first. */
function syntaxOf(text: string): "proto2" | "proto3" {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  refuseLostEscapes(code);
  if (/^\s*edition\s*=/.test(code)) throw new Error("protobuf editions are not supported; use syntax proto2 or proto3");
  const declared = /^\s*syntax\s*=\s*["']([^"']*)["']/.exec(code)?.[1];
  if (declared === undefined || declared === "proto2") return "proto2";
  if (declared === "proto3") return "proto3";
  throw new Error(`unknown syntax '${declared}'`);
}

/**
 * Throws for a string escape protobufjs would lose: it keeps only `\\`, `\n`, `\r`, `\t` and `\0`, and drops the
 * others, which would change the schema unseen.
 */
function refuseLostEscapes(code: string): void {
  for (const literal of code.match(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g) ?? []) {
    for (const [escape, character, digit] of literal.matchAll(/\\([\s\S])([0-7]?)/g)) {
      if (!"\\nrt0".includes(character) || (character === "0" && digit !== "")) throw new Error(`the escape '${escape}' in ${literal} is not supported`);
    }
  }
}

const isMessage = (member: ReflectionObject): member is Type => member instanceof Type;
const isEnum = (member: ReflectionObject): member is Enum => member instanceof Enum;
const isExtension = (member: ReflectionObject): member is Field => member instanceof Field && member.extend !== undefined;

/** Every message and enum the file defines, by fully qualified name, for references to resolve against. */
function learnTypes(namespace: Namespace, prefix: string, known: TypeNames): void {
  for (const member of namespace.nestedArray) {
    const name = `${prefix}.${member.name}`;
    if (isEnum(member)) known.add(name, "enum");
    if (isMessage(member)) {
      known.add(name, "message");
      learnTypes(member, name, known);
    }
  }
}

function messageOf(type: Type, parent: string, context: Context): MessageInit {
  const name = `${parent}.${type.name}`;
  // A proto3 `optional` field sits in a oneof of its own; protoc lists those after the declared oneofs.
  const declared = type.oneofsArray.filter((oneof) => !isSynthetic(type, oneof.name));
  const synthetic = type.oneofsArray.filter((oneof) => isSynthetic(type, oneof.name));
  const oneofs = [...declared, ...synthetic];
  const fields = type.fieldsArray.filter((field) => field.extend === undefined && !field.name.startsWith("."));
  const maps = fields.filter((field) => field instanceof MapField) as unknown as MapField[];
  if ((type as Type & { group?: boolean }).group === true) throw new Error(`group '${type.name}' is not supported`);
  return {
    name: type.name,
    field: fields.map((field) => fieldOf(field, name, context, oneofs.findIndex((oneof) => oneof.oneof.includes(field.name)))),
    nestedType: inDeclarationOrder(
      [...type.nestedArray.filter(isMessage).map((nested) => messageOf(nested, name, context)), ...maps.map((map) => mapEntryOf(map, name, context))],
      context.nestedOrder.get(name.slice(context.packagePrefix.length + 1)) ?? [],
    ),
    enumType: type.nestedArray.filter(isEnum).map((nested) => enumOf(nested)),
    extension: type.nestedArray.filter(isExtension).map((field) => fieldOf(field, name, context, -1)),
    extensionRange: (type.extensions ?? []).map(([start, end]) => ({ start, end: end + 1 })),
    oneofDecl: oneofs.map((oneof) => ({ name: oneof.name })),
    options: optionsOf(MessageOptionsSchema, type.options, `message ${type.name}`),
    reservedRange: reservedRanges(type.reserved).map(([start, end]) => ({ start, end: end + 1 })),
    reservedName: reservedNames(type.reserved),
  };
}

function inDeclarationOrder(nested: MessageInit[], order: string[]): MessageInit[] {
  const position = (message: MessageInit) => order.indexOf(message.name ?? "");
  return [...nested].sort((a, b) => position(a) - position(b));
}

const isSynthetic = (type: Type, oneof: string) => type.oneofs[oneof].oneof.length === 1 && type.fields[type.oneofs[oneof].oneof[0]]?.options?.proto3_optional === true;

function fieldOf(field: Field, scope: string, context: Context, oneofIndex: number): FieldInit {
  const { json_name: jsonName, default: defaultValue, proto3_optional: proto3Optional, ...options } = field.options ?? {};
  const map = (field as unknown) instanceof MapField;
  const rule = (field as Field & { rule?: string }).rule;
  const resolved = map ? { type: FieldDescriptorProto_Type.MESSAGE, typeName: `${scope}.${mapEntryNameOf(field.name)}` } : typeOf(field.type, scope, context);
  return {
    name: field.name,
    number: field.id,
    label: map || rule === "repeated" ? FieldDescriptorProto_Label.REPEATED : rule === "required" ? FieldDescriptorProto_Label.REQUIRED : FieldDescriptorProto_Label.OPTIONAL,
    ...resolved,
    extendee: field.extend === undefined ? undefined : context.known.resolve(field.extend, scope, "message").name,
    defaultValue: defaultValue === undefined ? undefined : defaultText(defaultValue, field),
    oneofIndex: oneofIndex >= 0 ? oneofIndex : undefined,
    jsonName: typeof jsonName === "string" ? jsonName : jsonNameOf(field.name),
    options: optionsOf(FieldOptionsSchema, options, `field ${field.name}`),
    proto3Optional: proto3Optional === true ? true : undefined,
  };
}

/**
 * protoc writes a default as text: booleans and numbers as written, an enum's default by its value's name, bytes
 * C-escaped, which is taken for printable ASCII only (protobufjs keeps no byte escapes to write back).
 */
function defaultText(value: unknown, field: Field): string {
  const text = typeof value === "string" ? value : String(value);
  if (field.type === "bytes" && !/^[\x20-\x7e]*$/.test(text.replace(/["'\\]/g, "\u0000"))) throw new Error(`the bytes default of field ${field.name} must be printable ASCII without quotes or backslashes`);
  return text;
}

function typeOf(typeName: string, scope: string, context: Context): Pick<FieldInit, "type" | "typeName"> {
  if (Object.hasOwn(SCALARS, typeName)) return { type: SCALARS[typeName] };
  const { name, kind } = context.known.resolve(typeName, scope);
  return { type: kind === "enum" ? FieldDescriptorProto_Type.ENUM : FieldDescriptorProto_Type.MESSAGE, typeName: name };
}

/** The entry type protoc writes for a map field: a nested message `<Name>Entry` with `key` = 1 and `value` = 2. */
function mapEntryOf(map: MapField, scope: string, context: Context): MessageInit {
  const entry = (name: string, number: number, type: string): FieldInit => ({ name, number, label: FieldDescriptorProto_Label.OPTIONAL, jsonName: name, ...typeOf(type, scope, context) });
  return { name: mapEntryNameOf(map.name), field: [entry("key", 1, map.keyType), entry("value", 2, map.type)], options: { mapEntry: true } };
}

function enumOf(type: Enum): EnumInit {
  return {
    name: type.name,
    value: Object.entries(type.values).map(([name, number]) => ({ name, number, options: optionsOf(EnumValueOptionsSchema, type.valuesOptions?.[name], `enum value ${name}`) })),
    options: optionsOf(EnumOptionsSchema, type.options, `enum ${type.name}`),
    // An enum's reserved ranges end where they say; a message's end one past.
    reservedRange: reservedRanges(type.reserved).map(([start, end]) => ({ start, end })),
    reservedName: reservedNames(type.reserved),
  };
}

function serviceOf(service: Service, parent: string, context: Context): MessageInitShape<typeof ServiceDescriptorProtoSchema> {
  return {
    name: service.name,
    method: service.methodsArray.map((method) => ({
      name: method.name,
      inputType: context.known.resolve(method.requestType, parent, "message").name,
      outputType: context.known.resolve(method.responseType, parent, "message").name,
      options: optionsOf(MethodOptionsSchema, method.options, `method ${method.name}`),
      clientStreaming: method.requestStream === true ? true : undefined,
      serverStreaming: method.responseStream === true ? true : undefined,
    })),
    options: optionsOf(ServiceOptionsSchema, service.options, `service ${service.name}`),
  };
}

type Reserved = (number[] | string)[] | undefined;
const reservedRanges = (reserved: Reserved) => (reserved ?? []).filter((entry): entry is number[] => Array.isArray(entry));
const reservedNames = (reserved: Reserved) => (reserved ?? []).filter((entry): entry is string => typeof entry === "string");

/**
 * The options message `schema` with `options` set by their proto names (`java_package`); undefined when there are
 * none. An option that is not a field of the message (a custom one, in parentheses) is refused, naming it.
 */
function optionsOf<T extends DescMessage>(schema: T, options: Options, where: string): MessageInitShape<T> | undefined {
  const entries = Object.entries(options ?? {});
  if (entries.length === 0) return undefined;
  const init: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    const field = schema.fields.find((f) => f.name === name);
    if (field === undefined) throw new Error(`option '${name}' of ${where} is not supported (custom options are not)`);
    init[field.localName] = field.fieldKind === "enum" ? enumNumber(field.enum, value, name) : value;
  }
  return init as MessageInitShape<T>;
}

function enumNumber(type: DescEnum, value: unknown, option: string): number {
  if (typeof value === "number") return value;
  const found = type.values.find((v) => v.name === value);
  if (found === undefined) throw new Error(`option '${option}' takes one of ${type.values.map((v) => v.name).join(", ")}, not '${String(value)}'`);
  return found.number;
}
