/**
 * Compatibility levels, as Confluent's registry names them, and what each checks: which way data must be readable
 * between a candidate schema and an existing one. What "readable" means is each schema type's (schema-types).
 */
import { invalidCompatibilityLevel } from "./registry-errors";
import type { ResolvedSchema, SchemaType } from "./schema-types";

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
 * Why `candidate` may not follow `existing` (schemas of `type`) at `level`, one message per failed rule; empty when
 * it may. BACKWARD: the candidate reads the existing data. FORWARD: the existing schema reads the candidate's data.
 * FULL: both.
 */
export function incompatibilities(level: CompatibilityLevel, type: SchemaType, candidate: ResolvedSchema, existing: ResolvedSchema): string[] {
  if (level === "NONE") return [];
  const messages: string[] = [];
  if (!level.startsWith("FORWARD")) messages.push(...type.unreadable(candidate, existing).map((why) => `the new schema cannot read data written with an earlier one: ${why}`));
  if (!level.startsWith("BACKWARD")) messages.push(...type.unreadable(existing, candidate).map((why) => `an earlier schema cannot read data written with the new one: ${why}`));
  return messages;
}
