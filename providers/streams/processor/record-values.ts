/**
 * The Processor API's classes as a topology imports them from "sluice": Record (Kafka Streams' Record, whose type
 * the contract declares) and RecordHeaders.
 */
import type { Record as RecordType, RecordConstructor } from "../../../kernel/contracts/streams/processor";
import { StreamsRecord } from "./record";

/** `new Record(key, value, timestamp, headers?)`. */
export const Record: RecordConstructor = StreamsRecord;
export type Record<K, V> = RecordType<K, V>;
export { RecordHeaders } from "./record-headers";
