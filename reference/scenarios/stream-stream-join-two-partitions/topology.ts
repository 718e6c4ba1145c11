import { JoinWindows, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  // An order "customer:item" is keyed by its customer; a "tick" goes to one key of each partition.
  const orders = builder
    .stream<string, string>("orders")
    .flatMap((_key, value) => (value === "tick" ? [{ key: "t0", value }, { key: "t1", value }] : [{ key: value.split(":")[0], value }]));
  const payments = builder.stream<string, string>("payments");
  orders.outerJoin(payments, (order, payment) => `${order}/${payment}`, JoinWindows.ofTimeDifferenceWithNoGrace(100)).to("output");
}
