import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { http as fetchHttp, startSluice, type RunningSluice } from "../../helpers/sluice";

/*
 * Bearer authentication: JWTs verified against a public key file and against a JWKS URL (signature, expiry,
 * issuer, audience, roles claim), opaque tokens from the tokens file, and what a broken token gets: 401.
 */
const test = suite<{ keyFile: RunningSluice; jwks: RunningSluice; jwksServer: http.Server; dir: string }>("bearer authentication");

let signing: CryptoKey;
let stranger: CryptoKey;
const OPAQUE = "opaque-operator-token-0123456789";

const jwt = (claims: JWTPayload, { key = signing, expires = "5m", issuer = "https://idp.example", audience = "sluice" } = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: "ES256" }).setSubject(String(claims.sub ?? "someone")).setIssuer(issuer).setAudience(audience).setIssuedAt().setExpirationTime(expires).sign(key);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const streams = (sluice: RunningSluice, token: string) => fetchHttp(`${sluice.url}/api/v1/streams`, { headers: bearer(token) });
const restart = (sluice: RunningSluice, token: string) => fetchHttp(`${sluice.url}/api/v1/streams/nope/restart`, { method: "POST", headers: bearer(token) });

test.before(async (context) => {
  const pair = await generateKeyPair("ES256");
  signing = pair.privateKey;
  stranger = (await generateKeyPair("ES256")).privateKey;
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bearer-"));
  const publicKey = path.join(context.dir, "public.pem");
  fs.writeFileSync(publicKey, await exportSPKI(pair.publicKey));
  const tokens = path.join(context.dir, "tokens");
  fs.writeFileSync(tokens, `# ops automation\n${createHash("sha256").update(OPAQUE).digest("hex")}:operator:automation\n`);
  const jwk = { ...(await exportJWK(pair.publicKey)), alg: "ES256", use: "sig" };
  context.jwksServer = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ keys: [jwk] })));
  await new Promise<void>((resolve) => context.jwksServer.listen(0, "127.0.0.1", resolve));
  const common = {
    "server.auth.mechanism": "bearer",
    "server.auth.jwt.issuer": "https://idp.example",
    "server.auth.jwt.audience": "sluice",
    "server.auth.failure.delay.ms": "0",
  };
  context.keyFile = await startSluice({ overrides: { ...common, "server.auth.jwt.public.key.location": publicKey, "server.auth.tokens.file": tokens } });
  const jwksUrl = `http://127.0.0.1:${(context.jwksServer.address() as AddressInfo).port}/jwks.json`;
  context.jwks = await startSluice({ overrides: { ...common, "server.auth.jwt.jwks.url": jwksUrl, "server.auth.jwt.roles.claim": "realm_access.roles" } });
});
test.after(async (context) => {
  await context.keyFile?.close();
  await context.jwks?.close();
  context.jwksServer?.close();
  fs.rmSync(context.dir, { recursive: true, force: true });
});

test("a viewer's JWT reads and is refused restart with 403; an operator's is let through", async ({ keyFile }) => {
  const viewer = await jwt({ sub: "vera", roles: ["viewer"] });
  assert.is((await streams(keyFile, viewer)).status, 200);
  const refused = await restart(keyFile, viewer);
  assert.is(refused.status, 403);
  assert.is(refused.json().message, "POST /api/v1/streams/nope/restart needs role 'operator'; 'vera' has role 'viewer'");
  const operator = await jwt({ sub: "otto", roles: ["viewer", "operator"] });
  assert.is((await restart(keyFile, operator)).status, 404);
});

test("expired, wrongly signed, foreign-issuer and wrong-audience JWTs are 401 with a Bearer invalid_token challenge", async ({ keyFile }) => {
  const cases = [
    [await jwt({ roles: ["admin"] }, { expires: "-1m" }), "ERR_JWT_EXPIRED"],
    [await jwt({ roles: ["admin"] }, { key: stranger }), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"],
    [await jwt({ roles: ["admin"] }, { issuer: "https://other.example" }), "ERR_JWT_CLAIM_VALIDATION_FAILED (iss)"],
    [await jwt({ roles: ["admin"] }, { audience: "someone-else" }), "ERR_JWT_CLAIM_VALIDATION_FAILED (aud)"],
  ];
  for (const [token, code] of cases) {
    const res = await streams(keyFile, token);
    assert.is(res.status, 401);
    assert.equal(res.json(), { error_code: 401, message: `Authentication required: invalid JWT: ${code}`, path: "/api/v1/streams" });
    assert.is(res.headers.get("www-authenticate"), 'Bearer realm="sluice", error="invalid_token"');
  }
});

test("JWTs without exp, or issued or valid only beyond the clock skew in the future, are 401; within the skew they pass", async ({ keyFile }) => {
  const now = Math.floor(Date.now() / 1000);
  const signed = (claims: JWTPayload) =>
    new SignJWT({ roles: ["viewer"], iss: "https://idp.example", aud: "sluice", sub: "clock", ...claims }).setProtectedHeader({ alg: "ES256" }).sign(signing);
  const cases: [JWTPayload, string][] = [
    [{ iat: now }, "ERR_JWT_CLAIM_VALIDATION_FAILED (exp)"],
    [{ iat: now + 3_600, exp: now + 7_200 }, "ERR_JWT_CLAIM_VALIDATION_FAILED (iat is in the future)"],
    [{ iat: now, nbf: now + 3_600, exp: now + 7_200 }, "ERR_JWT_CLAIM_VALIDATION_FAILED (nbf)"],
  ];
  for (const [claims, code] of cases) {
    const res = await streams(keyFile, await signed(claims));
    assert.is(res.status, 401, JSON.stringify(claims));
    assert.is(res.json().message, `Authentication required: invalid JWT: ${code}`);
  }
  assert.is((await streams(keyFile, await signed({ iat: now + 10, nbf: now + 10, exp: now + 600 }))).status, 200, "10 s ahead is within the default 30 s skew");
});

test("a JWT without a known role is 401", async ({ keyFile }) => {
  const res = await streams(keyFile, await jwt({ sub: "nobody", roles: ["superuser"] }));
  assert.is(res.status, 401);
  assert.is(res.json().message, "Authentication required: JWT of 'nobody' has no known role in claim 'roles'");
});

test("an opaque token from the tokens file authenticates with its role; an unknown one is 401", async ({ keyFile }) => {
  assert.is((await restart(keyFile, OPAQUE)).status, 404);
  assert.is((await streams(keyFile, "not-a-known-token")).status, 401);
});

test("keys from a JWKS URL, roles from a nested claim", async ({ jwks }) => {
  const token = await jwt({ sub: "kc-user", realm_access: { roles: ["offline_access", "operator"] } });
  assert.is((await restart(jwks, token)).status, 404);
  assert.is((await streams(jwks, await jwt({ roles: ["admin"] }, { key: stranger }))).status, 401);
});

test("malformed bearer headers and huge tokens are 401, never 5xx", async ({ keyFile }) => {
  const headers = ["Bearer", "Bearer ", "Bearer a b", "Bearer ééé", "Bearer ...", "Bearer a.b.c", `Bearer ${"x".repeat(9_000)}`, `Bearer ${"eyJ".repeat(2_000)}.e30.sig`, "Basic dmVyYTpwYXNz"];
  for (const authorization of headers) {
    const res = await fetchHttp(`${keyFile.url}/api/v1/streams`, { headers: { Authorization: authorization } });
    assert.is(res.status, 401, authorization.slice(0, 30));
    assert.is(res.json().error_code, 401);
  }
});

test.run();
