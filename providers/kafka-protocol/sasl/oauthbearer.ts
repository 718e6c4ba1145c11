/**
 * SASL OAUTHBEARER (RFC 7628, KIP-255): the client's one message, a GS2 header and key-value pairs separated by
 * 0x01 carrying the bearer token and any SASL extensions (KIP-342). A server that refuses the token answers with
 * a JSON error challenge; the client acknowledges it with a lone 0x01 and the server then fails the exchange.
 */
import { SaslMessageError } from "./sasl-message-error";

const SEPARATOR = "\x01";
/** RFC 7628 §3.1: key = 1*(ALPHA); `auth` is the token's own key. */
const EXTENSION_KEY = /^[A-Za-z]+$/;
/** Printable characters, space, tab, CR and LF. */
const EXTENSION_VALUE = /^[\x21-\x7E \t\r\n]*$/;

/** The client's acknowledgement of an error challenge. */
export const OAUTHBEARER_ERROR_ACK = Buffer.from(SEPARATOR);

export interface OAuthBearerMessage {
  readonly token: string;
  readonly extensions: ReadonlyMap<string, string>;
}

export function checkExtension(key: string, value: string): void {
  if (!EXTENSION_KEY.test(key) || key === "auth") throw new SaslMessageError(`invalid OAUTHBEARER extension name '${key}' (letters only, not 'auth')`);
  if (!EXTENSION_VALUE.test(value)) throw new SaslMessageError(`invalid value of OAUTHBEARER extension '${key}'`);
}

export function encodeOAuthBearer({ token, extensions }: OAuthBearerMessage): Buffer {
  const pairs = [`auth=Bearer ${token}`];
  for (const [key, value] of extensions) {
    checkExtension(key, value);
    pairs.push(`${key}=${value}`);
  }
  return Buffer.from(`n,,${SEPARATOR}${pairs.join(SEPARATOR)}${SEPARATOR}${SEPARATOR}`, "utf8");
}

export function parseOAuthBearer(bytes: Buffer): OAuthBearerMessage {
  const text = bytes.toString("utf8");
  const header = /^n,(?:a=[^,]*)?,\x01/.exec(text);
  if (!header || !text.endsWith(SEPARATOR + SEPARATOR)) throw new SaslMessageError("malformed OAUTHBEARER message");
  let token: string | undefined;
  const extensions = new Map<string, string>();
  for (const pair of text.slice(header[0].length, -2).split(SEPARATOR)) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw new SaslMessageError("malformed OAUTHBEARER message: a pair without a key");
    const key = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    if (key === "auth") {
      const bearer = /^Bearer +(\S+)$/i.exec(value);
      if (!bearer) throw new SaslMessageError("OAUTHBEARER auth value is not 'Bearer <token>'");
      token = bearer[1];
    } else {
      checkExtension(key, value);
      extensions.set(key, value);
    }
  }
  if (token === undefined) throw new SaslMessageError("OAUTHBEARER message without a token");
  return { token, extensions };
}
