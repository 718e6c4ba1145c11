import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const input = builder.stream<string, string>("input");
  input.foreach(() => undefined);
  input.peek(() => undefined).to("output");
}
