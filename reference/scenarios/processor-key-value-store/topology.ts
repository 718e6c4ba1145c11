import type { KeyValueStore, StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore({ name: "kv", type: "key_value", keySerde: "string", valueSerde: "string" });
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      const store = context.getStateStore<KeyValueStore<string, string>>("kv");
      const shown = (value: string | undefined) => value ?? "null";
      return (record) => {
        const [command, argument] = record.value.split(":");
        const answers: Record<string, () => string> = {
          get: () => `got ${shown(store.get(record.key))}`,
          put: () => (store.put(record.key, argument), "put"),
          putIfAbsent: () => `was ${shown(store.putIfAbsent(record.key, argument))}`,
          delete: () => `deleted ${shown(store.delete(record.key))}`,
          "put-null": () => (store.put(record.key, null), "put null"),
        };
        context.forward({ key: record.key, value: answers[command](), timestamp: record.timestamp });
      };
    }), ["kv"])
    .to("output");
}
