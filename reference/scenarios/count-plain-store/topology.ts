import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .count({ storeName: "counts", storeType: "key_value" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
