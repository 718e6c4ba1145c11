import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createPki, type TestPki } from "../../helpers/certificates";
import { eventually } from "../../helpers/eventually";
import { startSluice, type RunningSluice } from "../../helpers/sluice";
import { runSluice } from "../../helpers/sluice-process";
import { request } from "../../helpers/tls-client";

/*
 * HTTPS with certificates made by openssl: https works and plain http to the port fails without hurting the
 * server; client certificates name the principal (mtls); missing files stop startup naming file and key; a
 * certificate swapped on disk is served after SIGHUP to `sluice start`, and open connections stay open.
 */
const test = suite<{ pki: TestPki; server: { key: string; cert: string }; tls: RunningSluice; mtls: RunningSluice }>("TLS");

test.before(async (context) => {
  context.pki = createPki();
  context.server = context.pki.issue("server", "sluice-server", { server: true });
  const ssl = { "server.ssl.enable": "true", "server.ssl.key.location": context.server.key, "server.ssl.certificate.location": context.server.cert };
  context.tls = await startSluice({ overrides: ssl });
  context.mtls = await startSluice({
    overrides: {
      ...ssl,
      "server.ssl.ca.location": context.pki.ca,
      "server.ssl.client.auth": "requested",
      "server.auth.mechanism": "mtls",
      "server.auth.mtls.roles": "CN=ops:operator,reader:viewer,DNS:build.example:operator",
      "server.auth.failure.delay.ms": "0",
    },
  });
});
test.after(async ({ pki, tls, mtls }) => {
  await tls?.close();
  await mtls?.close();
  pki?.remove();
});

const httpsUrl = (sluice: RunningSluice) => `https://${sluice.kernel.serverAddress()}`;

test("https answers with the configured certificate; plain http to the port fails and the server keeps serving", async ({ tls, pki }) => {
  const res = await request(`${httpsUrl(tls)}/api/v1`, { ca: pki.ca });
  assert.is(res.status, 200);
  assert.is(res.headers["strict-transport-security"], "max-age=31536000");
  const plain = await request(`http://${tls.kernel.serverAddress()}/api/v1`).then(
    (answer) => `answered ${answer.status}`,
    (error: NodeJS.ErrnoException) => error.code,
  );
  assert.ok(["ECONNRESET", "EPIPE", "HPE_INVALID_CONSTANT"].includes(String(plain)), String(plain));
  assert.is((await request(`${httpsUrl(tls)}/api/v1`, { ca: pki.ca })).status, 200);
});

test("a certificate not signed by a trusted CA is refused by the client", async ({ tls }) => {
  const error = await request(`${httpsUrl(tls)}/api/v1`).catch((e: NodeJS.ErrnoException) => e.code);
  assert.is(error, "UNABLE_TO_VERIFY_LEAF_SIGNATURE");
});

test("a client certificate's CN names the principal and its role; unmapped or absent certificates are 401", async ({ mtls, pki }) => {
  const reader = pki.issue("reader", "reader");
  const ops = pki.issue("ops", "ops");
  const stranger = pki.issue("stranger", "stranger");
  const base = httpsUrl(mtls);
  assert.is((await request(`${base}/api/v1/streams`, { ca: pki.ca, ...reader })).status, 200);
  const refused = await request(`${base}/api/v1/streams/nope/restart`, { method: "POST", ca: pki.ca, ...reader });
  assert.is(refused.status, 403);
  assert.is(refused.json().message, "POST /api/v1/streams/nope/restart needs role 'operator'; 'reader' has role 'viewer'");
  assert.is((await request(`${base}/api/v1/streams/nope/restart`, { method: "POST", ca: pki.ca, ...ops })).status, 404);
  const unmapped = await request(`${base}/api/v1/streams`, { ca: pki.ca, ...stranger });
  assert.is(unmapped.status, 401);
  assert.is(unmapped.json().message, "Authentication required: client certificate 'stranger' has no role in server.auth.mtls.roles");
  const none = await request(`${base}/api/v1/streams`, { ca: pki.ca });
  assert.is(none.status, 401);
  assert.is(none.json().message, "Authentication required: a client certificate is required");
});

