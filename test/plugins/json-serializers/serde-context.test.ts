import { suite } from "uvu";
import * as assert from "uvu/assert";
import { SERIALIZER_MODULE_CONTRACT, type JsonValue, type SerializationContext, type SerializerModule } from "../../../kernel/contracts/json-serializer";
import { eventually } from "../../helpers/eventually";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { openSse } from "../event-streams/sse-reader";
import { query, recordsOf } from "../applications-api/query-client";

/*
 * A serializer module decides by the serde a value was read or sent with (docs/api.md#json-rendering): the context names the
 * store's key and value serdes in query results and the topology's serdes in event payloads. The module here
 * shows what it was told, for wordcount's values (keys `string`, counts `long`).
 */
const serdeShowing: SerializerModule = {
  name: "serde-showing",
  handles: (value, context) => context.application === "wordcount" && (typeof value === "string" || typeof value === "number"),
  serialize: (value, context: SerializationContext): JsonValue => ({ serde: context.serde ?? null, field: context.field ?? null, value: value as string | number }),
};

const test = suite<{ sluice: SluiceWithExamples }>("the serde in the serialization context");

test.before(async (context) => {
  context.sluice = await startSluiceWithExamples({}, { [SERIALIZER_MODULE_CONTRACT]: [serdeShowing] });
});
test.after(async ({ sluice }) => sluice?.close());

test("query results tell the modules the store's key and value serdes", async ({ sluice }) => {
  await sluice.produce("words", [{ value: "kafka kafka" }]);
  const records = await eventually(async () => {
    const found = recordsOf(await query(sluice.url, "wordcount", "counts", { type: "key_value", query: { get: { key: "kafka" } } }));
    return found.length > 0 && found[0].value.value === 2 ? found : undefined;
  }, { timeoutMs: 20_000, what: "kafka counted twice" });
  assert.equal(records, [{ key: { serde: "string", field: "key", value: "kafka" }, value: { serde: "long", field: "value", value: 2 } }]);
});

test("event payloads tell the modules the serdes the topology sends them with", async ({ sluice }) => {
  const reader = await openSse(`${sluice.url}/api/v1/streams/wordcount/subscribe/word-counts`);
  try {
    await sluice.produce("words", [{ value: "sluice" }]);
    const [event] = await reader.waitForEvents(1, 20_000);
    assert.equal(event.data.key, { serde: "string", field: "key", value: "sluice" });
    assert.equal(event.data.value, { serde: "long", field: "value", value: 1 });
  } finally {
    reader.close();
  }
});

test.run();
