/**
 * Salted scrypt password hashes as the users file stores them: `scrypt$N$r$p$<salt base64>$<hash base64>`, the
 * cost parameters kept beside the hash so they can be raised without invalidating the older lines: a login with
 * an older line's password rewrites it at today's cost (basic-authenticator.ts).
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** OWASP's Password Storage Cheat Sheet: N=2^17 (128 MiB with r=8), r=8, p=1. */
export const PASSWORD_COST = Object.freeze({ N: 131_072, r: 8, p: 1 });
const SALT_BYTES = 16;
const HASH_BYTES = 32;

export type PasswordHash = NonNullable<ReturnType<typeof parsePasswordHash>>;

function derive(password: string, salt: Buffer, N: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, { N, r, p, maxmem: 256 * N * r }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = PASSWORD_COST;
  const hash = await derive(password, salt, N, r, p, HASH_BYTES);
  return ["scrypt", N, r, p, salt.toString("base64"), hash.toString("base64")].join("$");
}

/**
 * A hash at today's cost that no password matches (random bytes, not derived from one): checking a password against
 * it costs what checking a real one costs, and making it costs no hash.
 */
export function unmatchableHash(): PasswordHash {
  return { ...PASSWORD_COST, salt: randomBytes(SALT_BYTES), hash: randomBytes(HASH_BYTES) };
}

/** A stored hash that is not of this format; the users file reader names the line. */
export function parsePasswordHash(stored: string): { N: number; r: number; p: number; salt: Buffer; hash: Buffer } | undefined {
  const [kind, N, r, p, salt, hash] = stored.split("$");
  const numbers = [N, r, p].map(Number);
  if (kind !== "scrypt" || !numbers.every((n) => Number.isSafeInteger(n) && n > 0) || !salt || !hash) return undefined;
  return { N: numbers[0], r: numbers[1], p: numbers[2], salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const derived = await derive(password, stored.salt, stored.N, stored.r, stored.p, stored.hash.length);
  return timingSafeEqual(derived, stored.hash);
}

/** Whether a hash was made at a lower cost than today's. */
export const isOutdated = ({ N, r, p }: PasswordHash): boolean => N < PASSWORD_COST.N || r < PASSWORD_COST.r || p < PASSWORD_COST.p;
