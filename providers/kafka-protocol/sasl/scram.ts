/**
 * SCRAM-SHA-256 and SCRAM-SHA-512 as Kafka speaks them (RFC 5802, RFC 7677, KIP-84): the key derivation both sides
 * compute, and the four messages of an exchange. Without channel binding, and with the password taken as UTF-8 as
 * Kafka takes it (no SASLprep).
 */
import { createHash, createHmac, pbkdf2, randomBytes } from "node:crypto";
import { SaslMessageError } from "./sasl-message-error";

export type ScramMechanism = "SCRAM-SHA-256" | "SCRAM-SHA-512";

const DIGESTS: Record<ScramMechanism, { digest: "sha256" | "sha512"; bytes: number }> = {
  "SCRAM-SHA-256": { digest: "sha256", bytes: 32 },
  "SCRAM-SHA-512": { digest: "sha512", bytes: 64 },
};

export const SCRAM_MECHANISMS = Object.keys(DIGESTS) as ScramMechanism[];

/** Kafka's floor for both mechanisms; a server asking for fewer is refused by the client. */
export const SCRAM_MIN_ITERATIONS = 4096;

/** What a server keeps of a password: never the password itself (RFC 5802 §3). */
export interface ScramCredential {
  readonly salt: Buffer;
  readonly iterations: number;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
}

export const isScramMechanism = (mechanism: string): mechanism is ScramMechanism => mechanism in DIGESTS;

/** The length of the mechanism's digests, and so of its keys and proofs. */
export const scramKeyBytes = (mechanism: ScramMechanism): number => DIGESTS[mechanism].bytes;

/** Hi(password, salt, i): PBKDF2 with the mechanism's HMAC, off the event loop. */
export function saltedPassword(mechanism: ScramMechanism, password: string, salt: Buffer, iterations: number): Promise<Buffer> {
  const { digest, bytes } = DIGESTS[mechanism];
  return new Promise((resolve, reject) => pbkdf2(Buffer.from(password, "utf8"), salt, iterations, bytes, digest, (error, key) => (error ? reject(error) : resolve(key))));
}

export const hmac = (mechanism: ScramMechanism, key: Buffer, text: string): Buffer => createHmac(DIGESTS[mechanism].digest, key).update(text, "utf8").digest();

export const hash = (mechanism: ScramMechanism, data: Buffer): Buffer => createHash(DIGESTS[mechanism].digest).update(data).digest();

export const clientKeyOf = (mechanism: ScramMechanism, salted: Buffer): Buffer => hmac(mechanism, salted, "Client Key");

export const serverKeyOf = (mechanism: ScramMechanism, salted: Buffer): Buffer => hmac(mechanism, salted, "Server Key");

export function xor(a: Buffer, b: Buffer): Buffer {
  if (a.length !== b.length) throw new SaslMessageError(`a SCRAM proof of ${a.length} bytes where ${b.length} are expected`);
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] ^ b[i];
  return out;
}

export async function scramCredential(mechanism: ScramMechanism, password: string, salt: Buffer, iterations: number): Promise<ScramCredential> {
  const salted = await saltedPassword(mechanism, password, salt, iterations);
  return { salt, iterations, storedKey: hash(mechanism, clientKeyOf(mechanism, salted)), serverKey: serverKeyOf(mechanism, salted) };
}

/** A printable nonce without commas. */
export const scramNonce = (): string => randomBytes(24).toString("base64");

/** The part of the exchange both proofs sign (RFC 5802 §3). */
export const authMessage = (clientFirstBare: string, serverFirst: string, clientFinalWithoutProof: string): string =>
  `${clientFirstBare},${serverFirst},${clientFinalWithoutProof}`;

/** saslname: ',' and '=' escaped as =2C and =3D. */
export const encodeSaslName = (name: string): string => name.replace(/=/g, "=3D").replace(/,/g, "=2C");

export function decodeSaslName(value: string): string {
  if (/=(?!2C|3D)/.test(value)) throw new SaslMessageError(`invalid saslname '${value}'`);
  return value.replace(/=2C/g, ",").replace(/=3D/g, "=");
}

/** The attributes of a message, in order: "n=user,r=abc" → [["n", "user"], ["r", "abc"]]; Kafka's extensions have longer names. */
function attributes(text: string, what: string): [string, string][] {
  return text.split(",").map((part) => {
    const match = /^([A-Za-z]+)=(.*)$/s.exec(part);
    if (!match) throw new SaslMessageError(`malformed SCRAM ${what}: '${part}' is not an attribute`);
    return [match[1], match[2]];
  });
}

