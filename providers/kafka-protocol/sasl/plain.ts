/** SASL PLAIN (RFC 4616): one client message, `authzid NUL authcid NUL password`, in UTF-8. */
import { SaslMessageError } from "./sasl-message-error";

export interface PlainCredentials {
  readonly username: string;
  readonly password: string;
}

export const encodePlain = ({ username, password }: PlainCredentials): Buffer => Buffer.from(`\0${username}\0${password}`, "utf8");

/** Kafka accepts an authorization identity only when it is empty or the user name itself. */
export function parsePlain(bytes: Buffer): PlainCredentials {
  const parts = bytes.toString("utf8").split("\0");
  if (parts.length !== 3) throw new SaslMessageError("malformed PLAIN message: expected authzid, user name and password separated by NUL");
  const [authorizationId, username, password] = parts;
  if (username === "" || password === "") throw new SaslMessageError("PLAIN message without a user name or a password");
  if (authorizationId !== "" && authorizationId !== username) throw new SaslMessageError("PLAIN authorization identity differs from the user name");
  return { username, password };
}
