/** Liveness and readiness probes, as an orchestrator uses them. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { http, startSluice } from "../../helpers/sluice";

test("liveness is UP, then DOWN for a while after the event loop was blocked past the threshold", async () => {
  const sluice = await startSluice({ overrides: { "server.health.liveness.max.lag.ms": "150" } });
  try {
    const up = await http(`${sluice.url}/health/liveness`);
    assert.is(up.status, 200);
    assert.is(up.json().status, "UP");
    const blockedUntil = Date.now() + 400;
    while (Date.now() < blockedUntil); // the event loop blocked, as a runaway computation would
    const down = await http(`${sluice.url}/health/liveness`);
    assert.is(down.status, 503);
    assert.equal([down.json().status, down.json().threshold_ms], ["DOWN", 150]);
    assert.ok(down.json().event_loop_max_delay_ms >= 150, down.text);
    assert.is((await http(`${sluice.url}/health`)).json().components.liveness.status, "DOWN");
  } finally {
    await sluice.close();
  }
});

test("readiness is UP with every application running, and liveness stays UP on an idle loop", async () => {
  const sluice = await startSluice();
  try {
    const ready = await http(`${sluice.url}/health/readiness`);
    assert.is(ready.status, 200);
    assert.equal(ready.json(), { status: "UP", not_ready: {} });
    assert.equal((await http(`${sluice.url}/health`)).json().components.readiness, { status: "UP", not_ready: {} });
    assert.is((await http(`${sluice.url}/health/liveness`)).status, 200);
  } finally {
    await sluice.close();
  }
});

test.run();
