import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { basicAs, deployersOn, deployWordcountAs } from "./deployments-client";
import { streamsClient } from "./streams-client";

/*
 * Credentials of the trusted configuration go only to the trusted destination: a deploy request that names another
 * bootstrap.servers list or token endpoint brings its own, or is refused (admins too) and nothing connects there.
 */
interface Context {
  sluice: SluiceWithExamples;
  dir: string;
  /** A plain TCP listener standing for the deployer's broker and token endpoint. */
  elsewhere: net.Server;
  address: string;
  connections: number;
}

const credentials = suite<Context>("a deployed instance inherits trusted credentials only at the trusted destination");

credentials.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-deploy-credentials-"));
  context.connections = 0;
  context.elsewhere = net.createServer((socket) => {
    context.connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => context.elsewhere.listen(0, "127.0.0.1", resolve));
  context.address = `127.0.0.1:${(context.elsewhere.address() as net.AddressInfo).port}`;
  context.sluice = await startSluiceWithExamples({
    ...(await deployersOn(context.dir)),
    "streams.sasl.username": "trusted-user",
    "streams.sasl.password": "trusted-pa55word",
    "streams.sasl.oauthbearer.client.id": "trusted-client",
    "streams.sasl.oauthbearer.client.secret": "trusted-client-secret",
  });
});
credentials.after(async ({ sluice, dir, elsewhere }) => {
  await sluice?.close();
  await new Promise((resolve) => elsewhere.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

const INHERITED = "sasl.oauthbearer.client.id, sasl.oauthbearer.client.secret, sasl.password, sasl.username";

credentials("another bootstrap.servers or token endpoint without credentials of its own: a 400 naming the keys, for an admin too", async ({ sluice, address }) => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["otto", { "bootstrap.servers": address }, "Field 'config.bootstrap.servers'"],
    ["ada", { "bootstrap.servers": `${sluice.brokers.join(",")},${address}` }, "Field 'config.bootstrap.servers'"],
    ["otto", { "sasl.oauthbearer.token.endpoint.url": `http://${address}/token` }, "Field 'config.sasl.oauthbearer.token.endpoint.url'"],
  ];
  for (const [user, config, field] of cases) {
    const res = await deployWordcountAs(sluice.url, user, { "application.id": "wordcount-elsewhere", ...config });
    assert.is(res.status, 400, `${user} ${JSON.stringify(config)}: ${res.text}`);
    assert.match(res.json().message, `${field} sends the instance elsewhere than the trusted configuration, or less protected, whose credentials it would inherit (${INHERITED})`);
    assert.not.match(res.text, "trusted-pa55word");
    assert.not.match(res.text, "trusted-client-secret");
  }
  assert.not.ok((await http(`${sluice.url}/api/v1/streams`, { headers: basicAs("ada") })).json().includes("wordcount-elsewhere"));
});

credentials("the trusted destination, however written, keeps the trusted credentials", async ({ sluice }) => {
  const reordered = [...sluice.brokers].reverse().map((broker) => ` ${broker.toUpperCase()} `).join(",");
  const res = await deployWordcountAs(sluice.url, "otto", { "application.id": "wordcount-trusted-destination", "bootstrap.servers": `${reordered},${sluice.brokers[0]}`, "auto.create.topics": true });
  assert.is(res.status, 201, res.text);
  await streamsClient(sluice.url, "wordcount-trusted-destination", basicAs("otto")).waitForState(["RUNNING"]);
});

credentials("another destination with credentials of its own is deployed, and the trusted ones never reach it", async (context) => {
  const own = { "sasl.username": "own-user", "sasl.password": "own-pa55word", "sasl.oauthbearer.client.id": "", "sasl.oauthbearer.client.secret": "" };
  const res = await deployWordcountAs(context.sluice.url, "otto", { "application.id": "wordcount-own-credentials", "bootstrap.servers": context.address, ...own });
  assert.is(res.status, 201, res.text);
  const config = (await streamsClient(context.sluice.url, "wordcount-own-credentials", basicAs("otto")).json()).config;
  assert.is(config["sasl.username"], "own-user");
  assert.is(config["sasl.password"], "[hidden]");
  // Every deploy that would have inherited the trusted credentials there was refused before anything connected.
  assert.is(context.connections, 0);
});

credentials.run();
