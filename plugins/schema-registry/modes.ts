/**
 * The registry's modes, as Confluent's registry names them: READWRITE (the default), READONLY (no registration,
 * delete or level change), READONLY_OVERRIDE (Confluent's older name for a read-only mode, kept as one), and IMPORT
 * (registrations carry their own id and version and skip the compatibility check, as when copying another registry).
 * A mode is set globally or per subject (the subject's own wins) and kept in `_schemas` as a `{"keytype":"MODE",
 * "subject":s|null,"magic":0}` key with a `{"subject","mode"}` value; a null value removes it.
 */
import { RegistryError } from "./registry-errors";

export const MODES = ["READWRITE", "READONLY", "READONLY_OVERRIDE", "IMPORT"] as const;
export type Mode = (typeof MODES)[number];
export const DEFAULT_MODE: Mode = "READWRITE";

export interface ModeKey {
  keytype: "MODE";
  subject: string | null;
  magic: 0;
}

export const isReadOnly = (mode: Mode) => mode === "READONLY" || mode === "READONLY_OVERRIDE";

/** A mode from a request, upper-cased as Confluent takes it; 42204 for anything else. */
export function modeOf(value: unknown): Mode {
  const mode = typeof value === "string" ? value.toUpperCase() : undefined;
  if (!MODES.includes(mode as Mode)) throw new RegistryError(42204, `Invalid mode '${String(value)}': valid modes are ${MODES.join(", ")}`);
  return mode as Mode;
}

/** Confluent's 42205: what the subject's mode (or the registry's state) does not allow. */
export const operationNotPermitted = (message: string) => new RegistryError(42205, message);
export const subjectModeNotConfigured = (subject: string) => new RegistryError(40409, `Subject '${subject}' does not have subject-level mode configured`);

/** The modes set, by subject; the global one under null. */
export class RegistryModes {
  private readonly modes = new Map<string | null, Mode>();

  /** One MODE record of the topic. */
  apply(key: ModeKey, value: unknown): void {
    const mode = (value as { mode?: unknown } | null)?.mode;
    if (MODES.includes(mode as Mode)) this.modes.set(key.subject, mode as Mode);
    else if (value === null) this.modes.delete(key.subject);
  }

  /** The mode set for `subject` itself (null: the global one), if any. */
  own(subject: string | null): Mode | undefined {
    return this.modes.get(subject);
  }

  /** The subjects that have a mode of their own. */
  subjects(): string[] {
    return [...this.modes.keys()].filter((subject): subject is string => subject !== null);
  }

  /** The mode that applies to `subject`: its own, else the global one, else READWRITE. */
  inScope(subject: string | null): Mode {
    return (subject === null ? undefined : this.modes.get(subject)) ?? this.modes.get(null) ?? DEFAULT_MODE;
  }
}

export function isModeKey(key: unknown): key is ModeKey {
  const candidate = key as Partial<ModeKey> | null;
  return candidate !== null && typeof candidate === "object" && candidate.keytype === "MODE" && (candidate.subject === null || typeof candidate.subject === "string");
}

/** The topic record that sets (or, with null, removes) the mode of `subject` (null: the global one). */
export function modeRecord(subject: string | null, mode: Mode | null): { key: ModeKey; value: Record<string, unknown> | null } {
  return { key: { keytype: "MODE", subject, magic: 0 }, value: mode === null ? null : { subject, mode } };
}
