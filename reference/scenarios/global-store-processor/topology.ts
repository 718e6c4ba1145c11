import type { KeyValueStore, StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder.addGlobalStore<string, string>(
    { name: "names", type: "key_value", keySerde: "string", valueSerde: "string", inMemory: true },
    "customers",
    { keySerde: "string", valueSerde: "string" },
    processor<string, string, void, void>((context) => {
      const names = context.getStateStore<KeyValueStore<string, string>>("names");
      return (record) => {
        const key = record.key ?? "(no key)";
        if (record.value === null) names.delete(key);
        else names.put(key, `${record.value.toUpperCase()}@${context.recordMetadata().offset}`);
      };
    }),
  );
  builder
    .stream<string, string>("orders")
    .process(processor<string, string, string, string>((context) => {
      const names = context.getStateStore<KeyValueStore<string, string>>("names");
      return (record) => context.forward({ key: record.key, value: `${names.get(record.value) ?? "null"}:${record.key}`, timestamp: record.timestamp });
    }))
    .to("out");
}
