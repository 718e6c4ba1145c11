import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const left = builder.stream<string, string>("left").mapValues((value) => `L:${value}`);
  const right = builder.stream<string, string>("right").mapValues((value) => `R:${value}`);
  left.merge(right).to("output");
}
