import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>("input").mapValues((value) => `1:${value}`).to("out1");
  builder.stream<string, string>("input").mapValues((value) => `2:${value}`).to("out2");
}
