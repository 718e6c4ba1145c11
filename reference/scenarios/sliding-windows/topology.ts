import { SlidingWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(10))
    .count({ storeName: "counts", storeType: "timestamped_window" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
