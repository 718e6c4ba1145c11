import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, { name: string; n: number }>("input", { valueSerde: "json" })
    .mapValues((value) => ({ ...value, double: value.n * 2 }))
    .to("output", { valueSerde: "json" });
}
