import { ApiCodec } from "../../kafka-protocol/api-codec";
import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { ApiVersions } from "../../kafka-protocol/messages/api-versions";
import type { ResponseOf } from "../../kafka-protocol/schema";
import { defineHandler, type RegisteredHandler } from "./api-handler";

/**
 * Advertises every API in the table with the versions it implements. A client asking with a newer
 * ApiVersions version gets a v0 body with UNSUPPORTED_VERSION and the ranges, as Kafka answers (librdkafka
 * then retries with a version from the list).
 */
export function apiVersionsHandler(table: () => Iterable<RegisteredHandler>): RegisteredHandler {
  const body = (errorCode: ErrorCodeValue): ResponseOf<typeof ApiVersions> => ({
    errorCode,
    apiKeys: [...table()]
      .map(({ api }) => ({ apiKey: api.apiKey, minVersion: api.versions.min, maxVersion: api.versions.max }))
      .sort((a, b) => a.apiKey - b.apiKey),
  });
  const codec = new ApiCodec(ApiVersions);
  return {
    ...defineHandler(ApiVersions, () => body(ErrorCode.NONE)),
    answerUnsupportedVersion: (context) => codec.encodeResponseFrame(context.correlationId, 0, body(ErrorCode.UNSUPPORTED_VERSION)),
  };
}
