import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>("input").toTable({ storeName: "table" }).toStream().to("output");
}
