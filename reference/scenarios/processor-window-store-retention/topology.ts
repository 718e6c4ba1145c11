import type { StreamsBuilder, WindowStore } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder.addStateStore({ name: "windows", type: "window", keySerde: "string", valueSerde: "string", windowSizeMs: 10, retentionMs: 30 });
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      const store = context.getStateStore<WindowStore<string, string>>("windows");
      return (record) => {
        const [command, first, second] = record.value.split(":");
        const time = Number(first);
        const answers: Record<string, () => string> = {
          put: () => (store.put(record.key, second, time), "put"),
          fetch: () => `fetched ${store.fetch(record.key, time) ?? "null"}`,
          range: () => `range ${store.fetchRange(record.key, time, Number(second)).map((entry) => `${entry.windowStart}=${entry.value}`).join(",")}`,
        };
        context.forward({ key: record.key, value: answers[command](), timestamp: record.timestamp });
      };
    }), ["windows"])
    .to("output");
}
