/**
 * How an application reaches its Kafka cluster, under Kafka's own setting names: `security.protocol` PLAINTEXT or
 * SSL, with `ssl.ca.location` (the CA to trust; default: the system's), `ssl.certificate.location` and
 * `ssl.key.location` (a client certificate for mutual TLS), `ssl.key.password`, and
 * `ssl.endpoint.identification.algorithm` (`https`, the default, checks the broker's name against its certificate;
 * empty does not). A file that cannot be read stops the application with an error naming the setting and the file.
 */
import fs from "node:fs";
import type { ConnectionOptions as TlsOptions } from "node:tls";
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";

export const SECURITY_PROTOCOLS = ["PLAINTEXT", "SSL"] as const;

export function clusterTls(config: Readonly<Record<string, ConfigValue>>): TlsOptions | undefined {
  const protocol = String(config["security.protocol"] ?? "PLAINTEXT");
  if (protocol === "PLAINTEXT") return undefined;
  if (protocol !== "SSL") throw new Error(`security.protocol must be one of ${SECURITY_PROTOCOLS.join(", ")}, got '${protocol}' (SASL is not supported yet)`);
  const read = (key: string): Buffer | undefined => {
    const file = String(config[key] ?? "");
    if (file === "") return undefined;
    try {
      return fs.readFileSync(file);
    } catch (error) {
      throw new Error(`${key}: cannot read '${file}': ${(error as Error).message}`);
    }
  };
  const password = String(config["ssl.key.password"] ?? "");
  const tls: TlsOptions = { ca: read("ssl.ca.location"), cert: read("ssl.certificate.location"), key: read("ssl.key.location"), passphrase: password === "" ? undefined : password };
  if (String(config["ssl.endpoint.identification.algorithm"] ?? "https") === "") tls.checkServerIdentity = () => undefined;
  return tls;
}
