/**
 * The built-in schema registry with a real peer: Confluent's own JavaScript client (@confluentinc/schemaregistry)
 * registers Avro schemas with Sluice's /schema-registry and reads them back by id, subject and version, also after
 * Sluice restarts on the same broker data; errors come as Confluent's codes and statuses.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { SchemaRegistryClient } from "@confluentinc/schemaregistry";
import { ConfigResourceTypes, Kafka, logLevel } from "kafkajs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../../kernel/contracts/kafka-bootstrap";
import { readToEnd } from "../../helpers/read-to-end";
import { http, startSluice } from "../../helpers/sluice";
import { acrossRestart, avro, clientOf, compact, MEDIA_TYPE, ORDER, ORDER_V2, startOn, withBrokerDir, withSluice } from "./registry-test-bed";

test("Confluent's client registers Avro schemas and reads them back by id, subject and version; a restart keeps them", () =>
  withBrokerDir(async (dataDir) => {
    let sluice = await startOn(dataDir);
    try {
      const writer = clientOf(sluice);
      const id = await writer.register("orders-value", avro(ORDER));
      assert.is(await writer.register("orders-value", avro(ORDER)), id, "the same schema again keeps its id");
      assert.is(await clientOf(sluice).register("orders-value", { schema: compact(ORDER) }), id, "schemaType left out is AVRO, and layout does not matter");
      assert.is(await writer.register("returns-value", avro(ORDER)), id, "one schema, one id, across subjects");
      const id2 = await writer.register("orders-value", avro(ORDER_V2));
      assert.ok(id2 > id, `a new schema gets a new id (${id2} after ${id})`);

      const expectRegistry = async (reader: SchemaRegistryClient) => {
        assert.equal(await reader.getAllSubjects(), ["orders-value", "returns-value"]);
        assert.equal(await reader.getAllVersions("orders-value"), [1, 2]);
        assert.is((await reader.getBySubjectAndId("orders-value", id)).schema, compact(ORDER));
        const first = await reader.getSchemaMetadata("orders-value", 1);
        assert.equal([first.id, first.version, first.subject, first.schema], [id, 1, "orders-value", compact(ORDER)]);
        const latest = await reader.getLatestSchemaMetadata("orders-value");
        assert.equal([latest.id, latest.version, latest.schema], [id2, 2, compact(ORDER_V2)]);
        assert.is(await reader.getId("returns-value", avro(ORDER)), id, "lookup by schema");
        assert.is(await reader.getVersion("orders-value", avro(ORDER_V2)), 2);
      };
      await expectRegistry(clientOf(sluice));

      await sluice.close();
      sluice = await startOn(dataDir);
      await expectRegistry(clientOf(sluice));
      assert.is(await clientOf(sluice).register("orders-value", avro(ORDER_V2)), id2, "after the restart the schema still has its id");
      const id3 = await clientOf(sluice).register("payments-value", { schema: compact({ type: "enum", name: "Method", symbols: ["CARD", "CASH"] }) });
      assert.is(id3, id2 + 1, "ids go on from the highest one read back");
    } finally {
      await sluice.close();
    }
  }));

test("errors are Confluent's codes with its statuses, in its media type", () =>
  withSluice(async (sluice) => {
    const registry = `${sluice.url}/schema-registry`;
    const post = (url: string, body: unknown, contentType = MEDIA_TYPE) => http(url, { method: "POST", headers: { "content-type": contentType }, body: JSON.stringify(body) });
    const registered = await post(`${registry}/subjects/users-value/versions`, { schema: compact(ORDER) }, "application/json");
    assert.is(registered.status, 200, registered.text);
    assert.is(registered.headers.get("content-type"), MEDIA_TYPE);
    const { id } = registered.json();

    const expectError = async (answer: Promise<{ status: number; json: () => any; headers: Headers }>, status: number, code: number) => {
      const { status: got, json, headers } = await answer;
      assert.equal([got, json().error_code], [status, code], JSON.stringify(json()));
      assert.type(json().message, "string");
      assert.is(headers.get("content-type"), MEDIA_TYPE);
    };
    await expectError(http(`${registry}/subjects/nobody-value/versions`), 404, 40401);
    await expectError(http(`${registry}/subjects/nobody-value/versions/latest`), 404, 40401);
    await expectError(http(`${registry}/subjects/users-value/versions/2`), 404, 40402);
    await expectError(http(`${registry}/subjects/users-value/versions/zero`), 422, 42202);
    await expectError(http(`${registry}/subjects/users-value/versions/0`), 422, 42202);
    await expectError(http(`${registry}/schemas/ids/${id + 100}`), 404, 40403);
    await expectError(post(`${registry}/subjects/users-value`, { schema: compact(ORDER_V2) }), 404, 40403);
    await expectError(post(`${registry}/subjects/nobody-value`, { schema: compact(ORDER) }), 404, 40401);
    await expectError(post(`${registry}/subjects/users-value/versions`, { schema: '{"type": "record", "name": "Broken"}' }), 422, 42201);
    await expectError(post(`${registry}/subjects/users-value/versions`, { schema: "not json" }), 422, 42201);
    await expectError(post(`${registry}/subjects/users-value/versions`, {}), 422, 42201);

    const version = await http(`${registry}/subjects/users-value/versions/latest`);
    assert.equal(version.json(), { subject: "users-value", version: 1, id, schema: compact(ORDER) });
    assert.equal((await http(`${registry}/schemas/ids/${id}`)).json(), { schema: compact(ORDER) });
    assert.equal((await http(`${registry}/subjects/users-value/versions`)).json(), [1], "nothing refused was registered");
    assert.is((await http(`${registry}/subjects/users-value/versions/1/schema`)).text, compact(ORDER));
    assert.is((await http(`${registry}/schemas/ids/${id}/schema`)).text, compact(ORDER));
    assert.equal((await post(`${registry}/subjects/admins-value/versions`, { schema: compact(ORDER) })).json(), { id });
    assert.equal((await http(`${registry}/schemas/ids/${id}/subjects`)).json(), ["admins-value", "users-value"]);
    assert.equal((await http(`${registry}/schemas/ids/${id}/versions`)).json(), [{ subject: "admins-value", version: 1 }, { subject: "users-value", version: 1 }]);
    assert.equal((await http(`${registry}/schemas/types`)).json(), ["AVRO", "JSON"]);
    await expectError(http(`${registry}/subjects/users-value/versions/3/schema`), 404, 40402);
    await expectError(http(`${registry}/schemas/ids/${id + 100}/schema`), 404, 40403);
    await expectError(http(`${registry}/schemas/ids/${id + 100}/subjects`), 404, 40403);
  }));

test("the state is a compacted _schemas topic in Confluent's record layout", () =>
  withSluice(async (sluice) => {
    const id = await clientOf(sluice).register("orders-value", avro(ORDER));
    const [bootstrap] = sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
    const admin = new Kafka({ clientId: "registry-test", brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: "_schemas", configNames: ["cleanup.policy"] }] });
      assert.equal(resources[0].configEntries.map((entry) => [entry.configName, entry.configValue]), [["cleanup.policy", "compact"]]);
    } finally {
      await admin.disconnect();
    }
    const { records } = await readToEnd(bootstrap, "_schemas", [0], "read_uncommitted");
    assert.equal(
      records.map(({ key, value }) => [JSON.parse(key!), JSON.parse(value!)]),
      [[{ keytype: "SCHEMA", subject: "orders-value", version: 1, magic: 1 }, { subject: "orders-value", version: 1, id, schema: compact(ORDER), deleted: false }]],
    );
  }));

test("two Sluice instances on one broker share the registry", () =>
  withSluice(async (first) => {
    const [bootstrap] = first.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
    const id = await clientOf(first).register("orders-value", avro(ORDER));
    const second = await startSluice({ overrides: { "streams.bootstrap.servers": bootstrap, "schema.registry.enable": "true" } });
    try {
      assert.is((await clientOf(second).getLatestSchemaMetadata("orders-value")).id, id, "the second reads what the first registered before it started");
      const id2 = await clientOf(second).register("orders-value", avro(ORDER_V2));
      assert.is(id2, id + 1);
      // Each answer is read to the topic's end first: the first instance sees version 2 at once, without waiting.
      const seen = await clientOf(first).getSchemaMetadata("orders-value", 2);
      assert.equal([seen.id, seen.schema], [id2, compact(ORDER_V2)]);
    } finally {
      await second.close();
    }
  }));

test("an idle registry reads nothing: its topic is created and read on the first request", () =>
  withSluice(async (sluice) => {
    const [bootstrap] = sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
    const admin = new Kafka({ clientId: "registry-test", brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      assert.not.ok((await admin.listTopics()).includes("_schemas"), "no _schemas before any registry request");
      assert.equal((await http(`${sluice.url}/schema-registry/subjects`)).json(), []);
      assert.ok((await admin.listTopics()).includes("_schemas"), "the first request created _schemas");
    } finally {
      await admin.disconnect();
    }
  }));

// Adds a required field without a default: new readers cannot read old data, old readers can read new data.
const ORDER_WITH_REQUIRED = { ...ORDER, fields: [...ORDER.fields, { name: "currency", type: "string" }] };

test("compatibility: BACKWARD refuses an incompatible schema with 409 and takes a compatible one; /compatibility answers", () =>
  withSluice(async (sluice) => {
    const client = clientOf(sluice);
    assert.is(await client.getDefaultCompatibility(), "BACKWARD", "BACKWARD by default");
    assert.is(await client.updateCompatibility("orders-value", "BACKWARD" as never), "BACKWARD");
    assert.is(await client.getCompatibility("orders-value"), "BACKWARD");
    await client.register("orders-value", avro(ORDER));

    assert.is(await client.testCompatibility("orders-value", -1, avro(ORDER_WITH_REQUIRED)), false);
    assert.is(await client.testCompatibility("orders-value", 1, avro(ORDER_V2)), true);
    const registry = `${sluice.url}/schema-registry`;
    const post = (url: string, body: unknown) => http(url, { method: "POST", headers: { "content-type": MEDIA_TYPE }, body: JSON.stringify(body) });
    const verbose = (await post(`${registry}/compatibility/subjects/orders-value/versions/latest?verbose=true`, { schema: compact(ORDER_WITH_REQUIRED) })).json();
    assert.is(verbose.is_compatible, false);
    assert.match(verbose.messages.join(), /currency/, "the reason names the field");

    const refused = await post(`${registry}/subjects/orders-value/versions`, { schema: compact(ORDER_WITH_REQUIRED) });
    assert.equal([refused.status, refused.json().error_code], [409, 409], refused.text);
    assert.equal(await client.getAllVersions("orders-value"), [1], "nothing refused was registered");
    const id2 = await client.register("orders-value", avro(ORDER_V2));
    assert.equal((await clientOf(sluice).getLatestSchemaMetadata("orders-value")).id, id2, "a compatible schema is registered");

    // FORWARD turns the direction round: old readers must read the new data, which a required field allows.
    await client.updateCompatibility("orders-value", "FORWARD" as never);
    assert.is(await client.testCompatibility("orders-value", -1, avro({ ...ORDER_V2, fields: [...ORDER_V2.fields, ORDER_WITH_REQUIRED.fields[2]] })), true);
    await client.updateCompatibility("orders-value", "NONE" as never);
    assert.ok((await client.register("orders-value", avro({ type: "record", name: "Order", namespace: "shop", fields: [{ name: "id", type: "long" }] }))) > id2, "NONE takes anything");

    const expectError = async (answer: Promise<{ status: number; json: () => any }>, status: number, code: number) => {
      const { status: got, json } = await answer;
      assert.equal([got, json().error_code], [status, code], JSON.stringify(json()));
    };
    const put = (url: string, body: unknown) => http(url, { method: "PUT", headers: { "content-type": MEDIA_TYPE }, body: JSON.stringify(body) });
    await expectError(put(`${registry}/config`, { compatibility: "SIDEWAYS" }), 422, 42203);
    await expectError(http(`${registry}/config/returns-value`), 404, 40408);
    assert.equal((await http(`${registry}/config/returns-value?defaultToGlobal=true`)).json(), { compatibilityLevel: "BACKWARD" });
    // As Confluent's registry: `latest` of a subject with no version has nothing to be incompatible with.
    assert.equal((await post(`${registry}/compatibility/subjects/nobody-value/versions/latest`, { schema: compact(ORDER) })).json(), { is_compatible: true });
    await expectError(post(`${registry}/compatibility/subjects/orders-value/versions/9`, { schema: compact(ORDER) }), 404, 40402);
    await expectError(http(`${registry}/config/nobody-value`, { method: "DELETE" }), 404, 40401);
    assert.equal((await http(`${registry}/config/orders-value`, { method: "DELETE" })).json(), { compatibilityLevel: "NONE" });
    assert.match(await client.getCompatibility("orders-value").catch((error: Error) => error.message), /40408/, "the global level applies again");
  }));

test("compatibility levels are kept in _schemas as Confluent's config records and survive a restart", () =>
  acrossRestart(
    async (sluice) => {
      await clientOf(sluice).updateDefaultCompatibility("FULL" as never);
      await clientOf(sluice).updateCompatibility("orders-value", "FORWARD_TRANSITIVE" as never);
      const [bootstrap] = sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
      const { records } = await readToEnd(bootstrap, "_schemas", [0], "read_uncommitted");
      assert.equal(records.map(({ key, value }) => [JSON.parse(key!), JSON.parse(value!)]), [
        [{ keytype: "CONFIG", subject: null, magic: 0 }, { compatibilityLevel: "FULL" }],
        [{ keytype: "CONFIG", subject: "orders-value", magic: 0 }, { compatibilityLevel: "FORWARD_TRANSITIVE" }],
      ]);
    },
    async (sluice) => {
      const reader = clientOf(sluice);
      assert.is(await reader.getDefaultCompatibility(), "FULL");
      assert.is(await reader.getCompatibility("orders-value"), "FORWARD_TRANSITIVE");
    },
  ));

test("deletes: soft, then permanent with permanent=true, with Confluent's codes; the topic keeps what a restart needs", () =>
  acrossRestart(
    async (sluice) => {
      const client = clientOf(sluice);
      const id1 = await client.register("orders-value", avro(ORDER));
      await client.register("orders-value", avro(ORDER_V2));
      await client.register("returns-value", avro(ORDER));
      const registry = `${sluice.url}/schema-registry`;
      const remove = (route: string) => http(`${registry}${route}`, { method: "DELETE" });
      const expectError = async (route: string, code: number) => {
        const { status, json } = await remove(route);
        assert.equal([status, json().error_code], [404, code], `${route}: ${JSON.stringify(json())}`);
      };

      await expectError("/subjects/orders-value/versions/1?permanent=true", 40407);
      assert.is(await client.deleteSubjectVersion("orders-value", 1), 1);
      await expectError("/subjects/orders-value/versions/1", 40406);
      await expectError("/subjects/orders-value/versions/7", 40402);
      await expectError("/subjects/nobody-value/versions/1", 40401);
      assert.equal(await clientOf(sluice).getAllVersions("orders-value"), [2], "a soft-deleted version is not listed");
      assert.is(await client.deleteSubjectVersion("orders-value", 1, true), 1);
      await expectError("/subjects/orders-value/versions/1?permanent=true", 40402);

      await expectError("/subjects/returns-value?permanent=true", 40405);
      assert.equal(await client.deleteSubject("returns-value"), [1]);
      await expectError("/subjects/returns-value", 40404);
      assert.equal(await clientOf(sluice).getAllSubjects(), ["orders-value"]);
      assert.equal((await http(`${registry}/schemas/ids/${id1}`)).json(), { schema: compact(ORDER) }, "a deleted version's schema keeps its id");
      assert.equal(await client.deleteSubject("returns-value", true), [1]);
      await expectError("/subjects/returns-value", 40401);
      assert.is(await clientOf(sluice).register("returns-value", avro(ORDER)), id1, "registered again, the schema has its old id");
    },
    async (sluice) => {
      const reader = clientOf(sluice);
      assert.equal(await reader.getAllSubjects(), ["orders-value", "returns-value"]);
      assert.equal(await reader.getAllVersions("orders-value"), [2]);
      assert.equal(await reader.getAllVersions("returns-value"), [1], "version numbers start again after a permanent delete");
    },
  ));

test("roles: viewers read levels and modes and check compatibility, operators register, admins set and remove levels and modes", () =>
  withBrokerDir(async (dataDir) => {
    const tokens = path.join(dataDir, "tokens");
    const line = (role: string) => `${createHash("sha256").update(`${role}-token`).digest("hex")}:${role}:${role}`;
    fs.writeFileSync(tokens, ["viewer", "operator", "admin"].map(line).join("\n") + "\n");
    const sluice = await startOn(dataDir, { "server.auth.mechanism": "bearer", "server.auth.tokens.file": tokens, "server.auth.failure.delay.ms": "0" });
    try {
      const registry = `${sluice.url}/schema-registry`;
      const as = (role: string, method: string, route: string, body?: unknown) =>
        http(`${registry}${route}`, { method, headers: { authorization: `Bearer ${role}-token`, "content-type": MEDIA_TYPE }, body: body === undefined ? undefined : JSON.stringify(body) });
      const level = { compatibility: "FULL" };
      assert.is((await as("operator", "PUT", "/config", level)).status, 403, "operators do not set levels");
      assert.is((await as("admin", "PUT", "/config/orders-value", level)).status, 200);
      assert.is((await as("operator", "POST", "/subjects/orders-value/versions", { schema: compact(ORDER) })).status, 200);
      assert.equal((await as("viewer", "GET", "/config")).json(), { compatibilityLevel: "BACKWARD" });
      assert.equal((await as("viewer", "POST", "/compatibility/subjects/orders-value/versions/latest", { schema: compact(ORDER_V2) })).json(), { is_compatible: true });
      assert.is((await as("operator", "DELETE", "/config/orders-value")).status, 403, "operators do not remove levels");
      assert.equal((await as("admin", "DELETE", "/config/orders-value")).json(), { compatibilityLevel: "FULL" });
      assert.is((await as("operator", "PUT", "/mode", { mode: "READONLY" })).status, 403, "operators do not set modes");
      assert.is((await as("admin", "PUT", "/mode/orders-value", { mode: "READWRITE" })).status, 200);
      assert.equal((await as("viewer", "GET", "/mode/orders-value")).json(), { mode: "READWRITE" });
      assert.is((await as("operator", "DELETE", "/mode/orders-value")).status, 403, "operators do not remove modes");
      assert.equal((await as("admin", "DELETE", "/mode/orders-value")).json(), { mode: "READWRITE" });
      assert.is((await as("operator", "DELETE", "/mode")).status, 403, "operators do not remove the global mode");
      assert.equal((await as("admin", "DELETE", "/mode")).json(), { mode: "READWRITE" });
      assert.is((await as("operator", "DELETE", "/subjects/orders-value")).status, 403, "operators do not delete");
      assert.equal((await as("admin", "DELETE", "/subjects/orders-value")).json(), [1]);
    } finally {
      await sluice.close();
    }
  }));

test("schema.registry.enable=false serves no registry", async () => {
  const sluice = await startSluice({ overrides: { "schema.registry.enable": "false" } });
  try {
    assert.is((await http(`${sluice.url}/schema-registry/subjects`)).status, 404);
  } finally {
    await sluice.close();
  }
});

test.run();
