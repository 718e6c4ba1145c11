import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const prices = builder.table<string, string>("prices", {}, { storeName: "prices-versioned", storeType: "versioned_key_value", historyRetentionMs: 50 });
  prices.toStream().to("table-updates");
  const orders = builder.stream<string, string>("orders");
  orders.join(prices, (order, price) => `${order}@${price}`).to("inner");
  orders.leftJoin(prices, (order, price) => `${order}@${price}`).to("left");
}
