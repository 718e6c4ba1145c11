import { JoinWindows, SessionWindows, SlidingWindows, StreamJoined, TimeWindows, type StreamsBuilder } from "sluice";
import { ownSessions, ownWindows } from "../own-stores";

export default function topology(builder: StreamsBuilder): void {
  const clicks = builder.stream<string, string>("clicks");
  const views = builder.stream<string, string>("views");
  // A left join whose two window stores are the user's (size 20 = before + after, retention 25 = size + grace).
  clicks
    .leftJoin(
      views,
      (click, view) => `${click}+${view}`,
      JoinWindows.ofTimeDifferenceAndGrace(10, 5),
      StreamJoined.with<string, string, string>("string", "string", "string")
        .withThisStoreSupplier(ownWindows("clicks-seen", 25, 20, true))
        .withOtherStoreSupplier(ownWindows("views-seen", 25, 20, true)),
    )
    .to("joined");
  clicks
    .groupByKey()
    .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5))
    .count({ storeName: "sliding", storeSupplier: ownWindows("sliding", 100, 10) })
    .toStream()
    .to("sliding-out", { valueSerde: "long" });
  clicks
    .groupByKey()
    .cogroup<string>((_key, value, aggregate) => `${aggregate}C${value}`)
    .cogroup(views.groupByKey(), (_key, value, aggregate) => `${aggregate}V${value}`)
    .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
    .aggregate(() => "", { storeName: "activity", storeSupplier: ownWindows("activity", 100, 10) })
    .toStream()
    .to("activity-out");
  clicks
    .groupByKey()
    .cogroup<string>((_key, value, aggregate) => `${aggregate}C${value}`)
    .cogroup(views.groupByKey(), (_key, value, aggregate) => `${aggregate}V${value}`)
    .windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 0))
    .aggregate(() => "", (_key, left, right) => left + right, { storeName: "visits", storeSupplier: ownSessions("visits", 100) })
    .toStream()
    .to("visits-out");
}
