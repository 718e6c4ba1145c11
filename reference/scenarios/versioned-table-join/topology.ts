import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const prices = builder.table<string, string>("prices", {}, { storeName: "prices-versioned", storeType: "versioned_key_value", historyRetentionMs: 100 });
  builder.stream<string, string>("orders").leftJoin(prices, (order, price) => `${order}@${price}`).to("output");
}
