import path from "node:path";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { resolveBootstrapServers } from "../../../kernel/contracts/kafka-bootstrap";
import { eventually } from "../../helpers/eventually";
import { FIXTURES, http, startSluice, type RunningSluice } from "../../helpers/sluice";

// serializer-app: its own topology keeps Money values (a class of the installed money-serializer package, whose
// descriptor registers a serializer module for it) in a store and an event stream.
const APP = path.join(FIXTURES, "serializer-app");

const modules = suite<{ sluice: RunningSluice; logs: string[]; producer: Producer }>("serializer modules in query results and event payloads");

modules.before(async (context) => {
  context.logs = [];
  context.sluice = await startSluice({ root: APP, overrides: { "log.level": "error" }, logSink: (line) => context.logs.push(line) });
  const brokers = resolveBootstrapServers(context.sluice.kernel.components);
  await eventually(async () => (await http(`${context.sluice.url}/api/v1/streams/wallet`)).json().state.state === "RUNNING", { what: "wallet to run", timeoutMs: 20_000 });
  context.producer = new Kafka({ brokers, logLevel: logLevel.NOTHING }).producer();
  await context.producer.connect();
});
modules.after(async ({ sluice, producer }) => {
  await producer.disconnect();
  await sluice.close();
});

async function pay(producer: Producer, user: string, cents: number): Promise<void> {
  await producer.send({ topic: "payments", messages: [{ key: user, value: JSON.stringify({ cents }) }] });
}

/** Reads a server-sent event stream until `done` accepts the text received so far. */
async function readEvents(url: string, act: () => Promise<void>, done: (text: string) => boolean): Promise<string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 15_000);
  try {
    const response = await fetch(url, { signal: abort.signal });
    const reader = response.body!.getReader();
    let text = "";
    await act();
    while (!done(text)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += Buffer.from(value).toString("utf8");
    }
    return text;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

modules("a package's serializer module renders the store's values in query results", async ({ sluice, producer }) => {
  await pay(producer, "ann", 1250);
  await pay(producer, "ann", 250);
  const query = { type: "key_value", query: { get: { key: "ann" } } };
  const records = await eventually(
    async () => {
      const result = (await http(`${sluice.url}/api/v1/applications/wallet/stores/balances`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(query) })).json();
      const found = result.result.success[0]?.records ?? [];
      return found[0]?.value === "15.00 EUR" ? found : undefined;
    },
    { what: "ann's balance", timeoutMs: 15_000 },
  );
  assert.equal(records, [{ key: "ann", value: "15.00 EUR" }]);
});

modules("the same module renders event stream payloads", async ({ sluice, producer }) => {
  const text = await readEvents(`${sluice.url}/api/v1/streams/wallet/subscribe/balances`, () => pay(producer, "bob", 99), (received) => received.includes('"key":"bob"'));
  assert.match(text, /data: \{"key":"bob","value":"0\.99 EUR","timestamp":\d+\}/);
});

modules("a value no module handles is a clear error naming the store and the type, never {}", async ({ sluice, logs, producer }) => {
  await pay(producer, "carla", 1);
  const query = { type: "key_value", query: { get: { key: "carla" } } };
  const result = await eventually(
    async () => {
      const body = (await http(`${sluice.url}/api/v1/applications/wallet/stores/opaque-values`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(query) })).json();
      return body.status === "ERROR" ? body : undefined;
    },
    { what: "the opaque value to be queried", timeoutMs: 15_000 },
  );
  assert.match(JSON.stringify(result.result.failure), /Cannot render a value of type Opaque \(application 'wallet', store 'opaque-values', field 'value'\)/);
  assert.not.match(JSON.stringify(result), /"value":\{\}/);
  await eventually(() => logs.some((line) => line.includes("Cannot render a value of type Opaque (application 'wallet', event stream 'opaque', field 'value')")), {
    what: "the event stream's error to be logged",
  });
});

modules.run();
