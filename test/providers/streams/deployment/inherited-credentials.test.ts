import { suite } from "uvu";
import * as assert from "uvu/assert";
import { refuseInheritedCredentialsElsewhere, type TrustedClientConfig } from "../../../../providers/streams/deployment/inherited-credentials";

/*
 * The transport half of the rule the deploy route applies (see test/plugins/streams-api/deploy-credentials.test.ts for
 * the destination half over HTTP): trusted credentials that travel over TLS, with the broker's name checked, are never
 * inherited by a deploy that drops either.
 */
const test = suite("inherited credentials travel only as protected as the trusted configuration sends them");

const trusted: TrustedClientConfig = {
  bootstrapServers: ["kafka-1.example:9093"],
  values: { "security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": "trusted-user", "sasl.password": "trusted-pa55word" },
};

function refusal(requested: Record<string, string>, from: TrustedClientConfig = trusted): string | undefined {
  try {
    refuseInheritedCredentialsElsewhere(requested, from);
    return undefined;
  } catch (error) {
    assert.is((error as { status?: number }).status, 400);
    return (error as Error).message;
  }
}

test("dropping TLS from security.protocol, or the broker's name check, is refused by name without the secret", () => {
  for (const [requested, field] of [
    [{ "security.protocol": "SASL_PLAINTEXT" }, "security.protocol"],
    [{ "security.protocol": "plaintext" }, "security.protocol"],
    [{ "ssl.endpoint.identification.algorithm": "" }, "ssl.endpoint.identification.algorithm"],
  ] as const) {
    const message = refusal(requested);
    assert.ok(message, JSON.stringify(requested));
    assert.match(message!, `Field 'config.${field}' sends the instance elsewhere than the trusted configuration, or less protected, whose credentials it would inherit (sasl.password, sasl.username)`);
    assert.not.match(message!, "trusted-pa55word");
  }
});

test("the same or a stronger transport keeps the trusted credentials, and so does a weaker one with credentials of its own", () => {
  assert.is(refusal({ "security.protocol": "SASL_SSL", "ssl.endpoint.identification.algorithm": "https" }), undefined);
  assert.is(refusal({ "security.protocol": "SSL" }), undefined);
  assert.is(refusal({ "security.protocol": "SASL_SSL" }, { bootstrapServers: ["localhost:9092"], values: { "security.protocol": "SASL_PLAINTEXT", "sasl.username": "u", "sasl.password": "p" } }), undefined);
  assert.is(refusal({ "security.protocol": "SASL_PLAINTEXT", "sasl.username": "own", "sasl.password": "own-secret" }), undefined);
});

test("a trusted configuration without TLS or without the name check has nothing to weaken", () => {
  const plain: TrustedClientConfig = { bootstrapServers: ["localhost:9092"], values: { "sasl.username": "u", "sasl.password": "p", "ssl.endpoint.identification.algorithm": "" } };
  assert.is(refusal({ "security.protocol": "PLAINTEXT", "ssl.endpoint.identification.algorithm": "" }, plain), undefined);
});

test.run();
