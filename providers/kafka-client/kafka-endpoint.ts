import type { BrokerSecurity } from "./broker-connection";

/**
 * Where a cluster is, how to reach it (TLS, SASL), and how to ride out its brokers' failures: what every client is
 * given.
 */
export interface KafkaEndpoint extends BrokerSecurity {
  /** `host:port` of one or more brokers; the rest of the cluster is learnt from them. */
  bootstrapServers: readonly string[];
  /** First pause before a failed request or partition is tried again; default 100 ms. */
  retryBackoffMs?: number;
  /** Longest such pause, the first doubled up to it; default 1 s. */
  retryBackoffMaxMs?: number;
  /** The cluster's layout is asked again once older than this; default 5 minutes. */
  metadataMaxAgeMs?: number;
}
