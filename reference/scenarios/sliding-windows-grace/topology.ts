import { SlidingWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 15))
    .aggregate(() => "", (_key, value, aggregate: string) => aggregate + value, { storeName: "windows", storeType: "timestamped_window", valueSerde: "string" })
    .toStream()
    .to("output", {});
}
