import { defineApi } from "../schema";

/**
 * One SASL token each way (KIP-152). v1 adds the session lifetime, after which the broker closes a connection that has
 * not authenticated again (KIP-368). v2 is the first flexible version, which the codec does not speak; it carries
 * nothing v1 does not.
 */
export const SaslAuthenticate = defineApi({
  name: "SaslAuthenticate",
  apiKey: 36,
  versions: "0-1",
  request: [{ name: "authBytes", type: "bytes" }],
  response: [
    { name: "errorCode", type: "int16" },
    { name: "errorMessage", type: "string", nullableVersions: "0+" },
    { name: "authBytes", type: "bytes" },
    { name: "sessionLifetimeMs", type: "int64", versions: "1+", default: 0n },
  ],
});
