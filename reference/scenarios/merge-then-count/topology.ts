import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const left = builder.stream<string, string>("left").selectKey((_key, value) => value);
  const right = builder.stream<string, string>("right");
  left
    .merge(right)
    .groupByKey()
    .count({ storeName: "counts" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
