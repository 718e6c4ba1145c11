/**
 * The one encoder and decoder for every API: it walks a message declaration, compiled once per version
 * into the fields present in that version (and the defaults of those that are not). Flexible versions (KIP-482)
 * write lengths and counts as unsigned varints and end every struct with its tagged fields: those are read past,
 * and none are written, since no message Sluice declares has one.
 */
import type { ByteReader } from "./byte-reader";
import type { ByteWriter } from "./byte-writer";
import type { ChunkedBytes } from "./chunked-bytes";
import { MalformedMessageError } from "./malformed-message-error";
import type { FieldSpec, ScalarType } from "./schema";
import { inRange, parseVersionRange, type VersionRange } from "./version-range";

/** Kafka's Uuid.ZERO_UUID as it is printed: "no id" (a topic id of a broker that has none). */
export const ZERO_UUID = "AAAAAAAAAAAAAAAAAAAAAA";

interface CompiledField {
  readonly name: string;
  readonly type: ScalarType;
  readonly array: boolean;
  /** One struct rather than an array of them. */
  readonly single: boolean;
  readonly nullable: boolean;
  /** For an array of structs. */
  readonly struct: CompiledStruct | null;
  /** What an omitted value (encoding) or a field absent from this version (decoding) stands for. */
  readonly defaultValue: () => unknown;
}

interface CompiledStruct {
  readonly present: readonly CompiledField[];
  readonly absent: readonly CompiledField[];
  readonly flexible: boolean;
}

const TYPE_DEFAULTS: Record<ScalarType, () => unknown> = {
  int8: () => 0,
  int16: () => 0,
  int32: () => 0,
  int64: () => 0n,
  boolean: () => false,
  string: () => "",
  bytes: () => Buffer.alloc(0),
  records: () => null,
  uuid: () => ZERO_UUID,
};

function defaultOf(field: FieldSpec): () => unknown {
  if (field.default !== undefined) {
    const value = field.default;
    return Array.isArray(value) ? () => [] : () => value;
  }
  if (field.nullableVersions !== undefined) return () => null;
  if ("fields" in field && field.single === true) return () => null;
  if ("fields" in field || field.array) return () => [];
  return TYPE_DEFAULTS[field.type];
}

function compileStruct(fields: readonly FieldSpec[], version: number, flexible: boolean): CompiledStruct {
  const present: CompiledField[] = [];
  const absent: CompiledField[] = [];
  for (const field of fields) {
    const isStructArray = "fields" in field;
    const compiled: CompiledField = {
      name: field.name,
      type: isStructArray ? "int8" : field.type,
      array: (isStructArray && field.single !== true) || (!isStructArray && field.array === true),
      single: isStructArray && field.single === true,
      nullable: field.nullableVersions !== undefined && inRange(parseVersionRange(field.nullableVersions), version),
      struct: isStructArray ? compileStruct(field.fields, version, flexible) : null,
      defaultValue: defaultOf(field),
    };
    (inRange(parseVersionRange(field.versions ?? "0+"), version) ? present : absent).push(compiled);
  }
  return { present, absent, flexible };
}

/** Reads and writes the values of one declaration (a request or a response) at any of its versions. */
export class MessageCodec {
  private readonly compiled = new Map<number, CompiledStruct>();

  private readonly flexible: VersionRange | null;

  /** `flexibleVersions`: the versions in the flexible encoding, as declarations write ranges; none when omitted. */
  constructor(
    private readonly name: string,
    private readonly fields: readonly FieldSpec[],
    flexibleVersions?: string,
  ) {
    this.flexible = flexibleVersions === undefined ? null : parseVersionRange(flexibleVersions);
  }

  isFlexible(version: number): boolean {
    return this.flexible !== null && inRange(this.flexible, version);
  }

  private at(version: number): CompiledStruct {
    let struct = this.compiled.get(version);
    if (!struct) {
      struct = compileStruct(this.fields, version, this.isFlexible(version));
      this.compiled.set(version, struct);
    }
    return struct;
  }

  decode(reader: ByteReader, version: number): Record<string, unknown> {
    return decodeStruct(reader, this.at(version));
  }

