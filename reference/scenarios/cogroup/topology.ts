import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const clicks = builder.stream<string, string>("clicks").groupByKey();
  const views = builder.stream<string, string>("views").groupByKey();
  clicks
    .cogroup<string>((_key, _value, aggregate) => `${aggregate}C`)
    .cogroup(views, (_key, _value, aggregate) => `${aggregate}V`)
    .aggregate(() => "", { storeName: "activity", storeType: "timestamped_key_value" })
    .toStream()
    .to("output");
}
