import { Stores, type StreamsBuilder, type TimestampedKeyValueStore } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder.addGlobalStore<string, number>(
    Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore("totals"), "string", "long"),
    "amounts",
    { keySerde: "string", valueSerde: "long" },
    processor<string, number, void, void>((context) => {
      const totals = context.getStateStore<TimestampedKeyValueStore<string, number>>("totals");
      return (record) => {
        if (record.key === null || record.value === null) return;
        const before = totals.get(record.key);
        totals.put(record.key, (before?.value ?? 0) + record.value, Math.max(record.timestamp, before?.timestamp ?? 0));
      };
    }),
  );
  builder
    .stream<string, string>("asks")
    .process(processor<string, string, string, string>((context) => {
      const totals = context.getStateStore<TimestampedKeyValueStore<string, number>>("totals");
      return (record) => {
        const listed = [...totals.all()].map(({ key, value }) => `${key}=${value.value}@${value.timestamp}`);
        context.forward({ key: record.key, value: listed.join(" "), timestamp: record.timestamp });
      };
    }))
    .to("listing");
}
