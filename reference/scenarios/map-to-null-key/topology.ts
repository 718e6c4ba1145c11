import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .map((key, value) => ({ key: value === "drop-key" ? null : key, value: value === "drop-value" ? null : value }))
    .to("output");
}
