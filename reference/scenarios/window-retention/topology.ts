import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy({ type: "tumbling", sizeMs: 10 })
    .count({ storeName: "counts", retentionMs: 30 })
    .toStream()
    .to("output", { valueSerde: "long" });
}
