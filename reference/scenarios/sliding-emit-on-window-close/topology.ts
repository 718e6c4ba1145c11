import { EmitStrategy, SlidingWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5))
    .emitStrategy(EmitStrategy.onWindowClose())
    .count({ storeName: "counts", storeType: "timestamped_window" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
