import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy({ type: "tumbling", sizeMs: 10, graceMs: 20 })
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