function expect(attribute: [string, string] | undefined, name: string, what: string): string {
  if (attribute?.[0] !== name) throw new SaslMessageError(`malformed SCRAM ${what}: expected attribute '${name}'`);
  return attribute[1];
}

const base64 = (value: string, what: string): Buffer => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new SaslMessageError(`malformed SCRAM ${what}: invalid base64`);
  return Buffer.from(value, "base64");
};

export interface ClientFirstMessage {
  readonly username: string;
  readonly nonce: string;
  /** Attributes after the nonce (Kafka's `tokenauth=true` for delegation tokens). */
  readonly extensions: ReadonlyMap<string, string>;
  /** The message without its GS2 header, as the signatures cover it. */
  readonly bare: string;
}

/** The client's first message, with the GS2 header "n,," (no channel binding, no authorization identity). */
export const formatClientFirst = (username: string, nonce: string): string => `n,,n=${encodeSaslName(username)},r=${nonce}`;

export function parseClientFirst(text: string): ClientFirstMessage {
  const header = /^([ny]),(?:a=([^,]*))?,/.exec(text);
  if (!header) throw new SaslMessageError(text.startsWith("p=") ? "SCRAM channel binding is not supported" : "malformed SCRAM client-first message: no GS2 header");
  const bare = text.slice(header[0].length);
  const [user, nonce, ...rest] = attributes(bare, "client-first message");
  const username = decodeSaslName(expect(user, "n", "client-first message"));
  if (header[2] !== undefined && header[2] !== "" && decodeSaslName(header[2]) !== username) {
    throw new SaslMessageError("SCRAM authorization identity differs from the user name");
  }
  const extensions = new Map(rest.map(([key, value]) => [key, value]));
  return { username, nonce: expect(nonce, "r", "client-first message"), extensions, bare };
}

export interface ServerFirstMessage {
  readonly nonce: string;
  readonly salt: Buffer;
  readonly iterations: number;
}

export const formatServerFirst = ({ nonce, salt, iterations }: ServerFirstMessage): string => `r=${nonce},s=${salt.toString("base64")},i=${iterations}`;

export function parseServerFirst(text: string): ServerFirstMessage {
  const [nonce, salt, iterations] = attributes(text, "server-first message");
  if (nonce?.[0] === "e") throw new SaslMessageError(`the server refused: ${nonce[1]}`);
  const count = Number(expect(iterations, "i", "server-first message"));
  if (!Number.isSafeInteger(count) || count <= 0) throw new SaslMessageError("malformed SCRAM server-first message: iteration count");
  return { nonce: expect(nonce, "r", "server-first message"), salt: base64(expect(salt, "s", "server-first message"), "server-first message"), iterations: count };
}

export interface ClientFinalMessage {
  /** The GS2 header, base64 (c=). */
  readonly channelBinding: string;
  readonly nonce: string;
  readonly proof: Buffer;
  readonly withoutProof: string;
}

/** `c=biws`: base64 of the GS2 header "n,,". */
export const clientFinalWithoutProof = (nonce: string): string => `c=biws,r=${nonce}`;

export const formatClientFinal = (withoutProof: string, proof: Buffer): string => `${withoutProof},p=${proof.toString("base64")}`;

export function parseClientFinal(text: string): ClientFinalMessage {
  const proofAt = text.lastIndexOf(",p=");
  if (proofAt < 0) throw new SaslMessageError("malformed SCRAM client-final message: no proof");
  const withoutProof = text.slice(0, proofAt);
  const [binding, nonce] = attributes(withoutProof, "client-final message");
  return {
    channelBinding: expect(binding, "c", "client-final message"),
    nonce: expect(nonce, "r", "client-final message"),
    proof: base64(text.slice(proofAt + 3), "client-final message"),
    withoutProof,
  };
}

export const formatServerFinal = (signature: Buffer): string => `v=${signature.toString("base64")}`;

/** The server's signature (v=), or its error (e=) thrown. */
export function parseServerFinal(text: string): Buffer {
  const [first] = attributes(text, "server-final message");
  if (first?.[0] === "e") throw new SaslMessageError(`the server refused: ${first[1]}`);
  return base64(expect(first, "v", "server-final message"), "server-final message");
}
