import { JoinWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const left = builder.stream<string, string>("left");
  const right = builder.stream<string, string>("right");
  const windows = JoinWindows.ofTimeDifferenceWithNoGrace(10);
  left.join(right, (l, r) => `${l}+${r}`, windows).to("inner");
  left.leftJoin(right, (l, r) => `${l}+${r}`, windows).to("left-out");
  left.outerJoin(right, (l, r) => `${l}+${r}`, windows).to("outer");
}
