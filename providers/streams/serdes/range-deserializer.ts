/**
 * Deserializes the bytes from `start` to `end` of a larger buffer (a consumed record's key or value in the fetched
 * bytes): the builtin text serdes decode them in place; any other serde gets them as a Buffer view, its contract.
 */
import type { Serde } from "../../../kernel/contracts/streams/serde";
import { utf8Text } from "../../kafka-protocol/records/utf8-text";
import { jsonSerde, stringSerde } from "./builtin-serdes";

export type RangeDeserializer = (bytes: Buffer, start: number, end: number) => unknown;

export function rangeDeserializer(serde: Pick<Serde<unknown>, "deserialize">): RangeDeserializer {
  if (serde === stringSerde) return utf8Text;
  if (serde === jsonSerde) return (bytes, start, end) => JSON.parse(utf8Text(bytes, start, end));
  return (bytes, start, end) => serde.deserialize(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
}
