/** BrokerOptions from Sluice's `broker.*` configuration keys. */
import fs from "node:fs";
import path from "node:path";
import type { SluiceConfig } from "../../kernel/config/sluice-config";
import { StartupError } from "../../kernel/errors";
import type { BrokerOptions, BrokerTls } from "./broker";

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
    tls: brokerTls(config, root),
  };
}

/** The certificate the broker serves with `broker.security.protocol=SSL`; files are read here, naming the key of one that cannot be. */
function brokerTls(config: SluiceConfig, root: string): BrokerTls | undefined {
  if (config.string("broker.security.protocol") !== "SSL") return undefined;
  const read = (key: string, required: boolean): string | undefined => {
    const file = config.string(key);
    if (file === "") {
      if (required) throw new StartupError(`${key} is needed with broker.security.protocol=SSL`);
      return undefined;
    }
    try {
      return fs.readFileSync(path.resolve(root, file), "utf8");
    } catch (error) {
      throw new StartupError(`${key}: cannot read '${file}': ${(error as Error).message}`);
    }
  };
  return { cert: read("broker.ssl.certificate.location", true)!, key: read("broker.ssl.key.location", true)!, ca: read("broker.ssl.ca.location", false) };
}
