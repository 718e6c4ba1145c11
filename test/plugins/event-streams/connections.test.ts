import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../../kernel/contracts/kafka-bootstrap";
import { eventually } from "../../helpers/eventually";
import { startSluice, type RunningSluice } from "../../helpers/sluice";
import { writeProviderPackage, type BurstRequest } from "./fixture-providers";
import { openSse } from "./sse-reader";

const HISTORY_SIZE = 3;

interface Context {
  sluice: RunningSluice;
  producer: Producer;
  folders: string[];
  logs: Record<string, unknown>[];
  firehose: string;
}

const test = suite<Context>("event stream connections");

test.before(async (context) => {
  context.folders = [writeProviderPackage("BurstProvider"), fs.mkdtempSync(path.join(os.tmpdir(), "sluice-state-"))];
  context.logs = [];
  context.sluice = await startSluice({
    overrides: {
      "plugins.packages": context.folders[0],
      "streams.state.dir": context.folders[1],
      "broker.port": "0",
      "broker.storage": "memory",
      "log.level": "debug",
      "server.sse.history.size": String(HISTORY_SIZE),
    },
    logSink: (line) => context.logs.push(JSON.parse(line)),
  });
  const brokers = context.sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
  context.producer = new Kafka({ clientId: "test-client", brokers, logLevel: logLevel.NOTHING }).producer();
  await context.producer.connect();
  context.firehose = `${context.sluice.url}/api/v1/streams/bursts/subscribe/firehose`;
});

test.after(async ({ sluice, producer, folders }) => {
  await producer?.disconnect();
  await sluice?.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

const burst = ({ producer }: Context, request: BurstRequest) =>
  producer.send({ topic: "bursts", messages: [{ key: request.stream, value: JSON.stringify(request) }], acks: -1 });

test("a closed connection is released as soon as the client goes", async (context) => {
  const subscriberLogs = () => context.logs.filter((line) => line.plugin === "event-streams" && String(line.msg).startsWith("subscriber"));
  const reader = await openSse(context.firehose);
  await eventually(() => subscriberLogs().some((line) => line.msg === "subscriber connected"), { what: "the connection" });
  assert.not.ok(subscriberLogs().some((line) => line.msg === "subscriber released"));
  reader.close();
  const released = await eventually(() => subscriberLogs().find((line) => line.msg === "subscriber released"), { what: "the release" });
  assert.equal(released, { ...released, application: "bursts", type: "firehose", dropped: 0 });
});

test("HEAD on an event stream answers its headers and releases the subscription it opened at once", async (context) => {
  const releases = () => context.logs.filter((line) => line.plugin === "event-streams" && line.msg === "subscriber released").length;
  const before = releases();
  const res = await fetch(context.firehose, { method: "HEAD" });
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
  assert.is(res.headers.get("cache-control"), "no-cache");
  assert.is(await res.text(), "");
  await eventually(() => releases() === before + 1, { what: "the HEAD request's subscription released" });
});

test("a reconnect from further back than the history gets the events still kept, then the live ones", async (context) => {
  const watcher = await openSse(context.firehose);
  const first = await openSse(context.firehose);
  try {
    await burst(context, { stream: "firehose", count: 1, size: 1 });
    const [seen] = await first.waitForEvents(1);
    first.close();
    await burst(context, { stream: "firehose", count: 2 * HISTORY_SIZE, size: 2 });
    const sent = await watcher.waitForEvents(1 + 2 * HISTORY_SIZE);

    const resumed = await openSse(context.firehose, { "Last-Event-ID": seen.id });
    await resumed.waitForEvents(HISTORY_SIZE);
    await burst(context, { stream: "firehose", count: 1, size: 3 });
    const received = await resumed.waitForEvents(HISTORY_SIZE + 1);
    const kept = sent.slice(-HISTORY_SIZE).map((event) => event.id);
    assert.equal(received.map((event) => event.id), [...kept, String(Number(kept.at(-1)) + 1)]);
    resumed.close();
  } finally {
    watcher.close();
    first.close();
  }
});

test("a Last-Event-ID this server has not sent yet (from before a restart) replays everything kept", async (context) => {
  const watcher = await openSse(context.firehose);
  try {
    await burst(context, { stream: "firehose", count: HISTORY_SIZE, size: 4 });
    const sent = await watcher.waitForEvents(HISTORY_SIZE);
    const resumed = await openSse(context.firehose, { "Last-Event-ID": "999999999" });
    const received = await resumed.waitForEvents(HISTORY_SIZE);
    assert.equal(received.map((event) => event.id), sent.map((event) => event.id));
    resumed.close();
  } finally {
    watcher.close();
  }
});

test.run();
