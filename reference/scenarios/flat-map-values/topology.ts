import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<string, string>("input").flatMapValues((value) => value.split(" ").filter((word) => word.length > 0)).to("output");
}
