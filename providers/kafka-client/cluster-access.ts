/**
 * A check of the way into a cluster before its clients start: a connection to a bootstrap server that negotiates
 * versions and authenticates, then closes. Its errors name the broker and the cause (a refused password, an
 * untrusted certificate, no common version), where a client that retries every failed connection would retry them
 * and name neither. An unreachable cluster is left to the clients' own retries. The versions negotiated with
 * the broker are logged at debug level.
 */
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import { BrokerConnection } from "./broker-connection";
import { BrokerConnectionError } from "./kafka-client-errors";
import type { KafkaEndpoint } from "./kafka-endpoint";

export async function checkClusterAccess(endpoint: KafkaEndpoint, clientId: string, logger: ComponentLogger = silentLogger): Promise<void> {
  for (const address of endpoint.bootstrapServers) {
    try {
      const connection = await BrokerConnection.open(address, { ...endpoint, clientId, connectTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxResponseBytes: 1024 * 1024 });
      logger.debug("negotiated API versions", { broker: address, versions: connection.negotiatedVersions() });
      connection.close();
      return;
    } catch (error) {
      if (!(error instanceof BrokerConnectionError)) throw error;
    }
  }
}
