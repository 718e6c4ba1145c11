/** Errors of the Kafka client, each naming what failed: the broker address, or the topic-partition and code. */
import { ErrorCode, errorCodeName, formatVersionRange, type VersionRange } from "../kafka-protocol";

/** The connection to a broker could not be made or was lost; requests in flight on it failed with it. */
export class BrokerConnectionError extends Error {
  constructor(readonly address: string, reason: string) {
    super(`connection to broker ${address}: ${reason}`);
    this.name = "BrokerConnectionError";
  }
}

/**
 * The broker refused this client's credentials (SASL), or the TLS handshake failed (an untrusted certificate, a
 * client certificate the broker refuses): connecting again cannot cure it, so no component retries it.
 */
export class AuthenticationError extends Error {
  constructor(
    readonly address: string,
    reason: string,
  ) {
    super(`authentication with broker ${address} failed: ${reason}`);
    this.name = "AuthenticationError";
  }
}

/**
 * The broker accepts no version of an API the client sends in any version it sends (a broker older than Kafka 2.1,
 * or one missing the API): connecting again cannot cure it.
 */
export class UnsupportedVersionError extends Error {
  constructor(
    readonly address: string,
    readonly api: string,
    readonly clientVersions: VersionRange,
    readonly brokerVersions: VersionRange | null,
  ) {
    const broker = brokerVersions === null ? "the broker does not implement it" : `the broker accepts ${formatVersionRange(brokerVersions)}`;
    super(`broker ${address} and Sluice share no version of ${api}: Sluice sends ${formatVersionRange(clientVersions)}, ${broker}`);
    this.name = "UnsupportedVersionError";
  }
}

/** A topic-partition's records were not written: a non-retriable error, or a retriable one that outlasted the retries. */
export class ProduceError extends Error {
  constructor(
    readonly topic: string,
    readonly partition: number,
    /** The broker's error code; null when the failure was a lost or refused connection. */
    readonly errorCode: number | null,
    detail: string,
  ) {
    super(`producing to ${topic} partition ${partition} failed: ${errorCode === null ? detail : `${errorCodeName(errorCode)}${detail ? `, ${detail}` : ""}`}`);
    this.name = "ProduceError";
  }
}

/** The producer got no producer id for its idempotent writes: a refusal no retry cures, or retries that ran out. */
export class ProducerIdError extends Error {
  constructor(
    readonly clientId: string,
    /** The broker's error code; null when the failure was a lost or refused connection. */
    readonly errorCode: number | null,
    detail: string,
  ) {
    super(`producer ${clientId} got no producer id for idempotent writes (InitProducerId): ${errorCode === null ? detail : `${errorCodeName(errorCode)}${detail ? `, ${detail}` : ""}`}`);
    this.name = "ProducerIdError";
  }
}

/**
 * A partition has no leader the client knows of, or its leader answered with a retriable error: the topic may
 * have been created a moment ago, or its leader moved. Asking the metadata again may cure it.
 */
export class PartitionUnavailableError extends Error {
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly errorCode: number,
    doing: string,
  ) {
    super(`${doing} topic ${topic} partition ${partition}: ${errorCodeName(errorCode)}`);
    this.name = "PartitionUnavailableError";
  }
}

/** The cluster refused an admin request (creating topics, deleting records, …) with an error no retry cures. */
export class ClusterAdminError extends Error {
  constructor(
    readonly doing: string,
    readonly errorCode: number,
    detail: string,
  ) {
    super(`${doing} failed: ${errorCodeName(errorCode)}${detail ? `, ${detail}` : ""}`);
    this.name = "ClusterAdminError";
  }
}

/** The group coordinator refused a request with an error that joining again does not cure. */
export class GroupError extends Error {
  constructor(
    readonly groupId: string,
    readonly request: string,
    readonly errorCode: number,
  ) {
    super(`group ${groupId}: ${request} failed: ${errorCodeName(errorCode)}`);
    this.name = "GroupError";
  }
}

/** Another member joined with this static member's group.instance.id and took its place (KIP-345). */
export function isFencedInstance(error: unknown): boolean {
  return error instanceof GroupError && error.errorCode === ErrorCode.FENCED_INSTANCE_ID;
}

/**
 * Thrown by a group consumer's handler that finds this member no longer owns what it processed (another member took
 * it over while this one was cut off: Kafka Streams' TaskMigratedException). The consumer commits nothing of that
 * fetch and joins the group again.
 */
export class MembershipLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MembershipLostError";
  }
}
