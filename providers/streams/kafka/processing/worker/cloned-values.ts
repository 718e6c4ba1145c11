/**
 * Values across threads. The structured clone keeps strings, numbers, bigints, Dates, Maps and plain objects, but a
 * Buffer arrives as a plain Uint8Array and an Error loses its class: revived here, so that a query's answer and an
 * error (BrokerConnectionError, which the application's start retries; GroupError, whose fencing it tells apart)
 * are what the same thread on the main event loop would have given.
 */
import { BrokerConnectionError, GroupError } from "../../../../kafka-client";

export interface ClonedError {
  name: string;
  message: string;
  stack?: string;
  /** BrokerConnectionError's. */
  address?: string;
  /** GroupError's. */
  group?: { groupId: string; request: string; errorCode: number };
}

export function cloneError(error: unknown): ClonedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const cloned: ClonedError = { name: error.name, message: error.message, stack: error.stack };
  if (error instanceof BrokerConnectionError) cloned.address = error.address;
  if (error instanceof GroupError) cloned.group = { groupId: error.groupId, request: error.request, errorCode: error.errorCode };
  return cloned;
}

export function reviveError(cloned: ClonedError): Error {
  let error: Error;
  if (cloned.address !== undefined) error = new BrokerConnectionError(cloned.address, "");
  else if (cloned.group) error = new GroupError(cloned.group.groupId, cloned.group.request, cloned.group.errorCode);
  else error = new Error();
  error.name = cloned.name;
  error.message = cloned.message;
  if (cloned.stack !== undefined) error.stack = cloned.stack;
  return error;
}

/** `value` with every Uint8Array that arrived for a Buffer a Buffer again (in arrays and plain objects too). */
export function reviveBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = reviveBuffers(value[i]);
    return value;
  }
  if (value !== null && typeof value === "object" && isPlain(value)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = reviveBuffers(record[key]);
  }
  return value;
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Log fields the structured clone refused, each as it is or, when it cannot be cloned (a function, say), as text. */
export function cloneableFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, cloneableValue(value)]));
}

function cloneableValue(value: unknown): unknown {
  try {
    structuredClone(value);
    return value;
  } catch {
    return value instanceof Error ? `${value.name}: ${value.message}` : String(value);
  }
}
