import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .flatMapValues((value) => value.split(" "))
    .groupByKey()
    .windowedBy({ type: "session", gapMs: 20 })
    .count({ storeName: "sessions" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
