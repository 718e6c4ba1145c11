/**
 * How an application reaches its Kafka cluster, under Kafka's own setting names: `security.protocol` PLAINTEXT or
 * SSL, with `ssl.ca.location` (the CA to trust; default: the system's), `ssl.certificate.location` and
 * `ssl.key.location` (a client certificate for mutual TLS), `ssl.key.password`, and
 * `ssl.endpoint.identification.algorithm` (`https`, the default, checks the broker's name against its certificate;
 * empty does not). A file that cannot be read stops the application with an error naming the setting and the file.
 */
import fs from "node:fs";
import type { ConnectionOptions as TlsOptions } from "node:tls";
import type { StreamsSettings } from "../streams-config";

export function clusterTls(settings: StreamsSettings): TlsOptions | undefined {
  if (settings.get("security.protocol") === "PLAINTEXT") return undefined;
  const read = (key: "ssl.ca.location" | "ssl.certificate.location" | "ssl.key.location"): Buffer | undefined => {
    const file = settings.get(key);
    if (file === "") return undefined;
    try {
      return fs.readFileSync(file);
    } catch (error) {
      throw new Error(`${key}: cannot read '${file}': ${(error as Error).message}`);
    }
  };
  const password = settings.get("ssl.key.password");
  const tls: TlsOptions = { ca: read("ssl.ca.location"), cert: read("ssl.certificate.location"), key: read("ssl.key.location"), passphrase: password === "" ? undefined : password };
  if (settings.get("ssl.endpoint.identification.algorithm") === "") tls.checkServerIdentity = () => undefined;
  return tls;
}
