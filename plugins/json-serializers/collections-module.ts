import type { JsonValue, SerializerModule } from "sluice";

/** A Set is an array; a Map with only string keys is an object, any other Map an array of {key, value}. */
export class CollectionsModule implements SerializerModule {
  readonly name = "collections";

  handles(value: unknown): boolean {
    return value instanceof Map || value instanceof Set;
  }

  serialize(value: unknown, _context: unknown, render: (nested: unknown) => JsonValue): JsonValue {
    if (value instanceof Set) return [...value].map(render);
    const map = value as Map<unknown, unknown>;
    if ([...map.keys()].every((key) => typeof key === "string")) {
      return Object.fromEntries([...map].map(([key, nested]) => [key as string, render(nested)]));
    }
    return [...map].map(([key, nested]) => ({ key: render(key), value: render(nested) }));
  }
}
