import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupBy((_key, value) => (value.length === 0 ? null : value))
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
