/** How a streams application turns keys and values into bytes and back (Kafka's Serde). */

export interface Serde<T> {
  /** Shown in descriptions and errors, e.g. "string", "json". */
  readonly name: string;
  /** `topic`: where the bytes go, when they go to a topic (a sink's, a repartition's); a schema registry serde's subject comes from it. */
  serialize(value: T, topic?: string): Buffer;
  deserialize(bytes: Buffer): T;
  /**
   * For a serde that needs something from outside the process to read `bytes[start, end)` (a schema registry's
   * schema, named by an id in the bytes): undefined when it has it already — the runtime then deserializes at once,
   * so that no record waits once its schema is known — or a promise the runtime awaits before it deserializes them.
   * The promise never rejects: what could not be fetched makes `deserialize` throw, so that the record follows the
   * deserialization error policy.
   */
  prepareDeserialize?(bytes: Buffer, start: number, end: number): Promise<void> | undefined;
  /**
   * For a serde that needs something from outside the process to write to `topic` (a writer schema and its id):
   * awaited once before a task's first record, for each topic the task writes to. It may reject: the task cannot run.
   */
  prepareSerialize?(topic: string): Promise<void>;
}
