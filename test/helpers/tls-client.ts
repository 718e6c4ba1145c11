/** HTTP(S) requests for the security tests: a CA to trust, a client certificate, headers, and the server's certificate as seen. */
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { TLSSocket } from "node:tls";

export interface TlsRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** PEM files. */
  ca?: string;
  cert?: string;
  key?: string;
  agent?: http.Agent;
}

export interface TlsResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => any;
  /** SHA-256 fingerprint of the server's certificate (https only). */
  fingerprint?: string;
  reusedSocket: boolean;
}

export function request(url: string, options: TlsRequest = {}): Promise<TlsResult> {
  const secure = url.startsWith("https:");
  const read = (file?: string) => (file ? fs.readFileSync(file) : undefined);
  const tls = secure ? { ca: read(options.ca), cert: read(options.cert), key: read(options.key) } : {};
  const headers = { ...options.headers, ...(options.body !== undefined ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(options.body)) } : {}) };
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, { method: options.method ?? "GET", headers, agent: options.agent, ...tls }, (res) => {
      let text = "";
      const fingerprint = secure ? (res.socket as TLSSocket).getPeerCertificate().fingerprint256 : undefined;
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          json: () => JSON.parse(text),
          fingerprint,
          reusedSocket: req.reusedSocket,
        });
      });
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
