import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const settings = builder.table<string, string>("settings");
  builder
    .stream<string, string>("events")
    .join(settings, (event, setting) => `${setting}:${event}`)
    .groupByKey()
    .windowedBy({ type: "tumbling", sizeMs: 10, graceMs: 0 })
    .count({ storeName: "counts", storeType: "timestamped_window", retentionMs: 1000 })
    .toStream()
    .map((windowed, count) => ({ key: `${windowed.key}@${windowed.windowStart}`, value: count }))
    .to("output", { valueSerde: "long" });
}
