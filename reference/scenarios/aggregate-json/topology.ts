import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, number>("input", { valueSerde: "long" })
    .groupByKey()
    .aggregate(
      () => ({ count: 0, sum: 0 }),
      (_key, value, aggregate) => ({ count: aggregate.count + 1, sum: aggregate.sum + value }),
      { storeName: "stats", valueSerde: "json" },
    )
    .toStream()
    .to("output", { valueSerde: "json" });
}
