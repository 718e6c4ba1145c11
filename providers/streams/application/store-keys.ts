/** Turns the JSON key of a query into a store key the store's key serde accepts. */
import type { Serde } from "../../../kernel/contracts/streams/serde";

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
