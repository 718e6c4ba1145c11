import { defineApi } from "../schema";

/**
 * Chooses the SASL mechanism of a connection (KIP-43). After v0 the client's SASL tokens follow as bare size-prefixed
 * frames; after v1 they travel in SaslAuthenticate requests (KIP-152). Kafka 4.x still serves v0 (KAFKA-18270), for
 * kafka-python; librdkafka before 2.6.1 refuses a broker that does not list it.
 */
export const SaslHandshake = defineApi({
  name: "SaslHandshake",
  apiKey: 17,
  versions: "0-1",
  request: [{ name: "mechanism", type: "string" }],
  response: [
    { name: "errorCode", type: "int16" },
    { name: "mechanisms", type: "string", array: true },
  ],
});
