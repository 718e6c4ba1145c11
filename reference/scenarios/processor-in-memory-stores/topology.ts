import { Stores, type KeyValueStore, type ProcessorContext, type SessionStore, type StreamsBuilder, type WindowStore } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("kv"), "string", "string"));
  builder.addStateStore(Stores.windowStoreBuilder(Stores.inMemoryWindowStore("windows", 1000, 10), "string", "string").withCachingEnabled());
  builder.addStateStore(Stores.sessionStoreBuilder(Stores.inMemorySessionStore("sessions", 1000), "string", "string"));
  builder
    .stream<string, string>("input")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      let kv!: KeyValueStore<string, string>;
      let windows!: WindowStore<string, string>;
      let sessions!: SessionStore<string, string>;
      return {
        init(given) {
          context = given;
          kv = context.getStateStore<KeyValueStore<string, string>>("kv");
          windows = context.getStateStore<WindowStore<string, string>>("windows");
          sessions = context.getStateStore<SessionStore<string, string>>("sessions");
        },
        process(record) {
          const { key, value, timestamp } = record;
          kv.put(key, value);
          windows.put(key, value, timestamp);
          sessions.put({ key, start: timestamp - 5, end: timestamp }, value);
          const seen = [...kv.all()].map((entry) => `${entry.key}=${entry.value}`);
          for (const entry of windows.fetch(key, 0, 100)) seen.push(`${key}@${entry.key}=${entry.value}`);
          for (const entry of sessions.fetch(key)) seen.push(`${key}[${entry.key.windowStart},${entry.key.windowEnd}]=${entry.value}`);
          context.forward(record.withValue(seen.join(" ")));
        },
      };
    }, ["kv", "windows", "sessions"])
    .to("output");
}
