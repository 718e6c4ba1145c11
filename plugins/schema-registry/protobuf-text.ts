/**
 * A `FileDescriptorProto` written back as `.proto` text: the registry's canonical form of a PROTOBUF schema, whether
 * it arrived as text or as a serialized descriptor. One layout, so two registrations of one schema read the same:
 * syntax, package, imports, file options, then messages, enums, services and extensions in the descriptor's order;
 * in a message its options, fields (a oneof's fields in its block, a map entry as `map<K, V>`), nested messages and
 * enums, extensions, extension ranges and reserved numbers and names. Type names are written fully qualified, so the
 * text reads the same in any scope; a JSON name is written only where it is not the one protoc derives.
 */
import { type DescMessage, isFieldSet, type Message } from "@bufbuild/protobuf";
import {
  type DescriptorProto,
  type EnumDescriptorProto,
  type FieldDescriptorProto,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FieldOptionsSchema,
  type FileDescriptorProto,
  FileOptionsSchema,
  EnumOptionsSchema,
  EnumValueOptionsSchema,
  MessageOptionsSchema,
  MethodOptionsSchema,
  type ServiceDescriptorProto,
  ServiceOptionsSchema,
} from "@bufbuild/protobuf/wkt";
import { jsonNameOf } from "./protobuf-names";

const INDENT = "  ";

export function protoText(file: FileDescriptorProto): string {
  const lines: string[] = [`syntax = "${file.syntax === "proto3" ? "proto3" : "proto2"}";`];
  if (file.package !== "") lines.push(`package ${file.package};`);
  const imports = file.dependency.map((path, index) => {
    const kind = file.publicDependency.includes(index) ? "public " : file.weakDependency.includes(index) ? "weak " : "";
    return `import ${kind}${quoted(path)};`;
  });
  const sections = [imports, optionLines(FileOptionsSchema, file.options, "")];
  const scope = file.package === "" ? "" : `.${file.package}`;
  for (const message of file.messageType) sections.push(messageLines(message, scope, file.syntax, ""));
  for (const type of file.enumType) sections.push(enumLines(type, ""));
  for (const service of file.service) sections.push(serviceLines(service));
  sections.push(...extendBlocks(file.extension, file.syntax, ""));
  for (const section of sections.filter((s) => s.length > 0)) lines.push("", ...section);
  return `${lines.join("\n")}\n`;
}

/** `option name = value;` for each option set in `options` (a message of `schema`); custom ones were refused earlier. */
function optionLines(schema: DescMessage, options: Message | undefined, indent: string): string[] {
  return optionEntries(schema, options).map((entry) => `${indent}option ${entry};`);
}

function optionEntries(schema: DescMessage, options: Message | undefined): string[] {
  if (options === undefined) return [];
  const entries: string[] = [];
  for (const field of schema.fields) {
    if (field.fieldKind === "message" || field.fieldKind === "list" || field.fieldKind === "map" || !isFieldSet(options, field)) continue;
    const value = (options as unknown as Record<string, unknown>)[field.localName];
    const text = field.fieldKind === "enum" ? (field.enum.values.find((v) => v.number === value)?.name ?? String(value)) : typeof value === "string" ? quoted(value) : String(value);
    entries.push(`${field.name} = ${text}`);
  }
  return entries;
}

const hasOneof = (field: FieldDescriptorProto) => isFieldSet(field, FieldDescriptorProtoSchema.field.oneofIndex);

function messageLines(message: DescriptorProto, parent: string, syntax: string, indent: string): string[] {
  const scope = `${parent}.${message.name}`;
  const inner = indent + INDENT;
  const entries = new Map(message.nestedType.filter((nested) => nested.options?.mapEntry === true).map((nested) => [`${scope}.${nested.name}`, nested]));
  const body: string[] = [...optionLines(MessageOptionsSchema, message.options, inner)];
  const printedOneofs = new Set<number>();
  for (const field of message.field) {
    const oneof = field.oneofIndex;
    if (!hasOneof(field) || field.proto3Optional) {
      body.push(`${inner}${fieldLine(field, syntax, entries, true)}`);
      continue;
    }
    if (printedOneofs.has(oneof)) continue;
    printedOneofs.add(oneof);
    body.push(`${inner}oneof ${message.oneofDecl[oneof].name} {`);
    for (const member of message.field.filter((f) => f.oneofIndex === oneof && !f.proto3Optional && hasOneof(f))) {
      body.push(`${inner}${INDENT}${fieldLine(member, syntax, entries, false)}`);
    }
    body.push(`${inner}}`);
  }
  for (const nested of message.nestedType) if (nested.options?.mapEntry !== true) body.push(...messageLines(nested, scope, syntax, inner));
  for (const type of message.enumType) body.push(...enumLines(type, inner));
  body.push(...extendBlocks(message.extension, syntax, inner).flat());
  if (message.extensionRange.length > 0) body.push(`${inner}extensions ${message.extensionRange.map((r) => range(r.start, r.end - 1)).join(", ")};`);
  if (message.reservedRange.length > 0) body.push(`${inner}reserved ${message.reservedRange.map((r) => range(r.start, r.end - 1)).join(", ")};`);
  if (message.reservedName.length > 0) body.push(`${inner}reserved ${message.reservedName.map(quoted).join(", ")};`);
  return [`${indent}message ${message.name} {`, ...body, `${indent}}`];
}

