import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>("input").filter((_key, value) => value.length > 2).to("output");
}
