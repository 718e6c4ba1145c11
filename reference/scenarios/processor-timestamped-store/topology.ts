import type { ProcessorContext, StreamsBuilder, TimestampedKeyValueStore } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore({ name: "latest", type: "timestamped_key_value", keySerde: "string", valueSerde: "string" });
  builder
    .stream<string, string>("input")
    .process<string, string>(
      () => {
        let context!: ProcessorContext<string, string>;
        let store!: TimestampedKeyValueStore<string, string>;
        return {
          init(given) {
            context = given;
            store = context.getStateStore<TimestampedKeyValueStore<string, string>>("latest");
          },
          process(record) {
            const previous = store.get(record.key);
            store.put(record.key, record.value, record.timestamp);
            context.forward({ key: record.key, value: previous === undefined ? "first" : `${previous.value}@${previous.timestamp}`, timestamp: record.timestamp });
          },
        };
      },
      ["latest"],
    )
    .to("output");
}
