import type { KeyValueStore, ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore({ name: "kv", type: "key_value", keySerde: "string", valueSerde: "string" });
  builder
    .stream<string, string>("input")
    .process<string, string>(
      () => {
        let context!: ProcessorContext<string, string>;
        let store!: KeyValueStore<string, string>;
        const shown = (value: string | undefined) => value ?? "null";
        return {
          init(given) {
            context = given;
            store = context.getStateStore<KeyValueStore<string, string>>("kv");
          },
          process(record) {
            const [command, argument] = record.value.split(":");
            const answers: Record<string, () => string> = {
              get: () => `got ${shown(store.get(record.key))}`,
              put: () => (store.put(record.key, argument), "put"),
              putIfAbsent: () => `was ${shown(store.putIfAbsent(record.key, argument))}`,
              delete: () => `deleted ${shown(store.delete(record.key))}`,
              "put-null": () => (store.put(record.key, null), "put null"),
            };
            context.forward({ key: record.key, value: answers[command](), timestamp: record.timestamp });
          },
        };
      },
      ["kv"],
    )
    .to("output");
}
