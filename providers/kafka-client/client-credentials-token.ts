/**
 * A bearer token from an OAuth 2.0 token endpoint with the client credentials grant (RFC 6749 §4.4), as librdkafka's
 * `sasl.oauthbearer.method=oidc` asks for one: the client id and secret in HTTP Basic authentication, the scope if
 * any, `expires_in` giving the token's life. Errors name the endpoint and its answer, never the secret.
 */
import type { BearerToken } from "./oauthbearer-tokens";

export interface ClientCredentials {
  readonly endpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope?: string;
  readonly timeoutMs?: number;
}

export async function clientCredentialsToken(credentials: ClientCredentials): Promise<BearerToken> {
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (credentials.scope) form.set("scope", credentials.scope);
  // RFC 6749 §2.3.1: both parts form-encoded before they are joined.
  const basic = Buffer.from(`${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`).toString("base64");
  let response: Response;
  try {
    response = await fetch(credentials.endpoint, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
      signal: AbortSignal.timeout(credentials.timeoutMs ?? 10_000),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new Error(`token endpoint ${credentials.endpoint} unreachable: ${cause}`);
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Named below by what is missing.
  }
  if (!response.ok) {
    const detail = [body.error, body.error_description].filter((part) => typeof part === "string").join(": ");
    throw new Error(`token endpoint ${credentials.endpoint} answered HTTP ${response.status}${detail ? ` (${detail})` : ""}`);
  }
  if (typeof body.access_token !== "string" || body.access_token === "") throw new Error(`token endpoint ${credentials.endpoint} answered without an access_token`);
  const expiresIn = Number(body.expires_in);
  return { value: body.access_token, expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined };
}
