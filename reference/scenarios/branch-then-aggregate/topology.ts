import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const [long, short] = builder.stream<string, string>("input").branch((_key, value) => value.length > 3, () => true);
  long.groupByKey().count({ storeName: "long-counts" }).toStream().to("long-counts", { valueSerde: "long" });
  short
    .groupByKey()
    .reduce((a, b) => `${a},${b}`, { storeName: "short-words" })
    .toStream()
    .to("short-words");
}
