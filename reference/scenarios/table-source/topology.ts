import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.table<string, string>("table", {}, { storeName: "table-store" }).toStream().to("output");
}
