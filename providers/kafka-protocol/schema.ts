/**
 * The declarative shape of a Kafka message: fields carrying the version ranges they exist in and the
 * ranges in which they may be null. Request and response types are derived from these declarations.
 */

import type { ChunkedBytes } from "./chunked-bytes";

export type ScalarType = "int8" | "int16" | "int32" | "int64" | "boolean" | "string" | "bytes" | "records" | "uuid";

interface ScalarValues {
  int8: number;
  int16: number;
  int32: number;
  int64: bigint;
  boolean: boolean;
  string: string;
  bytes: Buffer;
  /** A record set: concatenated record batches, kept as raw bytes in the chunks they arrived or are stored in. */
  records: ChunkedBytes;
  /** Kafka's Uuid (topic ids): 16 bytes, written as Kafka prints them, in URL-safe base64 without padding. */
  uuid: string;
}

interface FieldCommon {
  readonly name: string;
  /** Versions the field is present in; "0+" when omitted. */
  readonly versions?: string;
  /** Versions in which the value may be null (strings, bytes, records, arrays). */
  readonly nullableVersions?: string;
}

/** A single value, or with `array: true` an array of values. */
export interface ScalarField extends FieldCommon {
  readonly type: ScalarType;
  readonly array?: boolean;
  /** Used when decoding a version without the field, and when encoding an omitted value. */
  readonly default?: unknown;
}

/** An array of structs; with `single: true` one struct (nullable ones are written after a presence byte). */
export interface StructArrayField extends FieldCommon {
  readonly fields: readonly FieldSpec[];
  readonly single?: boolean;
  readonly default?: readonly never[] | null;
}

export type FieldSpec = ScalarField | StructArrayField;

export interface ApiSpec<Req extends readonly FieldSpec[] = readonly FieldSpec[], Res extends readonly FieldSpec[] = readonly FieldSpec[]> {
  readonly name: string;
  readonly apiKey: number;
  /** The versions declared: the broker serves them all, the client sends some (see ApiCodec). */
  readonly versions: string;
  /** Those in the flexible encoding (compact lengths, tagged fields, request header v2, response header v1); none when omitted. */
  readonly flexibleVersions?: string;
  readonly request: Req;
  readonly response: Res;
}

/** Keeps the literal types of a declaration so that its request and response types can be derived. */
export function defineApi<const Req extends readonly FieldSpec[], const Res extends readonly FieldSpec[]>(
  spec: ApiSpec<Req, Res>,
): ApiSpec<Req, Res> {
  return spec;
}

/** A message that starts with its own version: Kafka's "data" messages, such as the consumer protocol's. */
export interface DataSpec<F extends readonly FieldSpec[] = readonly FieldSpec[]> {
  readonly name: string;
  /** The versions declared, all of them non-flexible. */
  readonly versions: string;
  readonly fields: F;
}

/** Keeps the literal types of a data message's declaration, as defineApi does. */
export function defineData<const F extends readonly FieldSpec[]>(spec: DataSpec<F>): DataSpec<F> {
  return spec;
}

type BaseValue<F> = F extends { readonly fields: infer S extends readonly FieldSpec[] }
  ? F extends { readonly single: true }
    ? StructOf<S>
    : StructOf<S>[]
  : F extends { readonly type: infer T extends ScalarType }
    ? F extends { readonly array: true }
      ? ScalarValues[T][]
      : ScalarValues[T]
    : never;

type FieldValue<F> = F extends { readonly nullableVersions: string } ? BaseValue<F> | null : BaseValue<F>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Fields with a declared default may be omitted when encoding; decoding always fills them. */
export type StructOf<S extends readonly FieldSpec[]> = Simplify<
  { -readonly [F in S[number] as F extends { readonly default: unknown } ? never : F["name"]]: FieldValue<F> } & {
    -readonly [F in S[number] as F extends { readonly default: unknown } ? F["name"] : never]?: FieldValue<F>;
  }
>;

/** What decoding yields: every field present. */
export type DecodedStructOf<S extends readonly FieldSpec[]> = Simplify<{
  -readonly [F in S[number] as F["name"]]: DecodedValue<F>;
}>;

type DecodedBase<F> = F extends { readonly fields: infer S extends readonly FieldSpec[] }
  ? F extends { readonly single: true }
    ? DecodedStructOf<S>
    : DecodedStructOf<S>[]
  : BaseValue<F>;
type DecodedValue<F> = F extends { readonly nullableVersions: string } ? DecodedBase<F> | null : DecodedBase<F>;

export type RequestOf<A extends ApiSpec> = DecodedStructOf<A["request"]>;
export type ResponseOf<A extends ApiSpec> = StructOf<A["response"]>;
