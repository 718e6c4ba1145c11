import { EmitStrategy, SessionWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .groupByKey()
    .windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5))
    .emitStrategy(EmitStrategy.onWindowClose())
    .count({ storeName: "sessions" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
