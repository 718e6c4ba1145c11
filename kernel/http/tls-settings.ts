/**
 * `server.ssl.*`: the PEM key, certificate and optional client CA of the HTTPS server, read from disk at
 * startup and again on reload (SIGHUP), when they become the server's new secure context.
 */
import type { SecureContextOptions, TlsOptions } from "node:tls";
import type { ServerConfig } from "../config/kernel-config";
import { StartupError } from "../errors";
import { readConfiguredFile } from "./configured-file";

export type ClientAuth = "none" | "requested" | "required";

export interface TlsFiles {
  key: string;
  certificate: string;
  ca?: string;
  clientAuth: ClientAuth;
}

export function tlsFilesOf(config: ServerConfig): TlsFiles | undefined {
  if (!config.get("ssl.enable")) return undefined;
  const required = (key: "ssl.key.location" | "ssl.certificate.location") => {
    const value = config.get(key);
    if (value === "") throw new StartupError(`server.${key} is required when server.ssl.enable is true`);
    return value;
  };
  const files: TlsFiles = {
    key: required("ssl.key.location"),
    certificate: required("ssl.certificate.location"),
    ca: config.get("ssl.ca.location") || undefined,
    clientAuth: config.get("ssl.client.auth"),
  };
  if (files.clientAuth !== "none" && !files.ca) throw new StartupError(`server.ssl.ca.location is required when server.ssl.client.auth is ${files.clientAuth}`);
  return files;
}

/** The files' contents; throws a StartupError naming the file and its key when one cannot be read. */
export function secureContextOf(files: TlsFiles): SecureContextOptions {
  return {
    key: readConfiguredFile(files.key, "server.ssl.key.location"),
    cert: readConfiguredFile(files.certificate, "server.ssl.certificate.location"),
    ...(files.ca ? { ca: readConfiguredFile(files.ca, "server.ssl.ca.location") } : {}),
  };
}

export function serverTlsOptions(files: TlsFiles): TlsOptions {
  // `requested`: a client without a certificate is let through; mtls authentication then refuses it (401).
  return { ...secureContextOf(files), requestCert: files.clientAuth !== "none", rejectUnauthorized: files.clientAuth === "required" };
}
