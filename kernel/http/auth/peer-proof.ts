/**
 * How instances prove to each other that they are peers: both hold the instance secret
 * (`server.auth.peer.token.file`) and never send it. A forwarded query carries an HMAC-SHA256 under it over the
 * method, the path, a timestamp, a nonce and the body's digest; the answer carries one over the request's nonce,
 * the status and the body's digest. Anyone who merely joined the consumer group and advertised a server receives
 * no credential, cannot make a request an instance accepts, and cannot make an answer a forwarding instance accepts.
 * A MAC rather than TLS identities: it works the same over HTTP and HTTPS, needs no certificate per instance, and
 * binds each answer to its request (a TLS client certificate proves the connection, not that this answer is the
 * answer to this query).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The request's proof: `v1 <epoch ms> <nonce hex> <mac base64url>`. */
export const PEER_HEADER = "x-sluice-peer";
/** The answer's proof: `<mac base64url>`. */
export const PEER_ANSWER_HEADER = "x-sluice-peer-answer";
/** Clocks of instances may differ by this much; a request older or newer is refused. */
const SKEW_MS = 30_000;
const MAX_NONCES = 100_000;
export const MIN_SECRET_LENGTH = 16;

/** A request's proof as read from its header, before the body arrived. */
export interface RequestProof {
  at: number;
  nonce: string;
  mac: Buffer;
  method: string;
  path: string;
}

const digest = (body: Buffer) => createHash("sha256").update(body).digest("hex");

export class PeerSecret {
  /** Nonces of the requests accepted within the skew window, against replays. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly secret: Buffer) {}

  /** The header value of a request of `method` on `path` (with its query string) with `body`; `nonce` for its answer. */
  signRequest(method: string, path: string, body: Buffer): { header: string; nonce: string } {
    const at = Date.now();
    const nonce = randomBytes(16).toString("hex");
    return { header: `v1 ${at} ${nonce} ${this.requestMac(method, path, at, nonce, body).toString("base64url")}`, nonce };
  }

  /** The proof in `header`, or why it is none (malformed, out of the skew window, replayed). */
  readRequest(header: string, method: string, path: string): RequestProof | string {
    const [version, at, nonce, mac, ...rest] = header.split(" ");
    if (version !== "v1" || rest.length > 0 || !/^\d{1,15}$/.test(at ?? "") || !/^[0-9a-f]{32}$/.test(nonce ?? "") || !/^[A-Za-z0-9_-]{43}$/.test(mac ?? "")) {
      return "the peer header is not a proof of this version";
    }
    const skew = Math.abs(Date.now() - Number(at));
    if (skew > SKEW_MS) return `the peer proof is ${Math.round(skew / 1000)} s away from this instance's clock (at most ${SKEW_MS / 1000} s)`;
    return { at: Number(at), nonce, mac: Buffer.from(mac, "base64url"), method, path };
  }

  /** Whether the proof is right for `body`; a nonce is accepted once. */
  verifyRequest(proof: RequestProof, body: Buffer): boolean {
    const expected = this.requestMac(proof.method, proof.path, proof.at, proof.nonce, body);
    if (!timingSafeEqual(expected, proof.mac) || this.seen.has(proof.nonce)) return false;
    this.remember(proof.nonce, proof.at);
    return true;
  }

  signAnswer(nonce: string, status: number, body: Buffer): string {
    return this.mac(["sluice-peer-answer", nonce, String(status), digest(body)]).toString("base64url");
  }

  answerProven(nonce: string, status: number, body: Buffer, header: string | string[] | undefined): boolean {
    if (typeof header !== "string") return false;
    const sent = Buffer.from(header, "base64url");
    const expected = this.mac(["sluice-peer-answer", nonce, String(status), digest(body)]);
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  }

  private requestMac(method: string, path: string, at: number, nonce: string, body: Buffer): Buffer {
    return this.mac(["sluice-peer-request", method, path, String(at), nonce, digest(body)]);
  }

  private mac(parts: string[]): Buffer {
    return createHmac("sha256", this.secret).update(parts.join("\n")).digest();
  }

  private remember(nonce: string, at: number): void {
    if (this.seen.size >= MAX_NONCES) {
      const now = Date.now();
      for (const [old, when] of this.seen) if (now - when > 2 * SKEW_MS) this.seen.delete(old);
      if (this.seen.size >= MAX_NONCES) this.seen.delete(this.seen.keys().next().value!);
    }
    this.seen.set(nonce, at);
  }
}
