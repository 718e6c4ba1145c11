import type { StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  const shifted = builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      return (record) => context.forward({ key: record.value, value: record.value, timestamp: record.timestamp + 1000 });
    }));
  shifted.to("output", { keySerde: "string", valueSerde: "string" });
  shifted
    .groupByKey({ keySerde: "string", valueSerde: "string" })
    .count({ storeName: "counts" })
    .toStream()
    .to("counts", { valueSerde: "long" });
}
