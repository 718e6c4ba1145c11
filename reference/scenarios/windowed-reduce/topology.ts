import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy({ type: "tumbling", sizeMs: 10, graceMs: 10 })
    .reduce((aggregate, value) => aggregate + value, { storeName: "reduced" })
    .toStream()
    .to("output");
}
