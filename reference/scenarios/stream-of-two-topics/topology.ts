import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>(["first", "second"]).mapValues((value) => `seen ${value}`).to("output");
}
