/**
 * The application of the join-stores crash test, loaded by `sluice start` children through a package the test
 * writes: a windowed stream-stream join counted per user (the join's window stores), and orders priced as of their
 * time from a versioned store, summed per product.
 */
import { JoinWindows, Stores, type ProcessorContext, type StreamsBuilder, type TopologyProvider, type VersionedKeyValueStore } from "../../../index";

/** Clicks and views of a user join when at most this far apart. */
export const JOIN_WINDOW_MS = 1_000;

function topology(builder: StreamsBuilder): void {
  const views = builder.stream<string, string>("views", { keySerde: "string", valueSerde: "string" });
  builder
    .stream<string, string>("clicks", { keySerde: "string", valueSerde: "string" })
    .join(views, (click, view) => `${click}+${view}`, JoinWindows.ofTimeDifferenceAndGrace(JOIN_WINDOW_MS, 3_600_000))
    .groupByKey({ keySerde: "string", valueSerde: "string" })
    .count({ storeName: "pair-counts", storeType: "key_value", keySerde: "string" });

  builder.addStateStore(Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore("price-history", 3_600_000), "string", "json"));
  builder
    .stream<string, string>(["prices", "orders"], { keySerde: "string", valueSerde: "string" })
    .process<string, number>(
      () => {
        let context!: ProcessorContext<string, number>;
        let prices!: VersionedKeyValueStore<string, number>;
        return {
          init(given) {
            context = given;
            prices = context.getStateStore("price-history");
          },
          process(record) {
            if (context.recordMetadata().topic === "prices") prices.put(record.key, Number(record.value), record.timestamp);
            else context.forward(record.withValue(prices.get(record.key, record.timestamp)?.value ?? 0));
          },
        };
      },
      ["price-history"],
    )
    .groupByKey({ keySerde: "string", valueSerde: "json" })
    .reduce((total, price) => total + price, { storeName: "order-totals", storeType: "key_value", keySerde: "string", valueSerde: "json" });
}

export class JoinStoresProvider implements TopologyProvider {
  readonly name = "JoinStores";
  readonly version = "1.0.0";
  readonly config = { "application.id": "join-stores" };
  topology = topology;
}
