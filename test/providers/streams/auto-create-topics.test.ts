/**
 * streams.auto.create.topics: input and output topics are created on the embedded broker, not on a cluster someone
 * named with streams.bootstrap.servers unless asked; a missing one then stops the application naming it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { startTestBroker } from "../broker/broker-test-kit";

const MISSING = "Error: topics missing on the cluster: words (input), word-counts (output); create them, or set streams.auto.create.topics=true to have Sluice create them";

async function wordcountIn(sluice: SluiceWithExamples, state: "RUNNING" | "ERROR"): Promise<{ exception?: string }> {
  return eventually(
    async () => {
      const description = (await http(`${sluice.url}/api/v1/streams/wordcount`)).json();
      return description.state.state === state ? description : undefined;
    },
    { timeoutMs: 15_000, what: `wordcount ${state}` },
  );
}

test("on a cluster named by streams.bootstrap.servers, missing input and output topics stop the application naming them", async () => {
  const broker = await startTestBroker({ autoCreateTopics: false });
  const sluice = await startSluiceWithExamples({ "streams.bootstrap.servers": broker.bootstrap });
  try {
    assert.is((await wordcountIn(sluice, "ERROR")).exception, MISSING);
    const admin = broker.kafka().admin();
    await admin.connect();
    assert.not.ok((await admin.listTopics()).some((topic) => topic === "words" || topic.startsWith("wordcount-")), "nothing of wordcount's created");
  } finally {
    await sluice.close();
    await broker.close();
  }
});

test("with streams.auto.create.topics=true they are created on that cluster", async () => {
  const broker = await startTestBroker({ autoCreateTopics: false });
  const sluice = await startSluiceWithExamples({ "streams.bootstrap.servers": broker.bootstrap, "streams.auto.create.topics": "true" });
  try {
    await wordcountIn(sluice, "RUNNING");
    const admin = broker.kafka().admin();
    await admin.connect();
    const topics = await admin.listTopics();
    assert.ok(topics.includes("words") && topics.includes("word-counts"), topics.join(", "));
  } finally {
    await sluice.close();
    await broker.close();
  }
});

test("on the embedded broker they are created, unless streams.auto.create.topics=false", async () => {
  const created = await startSluiceWithExamples();
  try {
    await wordcountIn(created, "RUNNING");
  } finally {
    await created.close();
  }
  const refused = await startSluiceWithExamples({ "streams.auto.create.topics": "false" });
  try {
    assert.is((await wordcountIn(refused, "ERROR")).exception, MISSING);
  } finally {
    await refused.close();
  }
});

test.run();
