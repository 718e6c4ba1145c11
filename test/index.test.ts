import fs from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
// By its name, as a user's package imports it (the build links dist/node_modules/sluice to this package).
import * as sluice from "sluice";
import type { CliCommand, MetricsFormatter, Plugin, QueryEngine, RestExtension, SerializerModule, TopologyProvider } from "sluice";
import { REPO_ROOT } from "./helpers/sluice";

/*
 * The public surface (index.ts): every contract the README lists, with its id and types, the helpers the
 * built-in plugins answer with, and nothing of the runtime's internals; the examples package uses nothing else.
 */
const test = suite("the public surface");

test("every contract the README lists is exported under the id its descriptors use", () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  // Contract ids end in a type name; other tables list dotted lower-case names (dead-letter headers).
  const advertised = [...readme.matchAll(/^\| `(sluice\.[a-z]+\.[A-Z][A-Za-z]+)` \|/gm)].map((match) => match[1]).sort();
  const exported = {
    PLUGIN_CONTRACT: sluice.PLUGIN_CONTRACT,
    REST_EXTENSION_CONTRACT: sluice.REST_EXTENSION_CONTRACT,
    CLI_COMMAND_CONTRACT: sluice.CLI_COMMAND_CONTRACT,
    TOPOLOGY_PROVIDER_CONTRACT: sluice.TOPOLOGY_PROVIDER_CONTRACT,
    QUERY_ENGINE_CONTRACT: sluice.QUERY_ENGINE_CONTRACT,
    METRICS_FORMATTER_CONTRACT: sluice.METRICS_FORMATTER_CONTRACT,
    SERIALIZER_MODULE_CONTRACT: sluice.SERIALIZER_MODULE_CONTRACT,
  };
  assert.equal(Object.values(exported).sort(), advertised);
  const descriptors = ["META-INF/services", "providers/examples/META-INF/services"].flatMap((folder) => fs.readdirSync(path.join(REPO_ROOT, folder)));
  for (const id of descriptors) assert.ok(advertised.includes(id), `descriptor ${id} is a listed contract`);
});

test("the contracts' types are exported: an extension of each kind compiles against 'sluice' alone", () => {
  const implementations: [string, Plugin | RestExtension | CliCommand | QueryEngine | MetricsFormatter | SerializerModule | TopologyProvider][] = [
    [sluice.PLUGIN_CONTRACT, {} satisfies Plugin],
    [sluice.REST_EXTENSION_CONTRACT, { register: ({ routes }) => routes.get("/x", () => ({})) } satisfies RestExtension],
    [sluice.CLI_COMMAND_CONTRACT, { name: "x", usage: "", summary: "", run: async () => ({ close: async () => undefined }) } satisfies CliCommand],
    [sluice.QUERY_ENGINE_CONTRACT, { storeTypes: [], queries: [] } satisfies QueryEngine],
    [sluice.METRICS_FORMATTER_CONTRACT, { format: "x", contentType: "text/plain", render: () => "" } satisfies MetricsFormatter],
    [sluice.SERIALIZER_MODULE_CONTRACT, { name: "x", handles: () => false, serialize: () => null } satisfies SerializerModule],
    [sluice.TOPOLOGY_PROVIDER_CONTRACT, { name: "x", version: "1", config: {}, topology: () => undefined } satisfies TopologyProvider],
  ];
  assert.is(new Set(implementations.map(([id]) => id)).size, 7);
});

test("the helpers the built-in plugins answer with are exported", () => {
  for (const name of ["HttpError", "badRequest", "notFound", "conflict", "sendJson", "sendText", "sendError", "jsonBody", "JSON_CONTENT_TYPE"]) {
    assert.ok(name in sluice, `${name} is exported`);
  }
  const error = sluice.notFound("Unknown thing 'x'");
  assert.ok(error instanceof sluice.HttpError);
  assert.is(error.status, 404);
  for (const name of ["Sluice", "TopologyTestDriver", "stringSerde", "timeWindowedSerde", "sessionWindowedSerde", "UnrepresentableValueError", "resolveBootstrapServers"]) {
    assert.ok(name in sluice, `${name} is exported`);
  }
});

test("the streams runtime the kernel drives is not part of the surface, nor the kernel's configuration and classes", () => {
  for (const name of ["StreamsRuntime", "SERVER_CONFIG", "LOG_CONFIG", "PLUGINS_CONFIG", "ApplicationLookup", "RuntimeApplicationLookup", "ComponentContainer", "Kernel"]) {
    assert.not.ok(name in sluice, `${name} is not exported`);
  }
});

test("what the built-in plugins need of the kernel is exported: errors, components, route and schema helpers", () => {
  for (const name of ["StartupError", "LOG_LEVEL", "LOG_LEVELS", "PROCESS_METRICS", "PEER_TRANSPORT", "PEER_HEADER", "APPLICATION_LOOKUP", "HTTP_AUTHENTICATION", "WILDCARD_PARAMETER", "pathParameterNames", "schemaViolation", "ERROR_BODY_SCHEMA", "TOPOLOGY_SCHEMA", "APPLICATION_STATES", "STORE_TYPES"]) {
    assert.ok(name in sluice, `${name} is exported`);
  }
});

test("the examples package imports Sluice only by its name", () => {
  const folder = path.join(REPO_ROOT, "providers", "examples");
  for (const file of fs.readdirSync(folder).filter((name) => name.endsWith(".ts"))) {
    const source = fs.readFileSync(path.join(folder, file), "utf8");
    const outside = [...source.matchAll(/from "(\.\.\/[^"]*)"/g)].map((match) => match[1]);
    assert.equal(outside, [], `${file} reaches outside its package`);
  }
});

test.run();
