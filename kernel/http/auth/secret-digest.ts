/** Secrets are compared as SHA-256 digests with timingSafeEqual: equal lengths, and no early exit on the first difference. */
import { createHash, timingSafeEqual } from "node:crypto";

export const sha256 = (secret: string): Buffer => createHash("sha256").update(secret).digest();

export const digestsEqual = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);
