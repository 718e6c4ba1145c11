import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, string>("table", {}, { storeName: "table-store" })
    .filter((_key, value) => !value.startsWith("x"), { storeName: "filtered" })
    .toStream()
    .to("output");
}
