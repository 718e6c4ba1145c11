import type { JsonValue, SerializerModule } from "sluice";

/** A BigInt is a JSON number while it is exact as one (|n| ≤ 2^53 − 1), a decimal string beyond. */
export class BigIntModule implements SerializerModule {
  readonly name = "bigint";

  handles(value: unknown): boolean {
    return typeof value === "bigint";
  }

  serialize(value: unknown): JsonValue {
    const n = value as bigint;
    const safe = n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER);
    return safe ? Number(n) : n.toString();
  }
}
