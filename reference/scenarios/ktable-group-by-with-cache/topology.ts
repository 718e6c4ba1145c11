import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, string>("table", {}, { storeName: "rows" })
    .mapValues((value) => value.toUpperCase(), { storeName: "upper" })
    .groupBy((key, value) => ({ key: value, value: key }))
    .count({ storeName: "per-value" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
