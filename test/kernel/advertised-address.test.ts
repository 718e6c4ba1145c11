/** The address other instances route queries to: never a wildcard, the configured one when given. */
import os from "node:os";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { advertisedAddress } from "../../kernel/http/advertised-address";
import { http, startSluice } from "../helpers/sluice";
import { EXAMPLES_PACKAGE } from "../helpers/streams";

test("a wildcard listener advertises the machine's hostname, a configured one wins, ports default to the listener's", () => {
  assert.equal(advertisedAddress(undefined, { host: "0.0.0.0", port: 8080 }), { address: `${os.hostname()}:8080`, fromHostname: true });
  assert.equal(advertisedAddress(undefined, { host: "::", port: 8080 }).address, `${os.hostname()}:8080`);
  assert.equal(advertisedAddress(undefined, { host: "127.0.0.1", port: 8080 }), { address: "127.0.0.1:8080", fromHostname: false });
  assert.equal(advertisedAddress(undefined, { host: "::1", port: 8080 }).address, "[::1]:8080");
  assert.equal(advertisedAddress("sluice-0.sluice", { host: "0.0.0.0", port: 8080 }).address, "sluice-0.sluice:8080");
  assert.equal(advertisedAddress("10.1.2.3:30080", { host: "0.0.0.0", port: 8080 }).address, "10.1.2.3:30080");
  assert.equal(advertisedAddress("[fd00::5]:9000", { host: "::", port: 8080 }).address, "[fd00::5]:9000");
  for (const bad of ["host:port", "a b", "0.0.0.0", "h:70000"]) {
    assert.throws(() => advertisedAddress(bad, { host: "0.0.0.0", port: 8080 }), /server\.advertised\.listener/);
  }
});

test("applications on a wildcard listener carry the hostname as application.server, or the advertised one", async () => {
  for (const [overrides, expected] of [
    [{}, (port: string) => `${os.hostname()}:${port}`],
    [{ "server.advertised.listener": "sluice-1.internal" }, (port: string) => `sluice-1.internal:${port}`],
  ] as const) {
    const sluice = await startSluice({ overrides: { "server.listener": "0.0.0.0", "plugins.packages": EXAMPLES_PACKAGE, ...overrides } });
    try {
      const port = sluice.kernel.serverAddress()!.split(":").pop()!;
      const config = (await http(`http://127.0.0.1:${port}/api/v1/streams/wordcount/config`)).json();
      assert.is(config["application.server"], expected(port));
    } finally {
      await sluice.close();
    }
  }
});

test.run();
