import type { KeyValueStore, StreamsBuilder } from "sluice";
import { Stores } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  const input = builder.stream<string, string>("input");
  input.groupByKey().count({ storeName: "counts", logging: false }).toStream().to("counts-out", { valueSerde: "long" });
  input.groupByKey().windowedBy({ type: "tumbling", sizeMs: 10, graceMs: 0 }).count({ storeName: "windowed", logging: false, caching: false });
  builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("seen"), "string", "long").withLoggingDisabled());
  input
    .process(processor<string, string, string, string>((context) => {
      const seen = context.getStateStore<KeyValueStore<string, number>>("seen");
      return (record) => {
        const count = (seen.get(record.key) ?? 0) + 1;
        seen.put(record.key, count);
        context.forward({ key: record.key, value: `${record.key}=${count}`, timestamp: record.timestamp });
      };
    }), ["seen"])
    .to("seen-out");
}
