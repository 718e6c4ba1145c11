import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .filter((_key, value) => value !== "skip")
    .groupByKey()
    .windowedBy({ type: "tumbling", sizeMs: 10 })
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
