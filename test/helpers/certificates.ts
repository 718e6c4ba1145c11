/** Test PKI made with the openssl CLI in a temp folder: a CA, server certificates for 127.0.0.1, client certificates. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface KeyPair {
  key: string;
  cert: string;
}

export interface TestPki {
  dir: string;
  ca: string;
  caKey: string;
  /** A new key and certificate signed by the CA (servers: subject alternative names IP:127.0.0.1, DNS:localhost; `san`: others). */
  issue(name: string, cn: string, options?: { server?: boolean; san?: string }): KeyPair;
  remove(): void;
}

const openssl = (dir: string, ...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });

export function createPki(): TestPki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-pki-"));
  const ca = path.join(dir, "ca.pem");
  const caKey = path.join(dir, "ca.key");
  openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", caKey, "-out", ca, "-days", "2", "-subj", "/CN=Sluice Test CA");
  let serial = 1;
  return {
    dir,
    ca,
    caKey,
    issue(name, cn, { server = false, san } = {}) {
      const key = path.join(dir, `${name}.key`);
      const csr = path.join(dir, `${name}.csr`);
      const cert = path.join(dir, `${name}.pem`);
      const extensions = path.join(dir, `${name}.ext`);
      const names = server ? "subjectAltName=IP:127.0.0.1,DNS:localhost\n" : san ? `subjectAltName=${san}\n` : "";
      fs.writeFileSync(extensions, `${names}extendedKeyUsage=${server ? "serverAuth,clientAuth" : "clientAuth"}\n`);
      openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", csr, "-subj", `/CN=${cn}`);
      openssl(dir, "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", caKey, "-set_serial", String(serial++), "-days", "2", "-out", cert, "-extfile", extensions);
      return { key, cert };
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
