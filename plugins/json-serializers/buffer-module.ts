import type { JsonValue, SerializationContext, SerializerModule } from "sluice";

/** Buffers read with a string serde are UTF-8 text; any other Buffer is base64. */
export class BufferModule implements SerializerModule {
  readonly name = "buffer";

  handles(value: unknown): boolean {
    return Buffer.isBuffer(value) || value instanceof Uint8Array;
  }

  serialize(value: unknown, context: SerializationContext): JsonValue {
    const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
    return context.serde === "string" ? bytes.toString("utf8") : bytes.toString("base64");
  }
}
