import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const left = builder.table<string, string>("left");
  const right = builder.table<string, string>("right");
  left
    .outerJoin(right, (l, r) => `${l}+${r}`, { storeName: "joined" })
    .toStream()
    .to("output");
}
