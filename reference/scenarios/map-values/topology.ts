import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>("input").mapValues((value) => value.toUpperCase()).to("output");
}
