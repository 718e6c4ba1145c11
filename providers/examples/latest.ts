/** latest: sensor readings (key = sensor id, JSON value) → the latest reading per sensor, timestamped. */
import type { StreamsBuilder, TopologyProvider } from "sluice";

export class LatestReadingsProvider implements TopologyProvider {
  readonly name = "LatestReadings";
  readonly version = "1.0.0";
  readonly description = "Keeps the latest reading of every sensor";
  readonly config = { "application.id": "latest" };

  topology(builder: StreamsBuilder): void {
    builder
      .stream<string, unknown>("readings", { keySerde: "string", valueSerde: "json" })
      .groupByKey()
      .reduce((_previous, next) => next, { storeName: "latest-readings", storeType: "timestamped_key_value", keySerde: "string", valueSerde: "json" });
  }
}
