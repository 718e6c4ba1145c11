import { JoinWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const left = builder.stream<string, string>("left");
  const right = builder.stream<string, string>("right");
  left.join(right, (l, r) => `${l}+${r}`, JoinWindows.ofTimeDifferenceWithNoGrace(10)).to("output");
}
