import type { JsonValue, SerializerModule } from "sluice";

const WINDOWED_FIELDS = ["key", "windowEnd", "windowStart"];

/** A windowed key `{key, windowStart, windowEnd}` renders as docs/api.md#query-result writes it: `{key, window_start, window_end}`. */
export class WindowedKeyModule implements SerializerModule {
  readonly name = "windowed-key";

  handles(value: unknown): boolean {
    if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
    const keys = Object.keys(value).sort();
    return keys.length === 3 && keys.every((key, i) => key === WINDOWED_FIELDS[i]);
  }

  serialize(value: unknown, _context: unknown, render: (nested: unknown) => JsonValue): JsonValue {
    const windowed = value as { key: unknown; windowStart: number; windowEnd: number };
    return { key: render(windowed.key), window_start: windowed.windowStart, window_end: windowed.windowEnd };
  }
}
