import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { JSON_RENDERER, type JsonRenderer } from "../../kernel/contracts/json-serializer";
import { FIXTURES, startSluice, type RunningSluice } from "../helpers/sluice";

const APP = path.join(FIXTURES, "serializer-app");
const { Money, Opaque } = require(path.join(APP, "node_modules/money-serializer/index.js"));

const renderer = suite<{ sluice: RunningSluice; json: JsonRenderer }>("JSON serializer modules");

renderer.before(async (context) => {
  context.sluice = await startSluice({ root: APP });
  context.json = context.sluice.kernel.components.resolve<JsonRenderer>(JSON_RENDERER);
});
renderer.after(({ sluice }) => sluice.close());

renderer("built-in modules render Buffer, BigInt, Date, Map, Set and windowed keys", ({ json }) => {
  assert.is(json.render(Buffer.from("hi")), "aGk=");
  assert.is(json.render(Buffer.from("hi"), { serde: "string" }), "hi");
  assert.is(json.render(42n), 42);
  assert.is(json.render(2n ** 64n), "18446744073709551616");
  assert.is(json.render(new Date(Date.UTC(2026, 10, 22, 18, 47, 43, 123))), "2026-11-22T18:47:43.123Z");
  assert.equal(json.render(new Map([["a", 1n]])), { a: 1 });
  assert.equal(json.render(new Map([[1, "x"]])), [{ key: 1, value: "x" }]);
  assert.equal(json.render(new Set(["x", "y"])), ["x", "y"]);
  assert.equal(json.render({ key: "kafka", windowStart: 60_000, windowEnd: 120_000 }), { key: "kafka", window_start: 60_000, window_end: 120_000 });
});

renderer("a package's module found through its descriptor renders its class, nested too", ({ json }) => {
  assert.equal(json.render({ total: new Money(1250, "EUR"), items: [new Money(5, "USD")] }), { total: "12.50 EUR", items: ["0.05 USD"] });
});

renderer("modules are consulted in discovery order: the application's packages after Sluice's built-ins", ({ json }) => {
  assert.equal(json.modules(), ["buffer", "bigint", "date", "collections", "windowed-key", "money"]);
});

renderer("a value no module handles is an error naming the type and the store, never {}", ({ json }) => {
  assert.throws(() => json.render({ v: new Opaque() }, { application: "shop", store: "carts", field: "value" }), /Cannot render a value of type Opaque \(application 'shop', store 'carts', field 'value'\) as JSON/);
  assert.throws(() => json.render(Number.NaN, { store: "s" }), /type number \(NaN\) \(store 's'\)/);
  assert.throws(() => json.render(() => 1), /type function/);
});

renderer.run();
