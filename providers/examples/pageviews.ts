/**
 * pageviews: JSON `{"user","page"}` keyed by user → views per page in 1-minute tumbling windows. A view may arrive up
 * to 5 minutes late (an instance restarting, a partition behind another after a rebalance) and still be counted.
 * Windows are kept a day for interactive queries (by default only size + grace, as in Kafka Streams).
 */
import type { StreamsBuilder, TopologyProvider } from "sluice";

export interface PageView {
  user: string;
  page: string;
}

export class PageViewsProvider implements TopologyProvider {
  readonly name = "PageViews";
  readonly version = "1.0.0";
  readonly description = "Counts page views per page in one-minute windows";
  readonly config = { "application.id": "pageviews" };

  topology(builder: StreamsBuilder): void {
    builder
      .stream<string, PageView>("pageviews", { keySerde: "string", valueSerde: "json" })
      .groupBy((_user, view) => view.page, { keySerde: "string", valueSerde: "json", name: "views-by-page" })
      .windowedBy({ type: "tumbling", sizeMs: 60_000, graceMs: 5 * 60_000 })
      .count({ storeName: "views-per-minute", keySerde: "string", valueSerde: "long", retentionMs: 24 * 60 * 60_000 });
  }
}
