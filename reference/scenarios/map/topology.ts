import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>("input").map((key, value) => ({ key: `${value}@${key}`, value: value.length })).to("output", { valueSerde: "long" });
}
