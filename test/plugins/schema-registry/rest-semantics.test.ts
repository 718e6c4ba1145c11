/**
 * Where the built-in registry answers as Confluent's registry does in the corners: what a permanent delete takes
 * with it, compatibility checks without a version, listings and lookups of soft-deleted versions, and `latest` in a
 * permanent delete; `DELETE /config`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compact, expectError, ORDER, ORDER_V2, registryCalls, withSluice } from "./registry-test-bed";

test("a soft delete of a subject keeps its compatibility level and mode; a permanent one removes them, as does the last version's", () =>
  withSluice(async (sluice) => {
    const { get, post, put, remove } = registryCalls(sluice);
    for (const subject of ["orders-value", "returns-value"]) {
      await post(`/subjects/${subject}/versions`, { schema: compact(ORDER) });
      await put(`/config/${subject}`, { compatibility: "FULL" });
      await put(`/mode/${subject}`, { mode: "READWRITE" });
    }
    await remove("/subjects/orders-value");
    assert.equal((await get("/config/orders-value")).json(), { compatibilityLevel: "FULL" }, "a soft delete keeps the level");
    await remove("/subjects/orders-value?permanent=true");
    await expectError(get("/config/orders-value"), 404, 40408);
    await expectError(get("/mode/orders-value"), 404, 40409);

    await remove("/subjects/returns-value/versions/1");
    assert.equal((await get("/config/returns-value")).json(), { compatibilityLevel: "FULL" });
    await remove("/subjects/returns-value/versions/1?permanent=true");
    await expectError(get("/config/returns-value"), 404, 40408);
    await expectError(get("/mode/returns-value"), 404, 40409);
  }));

test("DELETE /config sets the global level back to BACKWARD, answering the level it was; subjects keep their own", () =>
  withSluice(async (sluice) => {
    const { get, put, remove } = registryCalls(sluice);
    await put("/config", { compatibility: "FULL_TRANSITIVE" });
    await put("/config/orders-value", { compatibility: "NONE" });
    const removed = await remove("/config");
    assert.equal([removed.status, removed.json()], [200, { compatibilityLevel: "FULL_TRANSITIVE" }]);
    assert.equal((await get("/config")).json(), { compatibilityLevel: "BACKWARD" });
    assert.equal((await get("/config/orders-value")).json(), { compatibilityLevel: "NONE" }, "a subject's own level stays");
    assert.equal((await remove("/config")).json(), { compatibilityLevel: "BACKWARD" }, "with none set, the default it was");
  }));

// Each adds a field to the one before; the third's has no default, so it cannot read the first's data.
const FIRST = { type: "record", name: "Order", fields: [{ name: "id", type: "string" }] };
const SECOND = { ...FIRST, fields: [...FIRST.fields, { name: "amount", type: "double", default: 0 }] };
const THIRD = { ...FIRST, fields: [...FIRST.fields, { name: "amount", type: "double" }] };

test("compatibility without a version checks as a registration would; a named version, `latest` included, alone", () =>
  withSluice(async (sluice) => {
    const { post, put } = registryCalls(sluice);
    const check = async (route: string, schema: object) => (await post(`/compatibility/subjects/orders-value${route}?verbose=true`, { schema: compact(schema) })).json();
    await post("/subjects/orders-value/versions", { schema: compact(FIRST) });
    await post("/subjects/orders-value/versions", { schema: compact(SECOND) });
    await put("/config/orders-value", { compatibility: "BACKWARD_TRANSITIVE" });

    const all = await check("/versions", THIRD);
    assert.is(all.is_compatible, false, "transitive: against every live version");
    assert.match(all.messages.join(), /amount/);
    assert.is((await check("/versions/latest", THIRD)).is_compatible, true, "latest: the latest version alone, even at a transitive level");
    assert.is((await check("/versions/1", THIRD)).is_compatible, false);
    const refused = await post("/subjects/orders-value/versions", { schema: compact(THIRD) });
    assert.equal([refused.status, refused.json().error_code], [409, 409], "a registration agrees with /versions");

    await put("/config/orders-value", { compatibility: "BACKWARD" });
    assert.is((await check("/versions", THIRD)).is_compatible, true, "not transitive: against the latest");
    assert.equal((await post("/compatibility/subjects/nobody-value/versions", { schema: compact(THIRD) })).json(), { is_compatible: true });
    await expectError(post("/compatibility/subjects/nobody-value/versions/9", { schema: compact(THIRD) }), 404, 40402);
    await expectError(post("/compatibility/subjects/orders-value/versions", { schema: "not json" }), 422, 42201);
    const unparsable = await check("/versions", { type: "record", name: "Broken" });
    assert.equal([unparsable.is_compatible, unparsable.messages.length], [false, 1], "verbose: an unparsable schema is an answer with its reason");
  }));

test("deleted=true and deletedOnly=true list and look up soft-deleted subjects and versions; `latest` is the newest live version", () =>
  withSluice(async (sluice) => {
    const { get, post, remove } = registryCalls(sluice);
    await post("/subjects/orders-value/versions", { schema: compact(ORDER) });
    await post("/subjects/orders-value/versions", { schema: compact(ORDER_V2) });
    await post("/subjects/returns-value/versions", { schema: compact(ORDER) });
    await remove("/subjects/orders-value/versions/1");
    await remove("/subjects/returns-value");

    assert.equal((await get("/subjects")).json(), ["orders-value"]);
    assert.equal((await get("/subjects?deleted=true")).json(), ["orders-value", "returns-value"]);
    assert.equal((await get("/subjects?deletedOnly=true")).json(), ["returns-value"], "a subject is deleted when all its versions are");
    assert.equal((await get("/subjects/orders-value/versions")).json(), [2]);
    assert.equal((await get("/subjects/orders-value/versions?deleted=true")).json(), [1, 2]);
    assert.equal((await get("/subjects/orders-value/versions?deletedOnly=true")).json(), [1]);
    await expectError(get("/subjects/returns-value/versions"), 404, 40401);
    assert.equal((await get("/subjects/returns-value/versions?deleted=true")).json(), [1]);

    await expectError(get("/subjects/orders-value/versions/1"), 404, 40402);
    assert.equal((await get("/subjects/orders-value/versions/1?deleted=true")).json().schema, compact(ORDER));
    assert.is((await get("/subjects/orders-value/versions/1/schema?deleted=true")).text, compact(ORDER));
    await expectError(get("/subjects/returns-value/versions/1"), 404, 40401);
    assert.equal((await get("/subjects/returns-value/versions/1?deleted=true")).json().version, 1);
    await expectError(get("/subjects/returns-value/versions/latest?deleted=true"), 404, 40402);
    await expectError(post("/subjects/orders-value", { schema: compact(ORDER) }), 404, 40403);
    assert.equal((await post("/subjects/orders-value?deleted=true", { schema: compact(ORDER) })).json().version, 1, "a lookup with deleted=true finds a soft-deleted version");

    // As Confluent's registry: `latest` is the newest live version, so with permanent=true it is never soft-deleted.
    await expectError(remove("/subjects/orders-value/versions/latest?permanent=true"), 404, 40407);
    await expectError(remove("/subjects/returns-value/versions/latest?permanent=true"), 404, 40402);
    assert.equal((await remove("/subjects/orders-value/versions/latest")).json(), 2);
    assert.equal((await get("/subjects/orders-value/versions?deleted=true")).json(), [1, 2], "nothing removed for good");
  }));

test.run();
