import type { StreamsBuilder, TimestampedKeyValueStore } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore({ name: "latest", type: "timestamped_key_value", keySerde: "string", valueSerde: "string" });
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      const store = context.getStateStore<TimestampedKeyValueStore<string, string>>("latest");
      return (record) => {
        const previous = store.get(record.key);
        store.put(record.key, record.value, record.timestamp);
        context.forward({ key: record.key, value: previous === undefined ? "first" : `${previous.value}@${previous.timestamp}`, timestamp: record.timestamp });
      };
    }), ["latest"])
    .to("output");
}
