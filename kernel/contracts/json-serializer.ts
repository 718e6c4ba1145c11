/**
 * JSON serializer modules (docs/api.md#json-rendering): how values that JSON cannot represent as they are (Buffers, BigInts,
 * Dates, Maps, windowed keys, a package's own classes) become JSON in query results and event payloads.
 * Descriptor: META-INF/services/sluice.json.SerializerModule. Modules are consulted in discovery order
 * (the application's first, then Sluice's built-ins, then packages'); the first that handles a value wins.
 */
import { token } from "./token";

export const SERIALIZER_MODULE_CONTRACT = token<SerializerModule>("sluice.json.SerializerModule");

/** Container token of the JsonRenderer every plugin uses to turn records into JSON. */
export const JSON_RENDERER = token<JsonRenderer>("sluice.json.Renderer");

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Where a value comes from, so a module can decide by store or serde. */
export interface SerializationContext {
  application?: string;
  store?: string;
  /** The event stream the value is sent to. */
  stream?: string;
  /** Name of the serde the value was read with (`string`, `bytes`, `json`, …), when known. */
  serde?: string;
  /** Which part of a record: `key`, `value`, … */
  field?: string;
}

export interface SerializerModule {
  readonly name: string;
  handles(value: unknown, context: SerializationContext): boolean;
  /** Returns the JSON form; `render` renders nested values with every module. */
  serialize(value: unknown, context: SerializationContext, render: (nested: unknown) => JsonValue): JsonValue;
}

export interface JsonRenderer {
  /** The JSON form of a value; throws UnrepresentableValueError when no module and no JSON rule can take it. */
  render(value: unknown, context?: SerializationContext): JsonValue;
  /** Names of the modules in the order they are consulted. */
  modules(): string[];
}

export class UnrepresentableValueError extends Error {
  constructor(readonly typeName: string, context: SerializationContext) {
    const where = [
      context.application && `application '${context.application}'`,
      context.store && `store '${context.store}'`,
      context.stream && `event stream '${context.stream}'`,
      context.field && `field '${context.field}'`,
    ]
      .filter(Boolean)
      .join(", ");
    super(`Cannot render a value of type ${typeName}${where ? ` (${where})` : ""} as JSON: no serializer module handles it`);
    this.name = "UnrepresentableValueError";
  }
}
