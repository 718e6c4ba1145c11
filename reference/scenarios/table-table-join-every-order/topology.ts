import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const left = builder.table<string, string>("left");
  const right = builder.table<string, string>("right");
  left.join(right, (l, r) => `${l}+${r}`).toStream().to("inner");
  left.leftJoin(right, (l, r) => `${l}+${r}`).toStream().to("left-out");
  left.outerJoin(right, (l, r) => `${l}+${r}`).toStream().to("outer");
}
