import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy({ type: "hopping", sizeMs: 10, advanceMs: 3, graceMs: 100 })
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
