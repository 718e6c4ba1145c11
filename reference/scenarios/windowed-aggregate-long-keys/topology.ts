import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<number, number>("input", { keySerde: "long", valueSerde: "long" })
    .groupByKey()
    .windowedBy({ type: "hopping", sizeMs: 20, advanceMs: 10 })
    .aggregate(() => 0, (_key, value, sum: number) => sum + value, { storeName: "sums", valueSerde: "long" })
    .toStream()
    .to("output");
}
