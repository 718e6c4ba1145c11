/**
 * Compressed topics end to end with librdkafka: kcat writes `words` in every codec and wordcount counts exactly;
 * with streams.compression.type=zstd Sluice writes its outputs in zstd, and kcat reads them back.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples } from "../../helpers/streams";
import { runKcat } from "../broker/broker-test-kit";

const CODECS = ["gzip", "snappy", "lz4", "zstd"];

async function countOf(url: string, word: string): Promise<number | undefined> {
  const answer = await http(`${url}/api/v1/applications/wordcount/stores/counts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", query: { get: { key: word } } }),
  });
  return answer.json().result?.success?.[0]?.records?.[0]?.value;
}

test("words written by kcat in every codec are counted exactly, and zstd outputs are read back by kcat", async () => {
  const sluice = await startSluiceWithExamples({ "streams.compression.type": "zstd" });
  try {
    const bootstrap = sluice.brokers.join(",");
    for (const [i, codec] of CODECS.entries()) {
      // Each codec writes its own word (i+1 times) and the shared one once, in one compressed batch.
      const lines = [...Array.from({ length: i + 1 }, () => `${codec}word shared`), `${codec}word`];
      const produced = await runKcat(bootstrap, ["-P", "-t", "words", "-z", codec, "-X", "linger.ms=50"], `${lines.join("\n")}\n`);
      assert.is(produced.code, 0, `${codec}: ${produced.stderr}`);
    }
    for (const [i, codec] of CODECS.entries()) {
      await eventually(async () => (await countOf(sluice.url, `${codec}word`)) === i + 2, { timeoutMs: 20_000, what: `${codec}word counted ${i + 2} times` });
    }
    await eventually(async () => (await countOf(sluice.url, "shared")) === 10, { timeoutMs: 20_000, what: "the shared word counted 10 times" });

    const consumed = await runKcat(bootstrap, ["-C", "-t", "word-counts", "-e", "-q", "-s", "value=Q", "-f", "%k=%s\n"]);
    assert.is(consumed.code, 0, consumed.stderr);
    const last = new Map(consumed.stdout.split("\n").filter(Boolean).map((line) => line.split("=") as [string, string]));
    assert.is(last.get("shared"), "10");
    assert.is(last.get("zstdword"), "5");
    // librdkafka's fetch debugging names the codec of each message set it enqueues.
    const debugged = await runKcat(bootstrap, ["-C", "-t", "word-counts", "-e", "-q", "-d", "fetch", "-f", "%k\n"]);
    const codecs = [...debugged.stderr.matchAll(/fetch queue \(.*, (\w+)\)$/gm)].map((match) => match[1]);
    assert.ok(codecs.length > 0 && codecs.every((codec) => codec === "zstd"), `message sets read: ${codecs.join(", ")}`);
  } finally {
    await sluice.close();
  }
});

test.run();
