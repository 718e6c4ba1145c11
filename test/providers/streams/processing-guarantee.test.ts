/** processing.guarantee=exactly_once* is refused with a clear message, never silently run at least once. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../providers/examples";
import { startHarness } from "./streams-harness";

test("an application asking for exactly_once_v2 does not start, and the error says why", async () => {
  const harness = await startHarness();
  try {
    for (const guarantee of ["exactly_once", "exactly_once_v2"]) {
      try {
        await harness.runtime([new WordCountProvider()], { config: { "processing.guarantee": guarantee } }).start();
        assert.unreachable(`${guarantee} started`);
      } catch (error) {
        assert.match((error as Error).message, `application 'wordcount': processing.guarantee=${guarantee} is not supported yet`);
      }
    }
  } finally {
    await harness.close();
  }
});

test.run();
