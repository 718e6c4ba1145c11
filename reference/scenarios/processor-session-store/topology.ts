import type { SessionStore, StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore({ name: "sessions", type: "session", keySerde: "string", valueSerde: "string", retentionMs: 1000 });
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      const store = context.getStateStore<SessionStore<string, string>>("sessions");
      return (record) => {
        const [command, first, second, value] = record.value.split(":");
        const [start, end] = [Number(first), Number(second)];
        const session = { key: record.key, start, end };
        const answers: Record<string, () => string> = {
          put: () => (store.put(session, value), "put"),
          remove: () => (store.remove(session), "removed"),
          fetch: () => `fetched ${store.fetchSession(record.key, start, end) ?? "null"}`,
          find: () => `found ${store.findSessions(record.key, start, end).map((s) => `[${s.windowStart},${s.windowEnd}]=${s.value}`).join(",")}`,
        };
        context.forward({ key: record.key, value: answers[command](), timestamp: record.timestamp });
      };
    }), ["sessions"])
    .to("output");
}
