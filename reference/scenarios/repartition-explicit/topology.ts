import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .selectKey((_key, value) => value)
    .repartition({ name: "by-value", numberOfPartitions: 2 })
    .groupByKey()
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
