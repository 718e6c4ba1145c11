import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const users = builder.table<string, string>("users", {}, { storeName: "users-store", storeType: "timestamped_key_value" });
  builder.stream<string, string>("clicks").leftJoin(users, (page, user) => `${user}@${page}`).to("output");
}
