/** BrokerOptions from Sluice's `broker.*` configuration keys. */
import path from "node:path";
import type { SluiceConfig } from "../../kernel/config/sluice-config";
import type { BrokerOptions } from "./broker";

export function brokerOptionsFrom(config: SluiceConfig, root: string): BrokerOptions {
  const orNull = (value: number) => (value < 0 ? null : value);
  return {
    listener: config.string("broker.listener"),
    port: config.number("broker.port"),
    storage: config.string("broker.storage") as "file" | "memory",
    dataDir: path.resolve(root, config.string("broker.data.dir")),
    autoCreateTopics: config.boolean("broker.auto.create.topics"),
    numPartitions: config.number("broker.num.partitions"),
    maxRequestBytes: config.number("broker.max.request.bytes"),
    retentionMs: orNull(config.number("broker.retention.ms")),
    retentionBytes: orNull(config.number("broker.retention.bytes")),
    segmentBytes: config.number("broker.segment.bytes"),
  };
}
