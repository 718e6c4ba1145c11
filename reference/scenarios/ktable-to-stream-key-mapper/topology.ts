import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, string>("table")
    .toStream((key, value) => `${key}/${value}`)
    .to("output");
}
