import { TimeWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const clicks = builder.stream<string, string>("clicks").groupByKey();
  const views = builder.stream<string, string>("views").groupByKey();
  clicks
    .cogroup<string>((_key, value, aggregate) => `${aggregate}C${value}`)
    .cogroup(views, (_key, value, aggregate) => `${aggregate}V${value}`)
    .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
    .aggregate(() => "", { storeName: "activity", storeType: "timestamped_window", valueSerde: "string" })
    .toStream()
    .to("output", {});
}
