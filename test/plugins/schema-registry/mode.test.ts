/**
 * The built-in registry's modes as Confluent's registry has them: READONLY (and READONLY_OVERRIDE) refuse
 * registrations, deletes and level changes with 42205; IMPORT takes registrations that give their own id and version
 * and refuses what Confluent's refuses; modes are MODE records in _schemas, so a restart and every instance see them.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../../kernel/contracts/kafka-bootstrap";
import { readToEnd } from "../../helpers/read-to-end";
import { startSluice } from "../../helpers/sluice";
import { acrossRestart, clientOf, compact, expectError, ORDER, ORDER_V2, registryCalls, withSluice } from "./registry-test-bed";

const PAYMENT = { type: "record", name: "Payment", fields: [{ name: "id", type: "string" }] };

test("READONLY refuses registrations, deletes and level changes with 42205; modes are MODE records that survive a restart", () =>
  acrossRestart(
    async (sluice) => {
      const { get, post, put, remove } = registryCalls(sluice);
      await clientOf(sluice).register("orders-value", { schema: compact(ORDER) });
      await clientOf(sluice).register("payments-value", { schema: compact(PAYMENT) });
      assert.equal((await get("/mode")).json(), { mode: "READWRITE" }, "READWRITE by default");
      await expectError(get("/mode/orders-value"), 404, 40409);
      assert.equal((await get("/mode/orders-value?defaultToGlobal=true")).json(), { mode: "READWRITE" });

      assert.equal((await put("/mode", { mode: "readonly" })).json(), { mode: "READONLY" }, "taken in any case, as Confluent takes it");
      await expectError(post("/subjects/orders-value/versions", { schema: compact(ORDER_V2) }), 422, 42205);
      await expectError(remove("/subjects/orders-value"), 422, 42205);
      await expectError(remove("/subjects/orders-value/versions/1"), 422, 42205);
      await expectError(put("/config/orders-value", { compatibility: "NONE" }), 422, 42205);
      await expectError(remove("/subjects/nobody-value"), 404, 40401);
      assert.equal((await get("/subjects/orders-value/versions/latest")).json().version, 1, "reads go on");

      assert.equal((await put("/mode/orders-value", { mode: "READWRITE" })).json(), { mode: "READWRITE" });
      assert.equal((await get("/mode/orders-value")).json(), { mode: "READWRITE" }, "the subject's own mode wins");
      assert.is((await post("/subjects/orders-value/versions", { schema: compact(ORDER_V2) })).status, 200);
      await expectError(post("/subjects/payments-value/versions", { schema: compact({ ...PAYMENT, fields: [] }) }), 422, 42205);
      await expectError(put("/mode", { mode: "SIDEWAYS" }), 422, 42204);

      const [bootstrap] = sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
      const { records } = await readToEnd(bootstrap, "_schemas", [0], "read_uncommitted");
      const modes = records.map(({ key, value }) => [JSON.parse(key!), JSON.parse(value!)]).filter(([key]) => key.keytype === "MODE");
      assert.equal(modes, [
        [{ keytype: "MODE", subject: null, magic: 0 }, { subject: null, mode: "READONLY" }],
        [{ keytype: "MODE", subject: "orders-value", magic: 0 }, { subject: "orders-value", mode: "READWRITE" }],
      ]);
    },
    async (sluice) => {
      const { get, post, put, remove } = registryCalls(sluice);
      assert.equal((await get("/mode")).json(), { mode: "READONLY" });
      assert.equal((await remove("/mode/orders-value")).json(), { mode: "READWRITE" }, "answers the mode it had");
      assert.equal((await get("/mode/orders-value?defaultToGlobal=true")).json(), { mode: "READONLY" }, "the global mode applies again");
      await expectError(remove("/mode/orders-value"), 404, 40401);
      await expectError(post("/subjects/orders-value/versions", { schema: compact({ ...ORDER, name: "Other" }) }), 422, 42205);
      assert.equal((await put("/mode", { mode: "READONLY_OVERRIDE" })).json(), { mode: "READONLY_OVERRIDE" });
      await expectError(post("/subjects/fresh-value/versions", { schema: compact(PAYMENT) }), 422, 42205);
      await put("/mode", { mode: "READWRITE" });
      assert.is((await post("/subjects/fresh-value/versions", { schema: compact(PAYMENT) })).status, 200);
    },
  ));

test("IMPORT: registrations give their id and version and skip the compatibility check; Confluent's refusals are 42205", () =>
  withSluice(async (sluice) => {
    const { get, post, put, remove } = registryCalls(sluice);
    await post("/subjects/orders-value/versions", { schema: compact(ORDER) });
    await expectError(put("/mode", { mode: "IMPORT" }), 422, 42205);
    await remove("/subjects/orders-value");
    assert.equal((await put("/mode", { mode: "IMPORT" })).json(), { mode: "IMPORT" }, "no live subject left");
    await expectError(get("/subjects/orders-value/versions?deleted=true"), 404, 40401);

    await expectError(post("/subjects/orders-value/versions", { schema: compact(ORDER) }), 422, 42205);
    assert.equal((await post("/subjects/orders-value/versions", { schema: compact(ORDER), id: 42, version: 3 })).json(), { id: 42 });
    assert.equal((await get("/subjects/orders-value/versions/3")).json(), { subject: "orders-value", version: 3, id: 42, schema: compact(ORDER) });
    const incompatible = { ...ORDER, fields: [{ name: "id", type: "long" }] };
    assert.equal((await post("/subjects/orders-value/versions", { schema: compact(incompatible), id: 7, version: 4 })).json(), { id: 7 }, "no compatibility check");
    await expectError(post("/subjects/payments-value/versions", { schema: compact(PAYMENT), id: 42 }), 422, 42205);
    assert.equal((await post("/subjects/payments-value/versions", { schema: compact(PAYMENT), id: 43 })).json(), { id: 43 });
    assert.equal((await get("/subjects/payments-value/versions")).json(), [1], "no version given: the next one");

    await put("/mode", { mode: "READWRITE" });
    await expectError(post("/subjects/orders-value/versions", { schema: compact(ORDER_V2), id: 50 }), 422, 42205);
    await put("/config/orders-value", { compatibility: "NONE" });
    assert.equal((await post("/subjects/orders-value/versions", { schema: compact(ORDER_V2) })).json(), { id: 44 }, "ids go on from the highest imported");
    assert.equal((await get("/subjects/orders-value/versions")).json(), [3, 4, 5]);
    await expectError(put("/mode", { mode: "IMPORT" }), 422, 42205);
    assert.equal((await put("/mode?force=true", { mode: "IMPORT" })).json(), { mode: "IMPORT" }, "force enters IMPORT with subjects");
  }));

test("DELETE /mode removes the global mode, answering the one it had (READWRITE when none); recursive removes every subject's own mode too", () =>
  acrossRestart(
    async (sluice) => {
      const { get, put, remove } = registryCalls(sluice);
      assert.equal((await remove("/mode")).json(), { mode: "READWRITE" }, "none set: the default, as Confluent answers");
      await put("/mode", { mode: "READONLY" });
      await put("/mode/orders-value", { mode: "IMPORT" });
      await put("/mode/payments-value", { mode: "READONLY_OVERRIDE" });
      assert.equal((await remove("/mode")).json(), { mode: "READONLY" });
      assert.equal((await get("/mode")).json(), { mode: "READWRITE" }, "the default applies again");
      assert.equal((await get("/mode/orders-value")).json(), { mode: "IMPORT" }, "without recursive, subjects keep their own");
      await put("/mode", { mode: "READONLY" });
    },
    async (sluice) => {
      const { get, post, remove } = registryCalls(sluice);
      assert.equal((await get("/mode/payments-value")).json(), { mode: "READONLY_OVERRIDE" }, "kept across the restart");
      assert.equal((await remove("/mode?recursive=true")).json(), { mode: "READONLY" });
      assert.equal((await get("/mode")).json(), { mode: "READWRITE" });
      await expectError(get("/mode/orders-value"), 404, 40409);
      await expectError(get("/mode/payments-value"), 404, 40409);
      assert.is((await post("/subjects/payments-value/versions", { schema: compact(PAYMENT) })).status, 200, "registrations go on");
      await expectError(remove("/mode/payments-value"), 404, 40401);
      assert.equal((await remove("/mode/payments-value?recursive=true")).json(), { mode: null }, "recursive: no 404, a null mode, as Confluent answers");
    },
  ));

test("a mode set through one instance holds on another sharing the broker", () =>
  withSluice(async (first) => {
    const [bootstrap] = first.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
    await registryCalls(first).put("/mode/orders-value", { mode: "READONLY" });
    const second = await startSluice({ overrides: { "streams.bootstrap.servers": bootstrap, "schema.registry.enable": "true" } });
    try {
      assert.equal((await registryCalls(second).get("/mode/orders-value")).json(), { mode: "READONLY" });
      await expectError(registryCalls(second).post("/subjects/orders-value/versions", { schema: compact(ORDER) }), 422, 42205);
      await registryCalls(second).remove("/mode/orders-value");
      assert.is((await registryCalls(first).post("/subjects/orders-value/versions", { schema: compact(ORDER) })).status, 200, "the first sees the mode removed at once");
    } finally {
      await second.close();
    }
  }));

test.run();
