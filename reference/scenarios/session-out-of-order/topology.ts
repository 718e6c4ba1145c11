import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy({ type: "session", gapMs: 10, graceMs: 100 })
    .count({ storeName: "sessions" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
