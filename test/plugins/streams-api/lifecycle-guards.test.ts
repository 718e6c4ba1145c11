import { suite } from "uvu";
import * as assert from "uvu/assert";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle, type ApplicationState } from "../../../kernel/contracts/streams/runtime";
import type { ApplicationRegistry } from "../../../kernel/contracts/streams/runtime";
import { startSluice, type RunningSluice } from "../../helpers/sluice";
import { streamsClient } from "./streams-client";

/** An application whose state and operations the test controls; only what restart and stop touch is real. */
function controlledApplication(state: ApplicationState, operation: () => Promise<void>): ApplicationHandle {
  const application = {
    id: "held",
    name: "Held",
    version: "1",
    description: null,
    since: 0,
    state,
    stateSince: 0,
    exception: null,
    config: () => ({ "application.id": "held" }),
    restart: operation,
    stop: operation,
  };
  return application as unknown as ApplicationHandle;
}

function registryOf(application: ApplicationHandle): ApplicationRegistry {
  return { applications: () => [application], application: (id) => (id === application.id ? application : undefined) };
}

const guards = suite<{ sluice: RunningSluice }>("restart and stop guards");

guards.before(async (context) => {
  context.sluice = await startSluice({ overrides: { "server.operation.timeout.ms": "100", "broker.port": "0", "broker.storage": "memory" } });
});
guards.after(async ({ sluice }) => sluice?.close());

const use = (sluice: RunningSluice, application: ApplicationHandle) => {
  sluice.kernel.components.register(STREAMS_RUNTIME_TOKEN, { useValue: registryOf(application) });
  return streamsClient(sluice.url, application.id);
};

guards("restart and stop are 409 while the instance is shutting down", async ({ sluice }) => {
  let calls = 0;
  const app = use(sluice, controlledApplication("PENDING_SHUTDOWN", async () => void calls++));
  for (const res of [await app.post("/restart"), await app.stop(), await app.stop('{"cleanup": true}', "POST")]) {
    assert.is(res.status, 409);
    assert.is(res.json().error_code, 409);
    assert.match(res.json().message, /PENDING_SHUTDOWN/);
  }
  assert.is(calls, 0);
});

guards("an operation that outlasts server.operation.timeout.ms is a 503 naming the timeout", async ({ sluice }) => {
  const app = use(sluice, controlledApplication("RUNNING", () => new Promise<void>(() => undefined)));
  for (const res of [await app.post("/restart"), await app.stop()]) {
    assert.is(res.status, 503);
    assert.match(res.json().message, /within 100 ms \(server\.operation\.timeout\.ms\)/);
  }
});

guards("headless mode refuses restart and stop with 403", async () => {
  const sluice = await startSluice({ overrides: { "server.headless": "true", "broker.port": "0", "broker.storage": "memory" } });
  try {
    let calls = 0;
    const app = use(sluice, controlledApplication("RUNNING", async () => void calls++));
    for (const res of [await app.post("/restart"), await app.stop(), await app.stop(undefined, "POST")]) {
      assert.is(res.status, 403);
      assert.equal(res.json(), { error_code: 403, message: res.json().message, path: res.json().path });
      assert.match(res.json().message, /headless/);
    }
    assert.is(calls, 0);
    assert.is((await app.get()).status, 200, "reading stays allowed");
  } finally {
    await sluice.close();
  }
});

guards.run();
