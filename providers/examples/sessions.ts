/**
 * sessions: clicks keyed by user → session windows with a 5-minute gap, counted in `user-sessions`, kept a day for
 * interactive queries (by default a session store keeps only gap + grace behind stream time, as in Kafka Streams).
 */
import type { StreamsBuilder, TopologyProvider } from "sluice";

export class SessionsProvider implements TopologyProvider {
  readonly name = "Sessions";
  readonly version = "1.0.0";
  readonly description = "Counts each user's clicks per session (5-minute inactivity gap)";
  readonly config = { "application.id": "sessions" };

  topology(builder: StreamsBuilder): void {
    builder
      .stream<string, string>("clicks", { keySerde: "string", valueSerde: "string" })
      .groupByKey()
      .windowedBy({ type: "session", gapMs: 5 * 60_000 })
      .count({ storeName: "user-sessions", keySerde: "string", valueSerde: "long", retentionMs: 24 * 60 * 60_000 });
  }
}
