/** A client following an event stream through a restart of Sluice never sees an id go backwards. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startSluiceWithExamples } from "../../helpers/streams";
import { openSse } from "./sse-reader";

async function firstEventId(word: string): Promise<number> {
  const sluice = await startSluiceWithExamples();
  try {
    const reader = await openSse(`${sluice.url}/api/v1/streams/wordcount/subscribe/word-counts`);
    try {
      await sluice.produce("words", [{ value: word }]);
      const [event] = await reader.waitForEvents(1);
      return Number(event.id);
    } finally {
      reader.close();
    }
  } finally {
    await sluice.close();
  }
}

test("the ids of a stream go on increasing after Sluice restarts", async () => {
  const before = await firstEventId("before");
  const after = await firstEventId("after");
  assert.ok(Number.isSafeInteger(before) && Number.isSafeInteger(after), `ids ${before}, ${after}`);
  assert.ok(after > before, `the first id after the restart (${after}) is above the first one before it (${before})`);
});

test.run();
