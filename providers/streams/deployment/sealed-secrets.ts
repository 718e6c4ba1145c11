/**
 * Secrets of deployed instances as deployments.json keeps them: AES-256-GCM under a key from the trusted
 * configuration (`streams.deployments.key.location`: the SHA-256 of that file's content), each value bound to its
 * instance and key, so that a sealed value cannot be moved to another field. A secret is a value whose key's name
 * marks it as one (kernel/secrets.ts), the rule of every configuration view.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";
import { isSecretKey } from "../../../kernel/secrets";

const PREFIX = "aes-256-gcm:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const isSealed = (value: ConfigValue): boolean => typeof value === "string" && value.startsWith(PREFIX);

/** The values of secret keys that are neither empty nor sealed. */
export const clearSecrets = (config: Readonly<Record<string, ConfigValue>>): string[] =>
  Object.entries(config)
    .filter(([key, value]) => isSecretKey(key) && typeof value === "string" && value !== "" && !isSealed(value))
    .map(([key]) => key);

export class SecretSealer {
  private readonly key: Buffer;

  constructor(keyMaterial: Buffer) {
    this.key = createHash("sha256").update(keyMaterial).digest();
  }

  /** `config` with each secret sealed (those sealed already kept as they are). */
  seal(id: string, config: Readonly<Record<string, ConfigValue>>): Record<string, ConfigValue> {
    const sealed = { ...config };
    for (const key of clearSecrets(config)) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", this.key, iv).setAAD(Buffer.from(`${id}\n${key}`));
      const text = Buffer.concat([cipher.update(String(config[key]), "utf8"), cipher.final()]);
      sealed[key] = PREFIX + Buffer.concat([iv, cipher.getAuthTag(), text]).toString("base64");
    }
    return sealed;
  }

  /** `config` with each sealed value opened; a value sealed under another key, or changed, throws naming its key. */
  open(id: string, config: Readonly<Record<string, ConfigValue>>): Record<string, ConfigValue> {
    const opened = { ...config };
    for (const [key, value] of Object.entries(config)) {
      if (!isSealed(value)) continue;
      const bytes = Buffer.from(String(value).slice(PREFIX.length), "base64");
      try {
        const decipher = createDecipheriv("aes-256-gcm", this.key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(`${id}\n${key}`));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        opened[key] = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        throw new Error(`'${key}' is sealed under another key than streams.deployments.key.location's, or was changed`);
      }
    }
    return opened;
  }
}
