/**
 * Sluice's clients wait for a slow TLS handshake as Kafka's clients do (10 s), which managed clusters far away may
 * need: a TLS broker behind a proxy that holds every new connection for 1.5 s before passing it on. The timeout keys
 * of the kafkajs admin the runtime once had are still accepted, with a warning that they do nothing.
 */
import fs from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createPki } from "../../helpers/certificates";
import { eventually } from "../../helpers/eventually";
import { http, startSluice } from "../../helpers/sluice";
import { EXAMPLES_PACKAGE } from "../../helpers/streams";
import { startTestBroker } from "../broker/broker-test-kit";

const HOLD_MS = 1_500;

/** Forwards each connection to `target` once it has been held `HOLD_MS`; the client's first bytes wait meanwhile. */
async function slowProxy(target: { host: string; port: number }): Promise<{ address: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.pause();
    client.on("error", () => undefined);
    const timer = setTimeout(() => {
      const upstream = connect(target.port, target.host, () => {
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
    }, HOLD_MS);
    client.on("close", () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test("an application reaches a TLS cluster whose handshakes take 1.5 s and runs; the old admin timeout keys load with a deprecation warning", async () => {
  const pki = createPki();
  const pair = pki.issue("broker", "localhost", { server: true });
  const broker = await startTestBroker({ tls: { cert: fs.readFileSync(pair.cert, "utf8"), key: fs.readFileSync(pair.key, "utf8") } });
  const proxy = await slowProxy({ host: broker.broker.host, port: broker.broker.port });
  const logged: string[] = [];
  const sluice = await startSluice({
    logSink: (line) => logged.push(line),
    overrides: {
      "log.level": "warn",
      "streams.request.timeout.ms": "5000",
      "plugins.packages": EXAMPLES_PACKAGE,
      "streams.bootstrap.servers": proxy.address,
      "streams.auto.create.topics": "true",
      "streams.security.protocol": "SSL",
      "streams.ssl.ca.location": pki.ca,
    },
  });
  try {
    const state = await eventually(
      async () => {
        const { state: current } = (await http(`${sluice.url}/api/v1/streams/wordcount`)).json();
        return current.state === "RUNNING" || current.state === "ERROR" ? current.state : undefined;
      },
      { timeoutMs: 30_000, what: "wordcount running or failed" },
    );
    const description = (await http(`${sluice.url}/api/v1/streams/wordcount`)).json();
    assert.is(state, "RUNNING", description.exception);
    const deprecations = logged.map((line) => JSON.parse(line)).filter((line) => line.level === "warn" && /deprecated/.test(line.msg));
    assert.equal(
      deprecations.map((line) => line.msg),
      ["streams.request.timeout.ms (from command-line flag --streams.request.timeout.ms) is deprecated: it set the timeouts of the kafkajs admin client, which Sluice no longer uses; its own client's admin calls keep trying for 60 s. Remove it."],
    );
  } finally {
    await sluice.close();
    await proxy.close();
    await broker.close();
    pki.remove();
  }
});

test.run();
