import type { StreamsBuilder, TimestampedWindowStore } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore({ name: "windows", type: "timestamped_window", keySerde: "string", valueSerde: "string", windowSizeMs: 10, retentionMs: 1000 });
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      const store = context.getStateStore<TimestampedWindowStore<string, string>>("windows");
      return (record) => {
        const start = record.timestamp - (record.timestamp % 10);
        const before = store.fetch(record.key, start);
        store.put(record.key, before === undefined ? record.value : before.value + record.value, start, record.timestamp);
        const seen = store.fetchRange(record.key, 0, record.timestamp).map((entry) => `${entry.windowStart}=${entry.value}@${entry.timestamp}`);
        context.forward({ key: record.key, value: seen.join(","), timestamp: record.timestamp });
      };
    }), ["windows"])
    .to("output");
}
