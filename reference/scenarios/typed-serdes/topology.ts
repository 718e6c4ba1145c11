import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder.stream<number, number>("longs", { keySerde: "long", valueSerde: "long" }).mapValues((value) => value + 1).to("longs-out", { valueSerde: "long" });
  builder.stream<number, number>("ints", { keySerde: "int", valueSerde: "int" }).mapValues((value) => Math.trunc(value / 2)).to("ints-out", { valueSerde: "int" });
  builder.stream<string, number>("doubles", { valueSerde: "double" }).mapValues((value) => value * 2).to("doubles-out", { valueSerde: "double" });
}
