import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .reduce((aggregate, value) => `${aggregate}+${value}`, { storeName: "reduced", storeType: "timestamped_key_value" })
    .toStream()
    .to("output");
}
