import type { Materialized, StreamsBuilder } from "sluice";

const versioned = <V>(storeName: string): Materialized<string, V> => ({ storeName, storeType: "versioned_key_value", historyRetentionMs: 50 });

export default function topology(builder: StreamsBuilder): void {
  const prices = builder.table<string, string>("prices", {}, versioned("prices-v"));
  prices
    .filter((_key, price) => !price.startsWith("x"), versioned("kept-v"))
    .mapValues((price) => price.toUpperCase(), versioned("upper-v"))
    .toStream()
    .to("upper");
  builder
    .stream<string, string>("clicks")
    .groupByKey()
    .count({ ...versioned<number>("clicks-v"), valueSerde: "long" })
    .toStream()
    .to("counts", { valueSerde: "long" });
}
