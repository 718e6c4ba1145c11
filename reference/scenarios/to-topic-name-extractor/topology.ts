import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>("input").to({ extract: (_key, value) => `out-${value.substring(0, 1)}` });
}
