import { Stores, stringSerde, type KeyValueIterator, type KeyValueStore, type ProcessorContext, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("kv"), "string", "string"));
  builder
    .stream<string, string>("input")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      let store!: KeyValueStore<string, string>;
      const walk = (iterator: KeyValueIterator<string, string>) => [...iterator].map(({ key, value }) => `${key}=${value}`).join(",");
      return {
        init(given) {
          context = given;
          store = context.getStateStore<KeyValueStore<string, string>>("kv");
        },
        process(record) {
          if (record.value === "scan") {
            context.forward(record.withKey("range b..d").withValue(walk(store.range("b", "d"))));
            context.forward(record.withKey("reverse b..").withValue(walk(store.reverseRange("b", undefined))));
            context.forward(record.withKey("range ..bb").withValue(walk(store.range(undefined, "bb"))));
            context.forward(record.withKey("prefix b").withValue(walk(store.prefixScan("b", stringSerde))));
            context.forward(record.withKey("all").withValue(walk(store.all())));
            context.forward(record.withKey("reverse all").withValue(walk(store.reverseAll())));
            context.forward(record.withKey("empty d..b").withValue(walk(store.range("d", "b"))));
            context.forward(record.withKey("count").withValue(String(store.approximateNumEntries())));
          } else if (record.value === "delete") store.delete(record.key);
          else if (record.value === "many") store.putAll([{ key: `${record.key}1`, value: "m1" }, { key: `${record.key}2`, value: "m2" }, { key: "a", value: null }]);
          else store.put(record.key, record.value);
        },
      };
    }, ["kv"])
    .to("output");
}
