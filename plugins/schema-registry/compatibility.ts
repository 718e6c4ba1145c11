/**
 * Compatibility levels, as Confluent's registry names them, and the Avro check behind them. Whether data written
 * with one schema can be read with another is avsc's schema resolution (`createResolver` refuses what Avro's
 * reader/writer rules refuse), so the rules are Avro's own and not restated here.
 */
import { Type } from "avsc";
import { invalidCompatibilityLevel } from "./registry-errors";

export const COMPATIBILITY_LEVELS = ["BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE", "NONE"] as const;
export type CompatibilityLevel = (typeof COMPATIBILITY_LEVELS)[number];
export const DEFAULT_COMPATIBILITY: CompatibilityLevel = "BACKWARD";

/** A level from a request, upper-cased as Confluent takes it; 42203 for anything else. */
export function compatibilityLevelOf(value: unknown): CompatibilityLevel {
  const level = typeof value === "string" ? value.toUpperCase() : undefined;
  if (!COMPATIBILITY_LEVELS.includes(level as CompatibilityLevel)) throw invalidCompatibilityLevel(String(value));
  return level as CompatibilityLevel;
}

/** A transitive level checks against every live version; the others against the latest alone. */
export const isTransitive = (level: CompatibilityLevel) => level.endsWith("_TRANSITIVE");

/**
 * Why `candidate` may not follow `existing` (both Avro schema texts) at `level`, one message per failed direction;
 * empty when it may. BACKWARD: the candidate reads the existing data. FORWARD: the existing schema reads the
 * candidate's data. FULL: both.
 */
export function incompatibilities(level: CompatibilityLevel, candidate: string, existing: string): string[] {
  if (level === "NONE") return [];
  const newer = parse(candidate);
  const older = parse(existing);
  const messages: string[] = [];
  if (!level.startsWith("FORWARD")) messages.push(...unreadable(newer, older, "the new schema cannot read data written with an earlier one"));
  if (!level.startsWith("BACKWARD")) messages.push(...unreadable(older, newer, "an earlier schema cannot read data written with the new one"));
  return messages;
}

function unreadable(reader: Type, writer: Type, what: string): string[] {
  try {
    reader.createResolver(writer);
    return [];
  } catch (error) {
    return [`${what}: ${(error as Error).message}`];
  }
}

const parse = (schema: string) => Type.forSchema(JSON.parse(schema) as Parameters<typeof Type.forSchema>[0]);
