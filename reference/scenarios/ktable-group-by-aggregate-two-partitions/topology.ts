import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .table<string, string>("accounts")
    .groupBy((_account, row) => ({ key: row.split(":")[0], value: row.split(":")[1] }))
    .aggregate(
      () => "",
      (_branch, amount, names) => `${names}+${amount}`,
      (_branch, amount, names) => `${names}-${amount}`,
      { storeName: "ledger", valueSerde: "string" },
    )
    .toStream()
    .to("output");
}
