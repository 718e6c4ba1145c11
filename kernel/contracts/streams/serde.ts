/** How a streams application turns keys and values into bytes and back (Kafka's Serde). */

export interface Serde<T> {
  /** Shown in descriptions and errors, e.g. "string", "json". */
  readonly name: string;
  serialize(value: T): Buffer;
  deserialize(bytes: Buffer): T;
}
