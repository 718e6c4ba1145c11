/** The `broker.*` section the embedded broker declares, and the BrokerOptions it gives. */
import fs from "node:fs";
import path from "node:path";
import type { ConfigReader } from "../../kernel/config/config-reader";
import { configSection } from "../../kernel/config/config-schema";
import type { SluiceConfig } from "../../kernel/config/sluice-config";
import { StartupError } from "../../kernel/errors";
import type { BrokerOptions, BrokerTls } from "./broker";

export const BROKER_CONFIG = configSection({
  name: "broker",
  doc: "The embedded Kafka-protocol broker, started when no `streams.bootstrap.servers` is set (and by `sluice broker`).",
  keys: {
    listener: { type: "string", default: "127.0.0.1", doc: "Address the embedded broker listens on." },
    port: { type: "integer", default: 9092, doc: "Embedded broker port; 0 picks a free port." },
    "data.dir": { type: "string", default: ".sluice/broker", doc: "Directory of the embedded broker's logs and committed offsets." },
    storage: { type: "string", default: "file", choices: ["file", "memory"], doc: "file: durable logs under broker.data.dir; memory: nothing kept (tests)." },
    "auto.create.topics": { type: "boolean", default: true, doc: "Create a topic when a client asks for metadata of an unknown one." },
    "num.partitions": { type: "integer", default: 1, doc: "Partitions of auto-created topics." },
    "max.request.bytes": { type: "integer", default: 104_857_600, doc: "Largest request frame; a larger one closes the connection." },
    "retention.ms": { type: "integer", default: 604_800_000, doc: "Delete log segments older than this; -1 keeps them forever." },
    "retention.bytes": { type: "integer", default: -1, doc: "Trim each partition to about this many bytes; -1 is unbounded." },
    "segment.bytes": { type: "integer", default: 134_217_728, doc: "Size at which a partition rolls to a new segment file." },
    "security.protocol": { type: "string", default: "PLAINTEXT", choices: ["PLAINTEXT", "SSL"], doc: "`PLAINTEXT`, or `SSL`: the embedded broker serves TLS with `broker.ssl.*`." },
    "ssl.certificate.location": { type: "string", default: "", doc: "PEM file of the broker's certificate (`SSL`)." },
    "ssl.key.location": { type: "string", default: "", doc: "PEM file of the broker certificate's private key (`SSL`)." },
    "ssl.ca.location": { type: "string", default: "", doc: "PEM file of the CA of client certificates; when set, clients must present one signed by it (mutual TLS)." },
    worker: { type: "boolean", default: true, doc: "Run the embedded broker in its own worker thread." },
  },
});

export function brokerOptionsFrom(config: SluiceConfig, root: string): BrokerOptions {
  const broker = config.of(BROKER_CONFIG);
  const orNull = (value: number) => (value < 0 ? null : value);
  return {
    listener: broker.get("listener"),
    port: broker.get("port"),
    storage: broker.get("storage"),
    dataDir: path.resolve(root, broker.get("data.dir")),
    autoCreateTopics: broker.get("auto.create.topics"),
    numPartitions: broker.get("num.partitions"),
    maxRequestBytes: broker.get("max.request.bytes"),
    retentionMs: orNull(broker.get("retention.ms")),
    retentionBytes: orNull(broker.get("retention.bytes")),
    segmentBytes: broker.get("segment.bytes"),
    tls: broker.get("security.protocol") === "SSL" ? brokerTls(broker, root) : undefined,
  };
}

/** The certificate the broker serves with `broker.security.protocol=SSL`; files are read here, naming the key of one that cannot be. */
function brokerTls(broker: ConfigReader<typeof BROKER_CONFIG.keys>, root: string): BrokerTls {
  const read = (key: "ssl.certificate.location" | "ssl.key.location" | "ssl.ca.location", required: boolean): string | undefined => {
    const file = broker.get(key);
    if (file === "") {
      if (required) throw new StartupError(`broker.${key} is needed with broker.security.protocol=SSL`);
      return undefined;
    }
    try {
      return fs.readFileSync(path.resolve(root, file), "utf8");
    } catch (error) {
      throw new StartupError(`broker.${key}: cannot read '${file}': ${(error as Error).message}`);
    }
  };
  return { cert: read("ssl.certificate.location", true)!, key: read("ssl.key.location", true)!, ca: read("ssl.ca.location", false) };
}
