import { BufferConfig, Suppressed, TimeWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
    .count({ storeName: "counts", storeType: "timestamped_window" })
    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
    .toStream()
    .to("output", { valueSerde: "long" });
}
