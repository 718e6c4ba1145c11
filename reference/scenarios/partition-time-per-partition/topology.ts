import type { StreamsBuilder, TimestampExtractor } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  // A value "?" takes the time of its own partition so far.
  const timestampExtractor: TimestampExtractor = { extract: (record, partitionTime) => (record.value === "?" ? partitionTime : record.timestamp) };
  const left = builder.stream<string, string>("left", { timestampExtractor });
  const right = builder.stream<string, string>("right", { timestampExtractor });
  left.merge(right).to("output");
}
