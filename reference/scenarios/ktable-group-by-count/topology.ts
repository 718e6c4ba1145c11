import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, string>("table")
    .groupBy((key, value) => ({ key: value, value: key }))
    .count({ storeName: "per-color" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
