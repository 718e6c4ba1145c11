import { Stores, type KeyValueStore, type StreamsBuilder } from "sluice";
import { ownKeyValues } from "../own-stores";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  const input = builder.stream<string, string>("input");
  input.groupByKey().count({ storeName: "counts", storeSupplier: ownKeyValues("counts") }).toStream().to("counts-out", { valueSerde: "long" });
  builder.addStateStore(Stores.keyValueStoreBuilder(ownKeyValues("seen"), "string", "long"));
  input
    .process(processor<string, string, string, string>((context) => {
      const seen = context.getStateStore<KeyValueStore<string, number>>("seen");
      return (record) => {
        if (record.value === "forget") seen.delete(record.key);
        else seen.put(record.key, (seen.get(record.key) ?? 0) + 1);
        const all = [...seen.all()].map(({ key, value }) => `${key}:${value}`).join(" ");
        context.forward({ key: record.key, value: all, timestamp: record.timestamp });
      };
    }), ["seen"])
    .to("seen-out");
}
