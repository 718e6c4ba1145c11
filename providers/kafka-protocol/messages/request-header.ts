import type { FieldSpec } from "../schema";

/**
 * Request header v1, which every non-flexible request uses. A flexible version's header (v2) adds its tagged fields
 * after these, which ApiCodec reads and writes with the body.
 */
export const RequestHeaderFields = [
  { name: "apiKey", type: "int16" },
  { name: "apiVersion", type: "int16" },
  { name: "correlationId", type: "int32" },
  { name: "clientId", type: "string", nullableVersions: "1+" },
] as const satisfies readonly FieldSpec[];

export const REQUEST_HEADER_VERSION = 1;
