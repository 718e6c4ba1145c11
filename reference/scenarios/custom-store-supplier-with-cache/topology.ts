import { Stores, type KeyValueStore, type StreamsBuilder } from "sluice";
import { ownKeyValues } from "../own-stores";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  const input = builder.stream<string, string>("input");
  const counts = input
    .flatMapValues((value) => value.split(" "))
    .groupByKey()
    .count({ storeName: "counts", storeSupplier: ownKeyValues("counts") });
  counts.toStream().to("counts-out", { valueSerde: "long" });
  counts
    .filter((_key, count) => count % 2 === 1)
    .toStream()
    .to("odd-out", { valueSerde: "long" });
  builder.addStateStore(Stores.keyValueStoreBuilder(ownKeyValues("tally"), "string", "long").withCachingEnabled());
  input
    .process(processor<string, string, string, string>((context) => {
      const tally = context.getStateStore<KeyValueStore<string, number>>("tally");
      return (record) => {
        for (const word of record.value.split(" ")) {
          if (word === "forget") tally.delete(record.key);
          else tally.put(word, (tally.get(word) ?? 0) + 1);
        }
        const all = [...tally.all()].map(({ key, value }) => `${key}:${value}`).join(" ");
        context.forward({ key: record.key, value: all, timestamp: record.timestamp });
      };
    }), ["tally"])
    .to("tally-out");
}
