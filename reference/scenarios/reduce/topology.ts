import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .reduce((aggregate, value) => `${aggregate}+${value}`, { storeName: "reduced" })
    .toStream()
    .to("output");
}
