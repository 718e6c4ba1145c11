import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string | null>("input").mapValues((value) => (value === null ? "was null" : `${value}!`)).to("output");
}
