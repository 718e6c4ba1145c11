import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .flatMap((key, value) => value.split(" ").map((word) => ({ key: word, value: key })))
    .groupByKey()
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
