import { Stores, type KeyValue, type KeyValueBytesStore, type KeyValueBytesStoreSupplier, type KeyValueStore, type StreamsBuilder } from "sluice";
import { processor } from "../processors";

/** A user's own key-value store: a Map, walked in key byte order. */
class MapStore implements KeyValueBytesStore {
  private readonly entries = new Map<string, Buffer>();
  get(key: Buffer): Buffer | undefined {
    return this.entries.get(key.toString("latin1"));
  }
  put(key: Buffer, value: Buffer): void {
    this.entries.set(key.toString("latin1"), value);
  }
  delete(key: Buffer): Buffer | undefined {
    const removed = this.get(key);
    this.entries.delete(key.toString("latin1"));
    return removed;
  }
  range(from: Buffer | undefined, to: Buffer | undefined): Iterable<KeyValue<Buffer, Buffer>> {
    return [...this.entries]
      .map(([key, value]) => ({ key: Buffer.from(key, "latin1"), value }))
      .filter(({ key }) => (from === undefined || Buffer.compare(key, from) >= 0) && (to === undefined || Buffer.compare(key, to) <= 0))
      .sort((a, b) => Buffer.compare(a.key, b.key));
  }
  approximateNumEntries(): number {
    return this.entries.size;
  }
}

const own = (name: string): KeyValueBytesStoreSupplier => ({ name, get: () => new MapStore(), metricsScope: () => "own" });

export default function topology(builder: StreamsBuilder): void {
  const input = builder.stream<string, string>("input");
  input.groupByKey().count({ storeName: "counts", storeSupplier: own("counts") }).toStream().to("counts-out", { valueSerde: "long" });
  builder.addStateStore(Stores.keyValueStoreBuilder(own("seen"), "string", "long"));
  input
    .process(processor<string, string, string, string>((context) => {
      const seen = context.getStateStore<KeyValueStore<string, number>>("seen");
      return (record) => {
        if (record.value === "forget") seen.delete(record.key);
        else seen.put(record.key, (seen.get(record.key) ?? 0) + 1);
        const all = [...seen.all()].map(({ key, value }) => `${key}:${value}`).join(" ");
        context.forward({ key: record.key, value: all, timestamp: record.timestamp });
      };
    }), ["seen"])
    .to("seen-out");
}
