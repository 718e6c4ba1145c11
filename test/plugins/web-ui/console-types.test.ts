/**
 * The console's answer types are the routes' own declarations: generated from /api/v1/openapi.json, they must equal
 * the committed client/api/sluice-types.ts. `npm run console-types` (SLUICE_WRITE_CONSOLE_TYPES=1) writes the file.
 */
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { consoleTypes, type OpenApiDocument } from "../../../plugins/web-ui/build/console-types";
import { REPO_ROOT, http, startSluice } from "../../helpers/sluice";

const TYPES_FILE = path.join(REPO_ROOT, "plugins", "web-ui", "client", "api", "sluice-types.ts");

test("the console's answer types equal those generated from the routes' declarations", async () => {
  // The console is not needed for its types, and its files do not exist yet when a build is under way.
  const sluice = await startSluice({ overrides: { "server.webui.enable": "false" } });
  try {
    const document = (await http(`${sluice.url}/api/v1/openapi.json`)).json() as OpenApiDocument;
    const generated = consoleTypes(document);
    if (process.env.SLUICE_WRITE_CONSOLE_TYPES) fs.writeFileSync(TYPES_FILE, generated);
    assert.fixture(fs.readFileSync(TYPES_FILE, "utf8"), generated, "stale: run `npm run console-types`");
  } finally {
    await sluice.close();
  }
});

test("a route the console reads but the document lacks is an error naming it", () => {
  assert.throws(() => consoleTypes({ paths: {} }), /ApiRoot: the document has no GET \/api\/v1/);
});

test.run();
