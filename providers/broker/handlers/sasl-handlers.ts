/**
 * SaslHandshake and SaslAuthenticate as the handler table answers them: on a listener without SASL, or on a
 * connection already authenticated (and not re-authenticating), both are ILLEGAL_SASL_STATE, as Kafka answers.
 * A SASL listener's connections answer them through their own session (sasl/sasl-session.ts), in the same versions.
 */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { SaslAuthenticate } from "../../kafka-protocol/messages/sasl-authenticate";
import { SaslHandshake } from "../../kafka-protocol/messages/sasl-handshake";
import { defineHandler, type RegisteredHandler } from "./api-handler";

export function saslHandshakeHandler(): RegisteredHandler {
  return defineHandler(SaslHandshake, () => ({ errorCode: ErrorCode.ILLEGAL_SASL_STATE, mechanisms: [] }));
}

export function saslAuthenticateHandler(): RegisteredHandler {
  return defineHandler(SaslAuthenticate, () => ({
    errorCode: ErrorCode.ILLEGAL_SASL_STATE,
    errorMessage: "SaslAuthenticate on a connection that is not authenticating",
    authBytes: Buffer.alloc(0),
  }));
}
