import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string | null, string>("input")
    .flatMapValues((line) => line.toLowerCase().split(" "))
    .groupBy((_key, word) => word)
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
