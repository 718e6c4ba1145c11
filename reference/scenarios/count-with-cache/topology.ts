import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .flatMapValues((value) => value.split(" "))
    .groupByKey()
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