/** A field's declaration; `withLabel` false inside a oneof, where fields take none. */
function fieldLine(field: FieldDescriptorProto, syntax: string, entries: Map<string, DescriptorProto>, withLabel: boolean): string {
  const entry = field.type === FieldDescriptorProto_Type.MESSAGE ? entries.get(field.typeName) : undefined;
  const options: string[] = [];
  if (field.jsonName !== "" && field.jsonName !== jsonNameOf(field.name)) options.push(`json_name = ${quoted(field.jsonName)}`);
  if (isFieldSet(field, FieldDescriptorProtoSchema.field.defaultValue)) options.push(`default = ${defaultText(field)}`);
  options.push(...optionEntries(FieldOptionsSchema, field.options));
  const suffix = `${field.name} = ${field.number}${options.length > 0 ? ` [${options.join(", ")}]` : ""};`;
  if (entry !== undefined) return `map<${typeText(entry.field[0])}, ${typeText(entry.field[1])}> ${suffix}`;
  return `${withLabel ? labelText(field, syntax) : ""}${typeText(field)} ${suffix}`;
}

function labelText(field: FieldDescriptorProto, syntax: string): string {
  if (field.label === FieldDescriptorProto_Label.REPEATED) return "repeated ";
  if (field.label === FieldDescriptorProto_Label.REQUIRED) return "required ";
  return syntax === "proto3" && !field.proto3Optional ? "" : "optional ";
}

const typeText = (field: FieldDescriptorProto) => (field.typeName !== "" ? field.typeName : FieldDescriptorProto_Type[field.type].toLowerCase());

function defaultText(field: FieldDescriptorProto): string {
  if (field.type === FieldDescriptorProto_Type.STRING) return quoted(field.defaultValue);
  // protoc keeps a bytes default C-escaped; only one without escapes is written back (as text parsing takes it).
  if (field.type === FieldDescriptorProto_Type.BYTES) {
    if (field.defaultValue.includes("\\")) throw new Error(`the bytes default of field ${field.name} holds escapes, which are not supported`);
    return `"${field.defaultValue}"`;
  }
  return field.defaultValue;
}

function enumLines(type: EnumDescriptorProto, indent: string): string[] {
  const inner = indent + INDENT;
  const body = [...optionLines(EnumOptionsSchema, type.options, inner)];
  for (const value of type.value) {
    const options = optionEntries(EnumValueOptionsSchema, value.options);
    body.push(`${inner}${value.name} = ${value.number}${options.length > 0 ? ` [${options.join(", ")}]` : ""};`);
  }
  // An enum's reserved range ends where it says.
  if (type.reservedRange.length > 0) body.push(`${inner}reserved ${type.reservedRange.map((r) => range(r.start, r.end)).join(", ")};`);
  if (type.reservedName.length > 0) body.push(`${inner}reserved ${type.reservedName.map(quoted).join(", ")};`);
  return [`${indent}enum ${type.name} {`, ...body, `${indent}}`];
}

function serviceLines(service: ServiceDescriptorProto): string[] {
  const body = [...optionLines(ServiceOptionsSchema, service.options, INDENT)];
  for (const method of service.method) {
    const signature = `rpc ${method.name}(${method.clientStreaming ? "stream " : ""}${method.inputType}) returns (${method.serverStreaming ? "stream " : ""}${method.outputType})`;
    const options = optionLines(MethodOptionsSchema, method.options, INDENT + INDENT);
    body.push(options.length === 0 ? `${INDENT}${signature};` : `${INDENT}${signature} {`, ...options, ...(options.length === 0 ? [] : [`${INDENT}}`]));
  }
  return [`service ${service.name} {`, ...body, "}"];
}

/** `extend` blocks, one per extendee in the order each is first extended. */
function extendBlocks(extensions: FieldDescriptorProto[], syntax: string, indent: string): string[][] {
  const extendees = [...new Set(extensions.map((field) => field.extendee))];
  return extendees.map((extendee) => [
    `${indent}extend ${extendee} {`,
    ...extensions.filter((field) => field.extendee === extendee).map((field) => `${indent}${INDENT}${fieldLine(field, syntax, new Map(), true)}`),
    `${indent}}`,
  ]);
}

const range = (start: number, end: number) => (start === end ? String(start) : `${start} to ${end}`);

/**
 * A protobuf string literal in the escapes every parser reads (`\\`, `\n`, `\r`, `\t`), quoted with whichever
 * quote it does not hold; one holding both cannot be written so.
 */
function quoted(text: string): string {
  const quote = text.includes('"') ? "'" : '"';
  if (text.includes('"') && text.includes("'")) throw new Error(`the string ${JSON.stringify(text)} holds both quote characters, which cannot be written here`);
  const escapes: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  return `${quote}${text.replace(/[\\\n\r\t]/g, (c) => escapes[c])}${quote}`;
}
