import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, string>("table")
    .mapValues((value) => value.toUpperCase(), { storeName: "upper" })
    .toStream()
    .to("output");
}