  encode(writer: ByteWriter, version: number, value: object): void {
    encodeStruct(writer, this.at(version), value as Record<string, unknown>, this.name);
  }
}

function decodeStruct(reader: ByteReader, struct: CompiledStruct): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of struct.present) value[field.name] = decodeField(reader, field, struct.flexible);
  for (const field of struct.absent) value[field.name] = field.defaultValue();
  if (struct.flexible) reader.skipTaggedFields();
  return value;
}

function decodeField(reader: ByteReader, field: CompiledField, flexible: boolean): unknown {
  if (field.single) return field.nullable && reader.int8() < 0 ? null : decodeStruct(reader, field.struct!);
  if (!field.array) return decodeScalar(reader, field.type, field.nullable, field.name, flexible);
  const count = flexible ? reader.compactArrayLength() : reader.arrayLength();
  if (count === null) return nullOrReject(field.nullable, field.name);
  const items = new Array<unknown>(count);
  for (let i = 0; i < count; i++) {
    items[i] = field.struct ? decodeStruct(reader, field.struct) : decodeScalar(reader, field.type, false, field.name, flexible);
  }
  return items;
}

function nullOrReject(nullable: boolean, name: string): null {
  if (!nullable) throw new MalformedMessageError(`${name} is null where it may not be`);
  return null;
}

function decodeScalar(reader: ByteReader, type: ScalarType, nullable: boolean, name: string, flexible: boolean): unknown {
  switch (type) {
    case "int8":
      return reader.int8();
    case "int16":
      return reader.int16();
    case "int32":
      return reader.int32();
    case "int64":
      return reader.int64();
    case "boolean":
      return reader.boolean();
    case "string":
      return (flexible ? reader.compactNullableString() : reader.nullableString()) ?? nullOrReject(nullable, name);
    case "bytes":
      return (flexible ? reader.compactNullableBytes() : reader.nullableBytes()) ?? nullOrReject(nullable, name);
    case "records":
      return (flexible ? reader.compactNullableRecords() : reader.nullableRecords()) ?? nullOrReject(nullable, name);
    case "uuid":
      return reader.uuid();
  }
}

function encodeStruct(writer: ByteWriter, struct: CompiledStruct, value: Record<string, unknown>, path: string): void {
  for (const field of struct.present) {
    const given = value[field.name];
    encodeField(writer, field, given === undefined ? field.defaultValue() : given, `${path}.${field.name}`, struct.flexible);
  }
  if (struct.flexible) writer.noTaggedFields();
}

function encodeField(writer: ByteWriter, field: CompiledField, value: unknown, path: string, flexible: boolean): void {
  if (value === null && !field.nullable) throw new Error(`${path} may not be null in this version`);
  if (field.single) {
    if (field.nullable) writer.int8(value === null ? -1 : 1);
    if (value !== null) encodeStruct(writer, field.struct!, value as Record<string, unknown>, path);
    return;
  }
  if (!field.array) {
    encodeScalar(writer, field.type, value, flexible);
    return;
  }
  const items = value as unknown[] | null;
  if (flexible) writer.compactArrayLength(items === null ? null : items.length);
  else writer.int32(items === null ? -1 : items.length);
  for (const item of items ?? []) {
    if (field.struct) encodeStruct(writer, field.struct, item as Record<string, unknown>, path);
    else encodeScalar(writer, field.type, item, flexible);
  }
}

function encodeScalar(writer: ByteWriter, type: ScalarType, value: unknown, flexible: boolean): void {
  switch (type) {
    case "int8":
      return writer.int8(value as number);
    case "int16":
      return writer.int16(value as number);
    case "int32":
      return writer.int32(value as number);
    case "int64":
      return writer.int64(value as bigint);
    case "boolean":
      return writer.boolean(value as boolean);
    case "string":
      return flexible ? writer.compactNullableString(value as string | null) : writer.nullableString(value as string | null);
    case "bytes":
      return flexible ? writer.compactNullableBytes(value as Buffer | null) : writer.nullableBytes(value as Buffer | null);
    case "records":
      return flexible ? writer.compactNullableRecords(value as ChunkedBytes | null) : writer.nullableRecords(value as ChunkedBytes | null);
    case "uuid":
      return writer.uuid(value as string);
  }
}
