import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const orders = builder.table<string, string>("orders");
  const customers = builder.table<string, string>("customers");
  orders
    .join(
      customers,
      (order) => order.split(":")[0],
      (order, customer) => `${customer} ordered ${order.split(":")[1]}`,
    )
    .toStream()
    .to("output");
}
