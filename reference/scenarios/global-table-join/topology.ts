import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const customers = builder.globalTable<string, string>("customers", {}, { storeName: "customers-global" });
  const orders = builder.stream<string, string>("orders");
  orders.join(customers, (_order, customer) => customer, (customer, name) => `${name}:${customer}`).to("inner");
  orders.leftJoin(customers, (_order, customer) => customer, (customer, name) => `${name ?? "?"}:${customer}`).to("left");
}
