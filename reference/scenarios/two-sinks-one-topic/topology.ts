import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const input = builder.stream<string, string>("input");
  input.mapValues((value) => `${value}-first`).to("output");
  input.mapValues((value) => `${value}-second`).to("output");
}
