import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, string>("table")
    .filterNot((_key, value) => value.startsWith("x"))
    .toStream()
    .to("output");
}
