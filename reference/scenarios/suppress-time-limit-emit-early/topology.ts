import { BufferConfig, Suppressed, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .count({ storeName: "counts", storeType: "timestamped_key_value" })
    .suppress(Suppressed.untilTimeLimit(100, BufferConfig.maxRecords(2).emitEarlyWhenFull()))
    .toStream()
    .to("output", { valueSerde: "long" });
}
