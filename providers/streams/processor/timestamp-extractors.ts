/**
 * Kafka Streams' built-in timestamp extractors, and the resolution of an extractor given by a source or named by
 * `default.timestamp.extractor`.
 */
import type { ConsumerRecord, TimestampExtractor, TimestampExtractorName } from "../../../kernel/contracts/streams/processor";

/** An extractor's refusal: fatal to the application, never a record for the error policy. */
export class TimestampExtractionError extends Error {
  override readonly name = "TimestampExtractionError";
}

function describe(record: ConsumerRecord): string {
  return `${record.topic}:${record.partition}@${record.offset}`;
}

/** The record's own timestamp, and `onInvalid` for a negative one (Kafka Streams' ExtractRecordMetadataTimestamp). */
function recordTimestamp(onInvalid: (record: ConsumerRecord, partitionTime: number) => number): TimestampExtractor {
  return { extract: (record, partitionTime) => (record.timestamp >= 0 ? record.timestamp : onInvalid(record, partitionTime)) };
}

export const FailOnInvalidTimestamp: TimestampExtractor = recordTimestamp((record) => {
  throw new TimestampExtractionError(`input record ${describe(record)} has an invalid (negative) timestamp ${record.timestamp}; use another timestamp extractor to process it`);
});

/** Negative stays negative: the source drops the record. */
export const LogAndSkipOnInvalidTimestamp: TimestampExtractor = recordTimestamp((record) => record.timestamp);

export const UsePartitionTimeOnInvalidTimestamp: TimestampExtractor = recordTimestamp((record, partitionTime) => {
  if (partitionTime < 0) throw new TimestampExtractionError(`cannot infer a timestamp for input record ${describe(record)}: its partition's time is unknown`);
  return partitionTime;
});

export const WallclockTimestampExtractor: TimestampExtractor = { extract: () => Date.now() };

export const BUILTIN_TIMESTAMP_EXTRACTORS: Readonly<Record<TimestampExtractorName, TimestampExtractor>> = {
  FailOnInvalidTimestamp,
  LogAndSkipOnInvalidTimestamp,
  UsePartitionTimeOnInvalidTimestamp,
  UsePreviousTimeOnInvalidTimestamp: UsePartitionTimeOnInvalidTimestamp,
  WallclockTimestampExtractor,
};

function isExtractor(value: unknown): value is TimestampExtractor {
  return typeof value === "object" && value !== null && typeof (value as TimestampExtractor).extract === "function";
}

/**
 * An extractor object (from a topology's code) or a built-in's name (also from configuration, which names no module:
 * a custom extractor is code, given by the topology through Consumed.timestampExtractor).
 */
export function resolveTimestampExtractor(spec: TimestampExtractor | string, what: string): TimestampExtractor {
  if (typeof spec !== "string") {
    if (!isExtractor(spec)) throw new Error(`the timestamp extractor of ${what} has no extract(record, partitionTime)`);
    return spec;
  }
  // Kafka Streams' class names are taken too, so one configuration serves both.
  const builtin = (BUILTIN_TIMESTAMP_EXTRACTORS as Record<string, TimestampExtractor>)[spec.replace(/^org\.apache\.kafka\.streams\.processor\./, "")];
  if (builtin === undefined) throw new Error(`unknown timestamp extractor '${spec}' for ${what}: expected ${Object.keys(BUILTIN_TIMESTAMP_EXTRACTORS).join(", ")}`);
  return builtin;
}
