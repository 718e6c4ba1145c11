import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Sluice } from "../../index";
import type { ApplicationRegistry } from "../../kernel/contracts/streams/runtime";
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { STREAMS_RUNTIME_TOKEN } from "../../kernel/contracts/streams/runtime";
import type { TopologyProvider } from "../../kernel/contracts/streams/topology-provider";
import { eventually } from "../helpers/eventually";
import { FIXTURES, http } from "../helpers/sluice";
import { rowValue } from "../helpers/table-rows";

class GreetingsProvider implements TopologyProvider {
  readonly name = "Greetings";
  readonly version = "2.0.0";
  readonly config = { "application.id": "greetings" };

  topology(builder: StreamsBuilder): void {
    builder
      .stream<string | null, string>("names")
      .groupBy((_key, name) => name, { keySerde: "string", valueSerde: "string" })
      .count({ storeName: "greeting-counts", keySerde: "string", valueSerde: "long" });
  }
}

const embedding = suite<{ stateDir: string }>("embedding Sluice in a program");

embedding.before.each((context) => {
  context.stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-embed-"));
});
embedding.after.each(({ stateDir }) => fs.rmSync(stateDir, { recursive: true, force: true }));

const baseConfig = (stateDir: string) => ({ broker: { port: 0, storage: "memory" }, streams: { "state.dir": stateDir }, log: { level: "silent" } });

async function greet(app: Sluice, names: string[]): Promise<void> {
  const producer = new Kafka({ brokers: app.kafkaBootstrapServers(), logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  await producer.send({ topic: "names", messages: names.map((value) => ({ value })) });
  await producer.disconnect();
}

embedding("with the server disabled the applications run, no port opens, application.server is unset", async ({ stateDir }) => {
  const app = await Sluice.create({ root: FIXTURES, env: {}, config: baseConfig(stateDir) });
  app.register(new GreetingsProvider());
  await app.start();
  try {
    assert.is(app.serverAddress(), undefined);
    const greetings = app.components.resolve<ApplicationRegistry>(STREAMS_RUNTIME_TOKEN).application("greetings");
    assert.ok(greetings, "the programmatic provider runs");
    assert.is(greetings.config()["application.server"], undefined);
    await greet(app, ["ada", "alan", "ada"]);
    const count = await eventually(
      async () => {
        const store = greetings.store("greeting-counts")?.readOnly(0);
        return (await rowValue(store, "ada")) === 2;
      },
      { what: "ada's count to reach 2", timeoutMs: 20_000 },
    );
    assert.ok(count);
  } finally {
    await app.close();
  }
});

embedding("a programmatic listener and port turn the server on and set application.server", async ({ stateDir }) => {
  const app = await Sluice.create({ root: FIXTURES, env: {}, config: { ...baseConfig(stateDir), server: { listener: "127.0.0.1", port: 0 } } });
  app.register(new GreetingsProvider());
  await app.start();
  try {
    const address = app.serverAddress();
    assert.match(String(address), /^127\.0\.0\.1:\d+$/);
    assert.equal((await http(`http://${address}/api/v1/streams`)).json(), ["greetings"]);
    const described = (await http(`http://${address}/api/v1/streams/greetings`)).json();
    assert.is(described.version, "2.0.0");
    assert.is(described.config["application.server"], address);
  } finally {
    await app.close();
  }
});

embedding("server.enable false wins over a given listener and port", async ({ stateDir }) => {
  const app = await Sluice.create({ root: FIXTURES, env: {}, config: { ...baseConfig(stateDir), server: { enable: false, listener: "127.0.0.1", port: 0 } } });
  await app.start();
  try {
    assert.is(app.serverAddress(), undefined);
  } finally {
    await app.close();
  }
});

embedding("program-given plugins and REST extensions are served beside the discovered ones", async ({ stateDir }) => {
  const config = { ...baseConfig(stateDir), server: { listener: "127.0.0.1", port: 0, rest: { extensions: true } } };
  const app = await Sluice.create({ root: FIXTURES, env: {}, config });
  app.registerPlugin({ configure: ({ routes }) => routes.get("/program-plugin", () => ({ from: "plugin" })) });
  app.registerRestExtension({ register: ({ routes }) => routes.get("/program-extension", () => ({ from: "extension" })) });
  await app.start();
  try {
    assert.equal((await http(`http://${app.serverAddress()}/program-plugin`)).json(), { from: "plugin" });
    assert.equal((await http(`http://${app.serverAddress()}/program-extension`)).json(), { from: "extension" });
    assert.is((await http(`http://${app.serverAddress()}/info`)).status, 200);
  } finally {
    await app.close();
  }
});

embedding("a plugin failing to configure fails the start, and only the plugins configured before it are closed", async ({ stateDir }) => {
  const logged: string[] = [];
  const config = { ...baseConfig(stateDir), server: { listener: "127.0.0.1", port: 0 }, log: { level: "error" } };
  const app = await Sluice.create({ root: FIXTURES, env: {}, config, logSink: (line) => logged.push(line) });
  const closed: string[] = [];
  app.registerPlugin({ configure: () => undefined, close: () => void closed.push("configured") });
  app.registerPlugin({
    configure: () => {
      throw new Error("no licence key");
    },
    close: () => void closed.push("failed"),
  });
  const failure = await app.start().then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.match(String(failure), /no licence key/);
  assert.equal(closed, ["configured"]);
  assert.equal(logged.filter((line) => line.includes("close failed")), []);
});

embedding("two topology providers of one application.id fail the start, naming both", async ({ stateDir }) => {
  const app = await Sluice.create({ root: FIXTURES, env: {}, config: baseConfig(stateDir) });
  const farewells: TopologyProvider = { name: "Farewells", version: "1.0.0", config: { "application.id": "greetings" }, topology: (builder) => void builder.stream("names").to("farewells") };
  app.register(new GreetingsProvider()).register(farewells);
  await app.start().then(
    () => assert.unreachable("the start should fail"),
    (error: Error) => {
      const given = (index: number) => `sluice.streams.TopologyProvider given by the program #${index}`;
      assert.ok(error.message.includes(`topology providers 'Greetings' 2.0.0 (${given(1)}) and 'Farewells' 1.0.0 (${given(2)}) both use application.id 'greetings'`), error.message);
    },
  );
});

embedding("registering after start is refused", async ({ stateDir }) => {
  const app = await Sluice.create({ root: FIXTURES, env: {}, config: baseConfig(stateDir) });
  await app.start();
  try {
    assert.throws(() => app.register(new GreetingsProvider()), /before start\(\)/);
  } finally {
    await app.close();
  }
});

embedding.run();
