import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>("input").selectKey((_key, value) => value.substring(0, 1)).to("output");
}
