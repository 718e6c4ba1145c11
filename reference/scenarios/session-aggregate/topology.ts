import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy({ type: "session", gapMs: 20 })
    .aggregate(() => "", (_key, value, aggregate: string) => aggregate + value, (_key, left: string, right: string) => `${left}|${right}`, { storeName: "sessions", valueSerde: "string" })
    .toStream()
    .to("output", {});
}
