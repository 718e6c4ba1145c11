/**
 * The client side of SASL on a new connection (KIP-43, KIP-152): SaslHandshake naming the mechanism, then the
 * mechanism's tokens in SaslAuthenticate requests. PLAIN sends its one message; SCRAM proves the password and checks
 * the server's signature in turn (a server that cannot prove it knows the password is refused); OAUTHBEARER sends a
 * token from its provider. Every refusal is an AuthenticationError naming the broker and the cause.
 */
import { timingSafeEqual } from "node:crypto";
import {
  authMessage,
  clientFinalWithoutProof,
  clientKeyOf,
  encodeOAuthBearer,
  encodePlain,
  ErrorCode,
  errorCodeName,
  formatClientFinal,
  formatClientFirst,
  hash,
  hmac,
  OAUTHBEARER_ERROR_ACK,
  parseClientFirst,
  parseServerFinal,
  parseServerFirst,
  saltedPassword,
  SaslMessageError,
  SCRAM_MIN_ITERATIONS,
  scramNonce,
  serverKeyOf,
  xor,
  type ScramMechanism,
} from "../kafka-protocol";
import { AuthenticationError } from "./kafka-client-errors";

export type SaslSettings =
  | { mechanism: "PLAIN" | ScramMechanism; username: string; password: string }
  | {
      mechanism: "OAUTHBEARER";
      /** A current token; asked on every authentication (the provider caches and refreshes). */
      token: () => Promise<string>;
      /** SASL extensions sent with the token (KIP-342), such as Confluent Cloud's logicalCluster. */
      extensions?: ReadonlyMap<string, string>;
    };

/** What authenticating needs of a connection: its two SASL requests. */
export interface SaslTransport {
  readonly address: string;
  /** The broker's answer to SaslHandshake: its error code and the mechanisms it enables. */
  handshake(mechanism: string): Promise<{ errorCode: number; mechanisms: string[] }>;
  authenticate(token: Buffer): Promise<{ errorCode: number; errorMessage: string | null; authBytes: Buffer; sessionLifetimeMs: bigint }>;
}

/** Authenticates the connection; resolves with the session's lifetime in ms (0: it does not end). */
export async function authenticate(transport: SaslTransport, sasl: SaslSettings): Promise<number> {
  const fail = (reason: string) => new AuthenticationError(transport.address, reason);
  const handshake = await transport.handshake(sasl.mechanism);
  if (handshake.errorCode === ErrorCode.UNSUPPORTED_SASL_MECHANISM) {
    throw fail(`the broker does not enable SASL mechanism ${sasl.mechanism} (it enables ${handshake.mechanisms.join(", ") || "none"})`);
  }
  if (handshake.errorCode === ErrorCode.ILLEGAL_SASL_STATE) throw fail("the broker's listener does not take SASL (check security.protocol)");
  if (handshake.errorCode !== ErrorCode.NONE) throw fail(`SaslHandshake answered ${errorCodeName(handshake.errorCode)}`);
  let lifetimeMs = 0;
  const exchange = async (token: Buffer): Promise<Buffer> => {
    const answer = await transport.authenticate(token);
    if (answer.errorCode !== ErrorCode.NONE) throw fail(`${sasl.mechanism}${"username" in sasl ? ` as '${sasl.username}'` : ""}: ${answer.errorMessage ?? errorCodeName(answer.errorCode)}`);
    lifetimeMs = Number(answer.sessionLifetimeMs);
    return answer.authBytes;
  };
  try {
    if (sasl.mechanism === "PLAIN") await exchange(encodePlain(sasl));
    else if (sasl.mechanism === "OAUTHBEARER") await oauthBearer(sasl, exchange);
    else await scram(sasl.mechanism, sasl, exchange);
  } catch (error) {
    if (error instanceof SaslMessageError) throw fail(`${sasl.mechanism}: ${error.message}`);
    throw error;
  }
  return lifetimeMs;
}

type Exchange = (token: Buffer) => Promise<Buffer>;

async function scram(mechanism: ScramMechanism, credentials: { username: string; password: string }, exchange: Exchange): Promise<void> {
  const clientFirst = formatClientFirst(credentials.username, scramNonce());
  const { nonce: clientNonce, bare } = parseClientFirst(clientFirst);
  const serverFirstText = (await exchange(Buffer.from(clientFirst, "utf8"))).toString("utf8");
  const serverFirst = parseServerFirst(serverFirstText);
  if (!serverFirst.nonce.startsWith(clientNonce) || serverFirst.nonce === clientNonce) throw new SaslMessageError("the server's nonce does not extend the client's");
  if (serverFirst.iterations < SCRAM_MIN_ITERATIONS) throw new SaslMessageError(`the server asks for ${serverFirst.iterations} iterations, fewer than ${SCRAM_MIN_ITERATIONS}`);
  const salted = await saltedPassword(mechanism, credentials.password, serverFirst.salt, serverFirst.iterations);
  const clientKey = clientKeyOf(mechanism, salted);
  const withoutProof = clientFinalWithoutProof(serverFirst.nonce);
  const signed = authMessage(bare, serverFirstText, withoutProof);
  const proof = xor(clientKey, hmac(mechanism, hash(mechanism, clientKey), signed));
  const serverSignature = parseServerFinal((await exchange(Buffer.from(formatClientFinal(withoutProof, proof), "utf8"))).toString("utf8"));
  const expected = hmac(mechanism, serverKeyOf(mechanism, salted), signed);
  if (serverSignature.length !== expected.length || !timingSafeEqual(serverSignature, expected)) throw new SaslMessageError("the server's signature is wrong: it does not know the password");
}

/** A server that refuses the token answers with a JSON error challenge, acknowledged, then fails the exchange. */
async function oauthBearer(sasl: Extract<SaslSettings, { mechanism: "OAUTHBEARER" }>, exchange: Exchange): Promise<void> {
  let token: string;
  try {
    token = await sasl.token();
  } catch (error) {
    throw new SaslMessageError(`no token: ${(error as Error).message}`);
  }
  const challenge = await exchange(encodeOAuthBearer({ token, extensions: sasl.extensions ?? new Map() }));
  if (challenge.length === 0) return;
  await exchange(OAUTHBEARER_ERROR_ACK);
  throw new SaslMessageError(`the broker refused the token: ${challenge.toString("utf8")}`);
}
