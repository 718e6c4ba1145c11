import { PUT_RETURN_CODE_NOT_PUT, Stores, type StreamsBuilder, type VersionedKeyValueStore, type VersionedRecord } from "sluice";
import { processor } from "../processors";

// The validTo of what get and delete return is left out: Kafka Streams' processor-facing store leaves it empty.
const show = (record: VersionedRecord<string> | undefined) => (record === undefined ? "null" : `${record.value}@${record.timestamp}`);

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore(Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore("versions", 50), "string", "string"));
  // A record's value is a command on its key at its timestamp: put:V, del, get, get:T.
  builder
    .stream<string, string>("commands")
    .process(processor<string, string, string, string>((context) => {
      const store = context.getStateStore<VersionedKeyValueStore<string, string>>("versions");
      return (record) => {
        const command = record.value;
        let result: string;
        if (command.startsWith("put:")) {
          const code = store.put(record.key, command.slice(4), record.timestamp);
          result = code === PUT_RETURN_CODE_NOT_PUT ? "NOT_PUT" : String(code);
        } else if (command === "del") {
          result = show(store.delete(record.key, record.timestamp));
        } else if (command === "get") {
          result = show(store.get(record.key));
        } else {
          result = show(store.get(record.key, Number(command.slice(4))));
        }
        context.forward({ key: record.key, value: `${command} -> ${result}`, timestamp: record.timestamp });
      };
    }), ["versions"])
    .to("results");
}
