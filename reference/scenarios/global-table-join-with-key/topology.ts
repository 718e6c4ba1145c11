import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const customers = builder.globalTable<string, string>("customers", {}, { storeName: "customers-store" });
  const orders = builder.stream<string, string>("orders");
  const customerOf = (_order: string, ref: string) => (ref === null || ref.startsWith("none") ? null : ref.split("/")[0]);
  orders.join(customers, customerOf, (order, customer, key) => `${key}|${customer}:${order}`).to("inner");
  orders.leftJoin(customers, customerOf, (order, customer, key) => `${key}|${customer}:${order}`).to("left");
}
