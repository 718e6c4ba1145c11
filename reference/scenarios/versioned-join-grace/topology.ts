import { Joined, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const prices = builder.table<string, string>("prices", {}, { storeName: "prices-versioned", storeType: "versioned_key_value", historyRetentionMs: 100 });
  const orders = builder.stream<string, string>("orders");
  orders.join(prices, (order, price) => `${order}@${price}`, Joined.as<string, string, string>("inner-join").withGracePeriod(10)).to("inner");
  orders.leftJoin(prices, (order, price) => `${order}@${price}`, Joined.as<string, string, string>("left-join").withGracePeriod(10)).to("left");
}
