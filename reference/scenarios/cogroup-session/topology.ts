import { SessionWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const clicks = builder.stream<string, string>("clicks").groupByKey();
  const views = builder.stream<string, string>("views").groupByKey();
  clicks
    .cogroup<string>((_key, value, aggregate) => `${aggregate}C${value}`)
    .cogroup(views, (_key, value, aggregate) => `${aggregate}V${value}`)
    .windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5))
    .aggregate(() => "", (_key, left, right) => `${left}|${right}`, { storeName: "sessions", valueSerde: "string" })
    .toStream()
    .to("output", {});
}
