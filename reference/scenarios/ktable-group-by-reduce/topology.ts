import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, number>("table", { valueSerde: "long" })
    .groupBy((_key, value) => ({ key: "total", value }), { keySerde: "string", valueSerde: "long" })
    .reduce(
      (aggregate, value) => aggregate + value,
      (aggregate, old) => aggregate - old,
      { storeName: "totals" },
    )
    .toStream()
    .to("output", { valueSerde: "long" });
}
