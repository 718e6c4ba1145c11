import type { ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const shifted = builder.stream<string, string>("input").process<string, string>(() => {
    let context!: ProcessorContext<string, string>;
    return {
      init(given) {
        context = given;
      },
      process(record) {
        context.forward({ key: record.value, value: record.value, timestamp: record.timestamp + 1000 });
      },
    };
  });
  shifted.to("output", { keySerde: "string", valueSerde: "string" });
  shifted
    .groupByKey({ keySerde: "string", valueSerde: "string" })
    .count({ storeName: "counts", storeType: "timestamped_key_value" })
    .toStream()
    .to("counts", { valueSerde: "long" });
}
