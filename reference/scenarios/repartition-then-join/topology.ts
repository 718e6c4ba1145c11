import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const users = builder.table<string, string>("users", {}, { storeName: "users-store" });
  builder
    .stream<string, string>("clicks")
    .map((_key, value) => ({ key: value.split(":")[0], value: value.split(":")[1] }))
    .repartition({ name: "clicks-by-user" })
    .join(users, (page, user) => `${user}@${page}`)
    .to("output");
}
