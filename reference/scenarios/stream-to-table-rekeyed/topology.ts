import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .selectKey((_key, value) => value.split(":")[0])
    .toTable({ storeName: "latest" })
    .toStream()
    .to("output");
}