test("a mapping names the subject CN, or a subject alternative name of the type it names: a SAN never passes for a CN", async ({ mtls, pki }) => {
  const base = httpsUrl(mtls);
  const pretender = pki.issue("pretender", "stranger", { san: "DNS:reader,email:reader,URI:reader" });
  const unmapped = await request(`${base}/api/v1/streams`, { ca: pki.ca, ...pretender });
  assert.is(unmapped.status, 401);
  assert.is(unmapped.json().message, "Authentication required: client certificate 'stranger' has no role in server.auth.mtls.roles");
  const build = pki.issue("build", "ci-runner", { san: "DNS:build.example" });
  assert.is((await request(`${base}/api/v1/streams/nope/restart`, { method: "POST", ca: pki.ca, ...build })).status, 404);
  const namedLikeSan = pki.issue("named-like-san", "build.example");
  assert.is((await request(`${base}/api/v1/streams`, { ca: pki.ca, ...namedLikeSan })).status, 401, "a CN is not a DNS name");
});

test("a missing certificate file stops startup with a message naming the file and the key", async ({ server }) => {
  const missing = path.join(path.dirname(server.cert), "absent.pem");
  try {
    await startSluice({ overrides: { "server.ssl.enable": "true", "server.ssl.key.location": server.key, "server.ssl.certificate.location": missing } });
    assert.unreachable("startup should fail");
  } catch (error) {
    assert.is((error as Error).message, `Cannot read ${missing} (server.ssl.certificate.location): ENOENT`);
  }
});

test("a key file that is not a PEM key stops startup naming both files", async ({ server }) => {
  const garbage = path.join(path.dirname(server.key), "garbage.key");
  fs.writeFileSync(garbage, "not a key");
  try {
    await startSluice({ overrides: { "server.ssl.enable": "true", "server.ssl.key.location": garbage, "server.ssl.certificate.location": server.cert } });
    assert.unreachable("startup should fail");
  } catch (error) {
    assert.match((error as Error).message, `TLS files ${garbage} (server.ssl.key.location) and ${server.cert} (server.ssl.certificate.location) are not a usable PEM key and certificate`);
  }
});

test("with server.ssl.client.auth=required a client without a certificate cannot connect", async ({ server, pki }) => {
  const required = await startSluice({
    overrides: {
      "server.ssl.enable": "true",
      "server.ssl.key.location": server.key,
      "server.ssl.certificate.location": server.cert,
      "server.ssl.ca.location": pki.ca,
      "server.ssl.client.auth": "required",
    },
  });
  try {
    const refused = await request(`${httpsUrl(required)}/api/v1`, { ca: pki.ca }).then(
      (answer) => `answered ${answer.status}`,
      (error: NodeJS.ErrnoException) => error.code,
    );
    assert.ok(["ECONNRESET", "ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED", "EPROTO"].includes(String(refused)), String(refused));
    assert.is((await request(`${httpsUrl(required)}/api/v1`, { ca: pki.ca, ...pki.issue("anyone", "anyone") })).status, 200);
  } finally {
    await required.close();
  }
});

test("after SIGHUP `sluice start` serves the certificate swapped on disk; an open connection is not dropped", async ({ pki }) => {
  const first = pki.issue("reloaded", "before-reload", { server: true });
  const process = runSluice(["start", "--server.port=0", "--server.ssl.enable=true", `--server.ssl.key.location=${first.key}`, `--server.ssl.certificate.location=${first.cert}`]);
  try {
    const url = (await process.url(30_000)).replace(/^https:\/\//, "");
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    const before = await request(`https://${url}/api/v1`, { ca: pki.ca, agent });
    assert.is(before.status, 200);
    const swapped = pki.issue("swapped", "after-reload", { server: true });
    fs.copyFileSync(swapped.key, first.key);
    fs.copyFileSync(swapped.cert, first.cert);
    process.child.kill("SIGHUP");
    await eventually(() => process.logs().some((line) => line.msg === "TLS certificates and credentials reloaded"), { what: "the reload" });
    const onOpenConnection = await request(`https://${url}/api/v1`, { ca: pki.ca, agent });
    assert.is(onOpenConnection.status, 200);
    assert.ok(onOpenConnection.reusedSocket, "the keep-alive connection survived the reload");
    assert.is(onOpenConnection.fingerprint, before.fingerprint);
    const fresh = await request(`https://${url}/api/v1`, { ca: pki.ca, agent: new https.Agent() });
    assert.is.not(fresh.fingerprint, before.fingerprint);
    agent.destroy();
  } finally {
    process.child.kill("SIGTERM");
    await process.exited;
  }
});

test.run();
