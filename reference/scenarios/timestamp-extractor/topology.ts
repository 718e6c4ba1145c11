import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input", { keySerde: "string", valueSerde: "string", timestampExtractor: { extract: (record) => Number(record.value) } })
    .groupByKey()
    .count({ storeName: "counts", storeType: "timestamped_key_value" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
