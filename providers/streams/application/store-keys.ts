/** The keys of queries: a JSON key turned into a store key, and the partition a store key belongs to. */
import type { Serde } from "../../../kernel/contracts/streams/serde";
import { partitionOfKey } from "../../kafka-client";

/** Turns the JSON key of a query into a store key the store's key serde accepts. */
export function keyFromJson(serde: Serde<unknown>, key: unknown): unknown {
  let candidate = key;
  if ((serde.name === "long" || serde.name === "int" || serde.name === "double") && typeof key === "string" && key.trim() !== "") {
    candidate = Number(key);
  }
  if (serde.name === "string") {
    if (typeof key !== "string") throw new Error(`key must be a string for serde 'string'`);
    return key; // every string serializes: no trial needed
  }
  if (serde.name === "bytes") {
    if (typeof key !== "string") throw new Error("key must be a base64 string for serde 'bytes'");
    candidate = Buffer.from(key, "base64");
  }
  try {
    serde.serialize(candidate);
  } catch (error) {
    throw new Error(`key ${JSON.stringify(key)} does not fit serde '${serde.name}': ${(error as Error).message}`);
  }
  return candidate;
}

/** The default partitioner's partition of a store key; a string serde's key is hashed as its UTF-8 with no Buffer made. */
export function partitionOfStoreKey(serde: Serde<unknown>, key: unknown, partitionCount: number): number {
  return partitionOfKey(serde.name === "string" ? (key as string) : serde.serialize(key), partitionCount);
}
