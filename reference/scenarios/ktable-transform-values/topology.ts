import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, string>("table")
    .transformValues<string>(() => ({ transform: (key, value) => (value === null ? `gone:${key}` : `${key}=${value}`) }), [], { storeName: "described" })
    .toStream()
    .to("output");
}
