import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .flatMapValues((value) => value.split(" "))
    .groupByKey()
    .windowedBy({ type: "tumbling", sizeMs: 10, graceMs: 20 })
    .count({ storeName: "counts", storeType: "timestamped_window", caching: false, changelogConfigs: { "min.compaction.lag.ms": "5000" } })
    .toStream()
    .to("output", { valueSerde: "long" });
}
