import { Stores, type KeyValueIterator, type ProcessorContext, type SessionStore, type Record, type StreamsBuilder, type Windowed, type WindowStore } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("windows", 1000, 10), "string", "string"));
  builder.addStateStore(Stores.sessionStoreBuilder(Stores.persistentSessionStore("sessions", 1000), "string", "string"));
  builder
    .stream<string, string>("input")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      let windows!: WindowStore<string, string>;
      let sessions!: SessionStore<string, string>;
      const starts = (iterator: KeyValueIterator<number, string>) => [...iterator].map(({ key, value }) => `${key}=${value}`).join(",");
      const walk = (iterator: KeyValueIterator<Windowed<string>, string>) =>
        [...iterator].map(({ key, value }) => `${key.key}@${key.windowStart}-${key.windowEnd}=${value}`).join(",");
      const forward = (record: Record<string, string>, what: string, value: string) => context.forward(record.withKey(what).withValue(value));
      return {
        init(given) {
          context = given;
          windows = context.getStateStore<WindowStore<string, string>>("windows");
          sessions = context.getStateStore<SessionStore<string, string>>("sessions");
        },
        process(record) {
          const { value, timestamp } = record;
          if (value === "scan") {
            forward(record, "fetch a 0..20", starts(windows.fetch("a", 0, 20)));
            forward(record, "backwardFetch a 0..20", starts(windows.backwardFetch("a", 0, 20)));
            forward(record, "fetch a..b 0..100", walk(windows.fetch("a", "b", 0, 100)));
            forward(record, "backwardFetch ..b 0..100", walk(windows.backwardFetch(undefined, "b", 0, 100)));
            forward(record, "fetch b.. 10..20", walk(windows.fetch("b", undefined, 10, 20)));
            forward(record, "fetchAll 10..20", walk(windows.fetchAll(10, 20)));
            forward(record, "backwardFetchAll 10..20", walk(windows.backwardFetchAll(10, 20)));
            forward(record, "all", walk(windows.all()));
            forward(record, "backwardAll", walk(windows.backwardAll()));
            const found = sessions.findSessions("a", 0, 100).map(({ key, windowStart, windowEnd, value }) => `${key}@${windowStart}-${windowEnd}=${value}`);
            forward(record, "findSessions a 0..100", found.join(","));
            forward(record, "backwardFindSessions a 0..100", walk(sessions.backwardFindSessions("a", 0, 100)));
            forward(record, "findSessions a..b 15..30", walk(sessions.findSessions("a", "b", 15, 30)));
            forward(record, "backwardFindSessions a..c 0..100", walk(sessions.backwardFindSessions("a", "c", 0, 100)));
            forward(record, "session fetch a", walk(sessions.fetch("a")));
            forward(record, "session backwardFetch a", walk(sessions.backwardFetch("a")));
            forward(record, "session fetch b..c", walk(sessions.fetch("b", "c")));
            forward(record, "session backwardFetch b..c", walk(sessions.backwardFetch("b", "c")));
          } else if (value === "wdel") windows.put(record.key, null, timestamp);
          else if (value.startsWith("s")) sessions.put({ key: record.key, start: Number(value.slice(1)), end: timestamp }, `${value}-${timestamp}`);
          else windows.put(record.key, value, timestamp);
        },
      };
    }, ["windows", "sessions"])
    .to("output");
}
