import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const users = builder.table<string, string>("users", {}, { storeName: "users-store" });
  const clicks = builder.stream<string, string>("clicks");
  clicks.join(users, (page, user) => `${user}@${page}`).to("inner");
  clicks.leftJoin(users, (page, user) => `${user ?? "?"}@${page}`).to("left");
}
