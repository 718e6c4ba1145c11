import { SessionWindows, TimeWindows, type StreamsBuilder } from "sluice";
import { ownSessions, ownWindows } from "../own-stores";

export default function topology(builder: StreamsBuilder): void {
  // Each word of a value is one record: with the record cache on, one value's updates of a window fold.
  const grouped = builder
    .stream<string, string>("input")
    .flatMapValues((value) => value.split(" "))
    .groupByKey();
  grouped
    .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
    .count({ storeName: "short-retention", storeSupplier: ownWindows("short-retention", 12, 10) })
    .toStream()
    .to("windowed-out", { valueSerde: "long" });
  grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count({ storeName: "other-size", storeSupplier: ownWindows("other-size", 1000, 25) });
  grouped
    .windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 0))
    .count({ storeName: "sessions", storeSupplier: ownSessions("sessions", 100) })
    .toStream()
    .to("sessions-out", { valueSerde: "long" });
}
