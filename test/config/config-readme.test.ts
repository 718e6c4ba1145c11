import fs from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CONFIG_README, configReadme, readmeDeclarations } from "../../config/config-readme";

test("config/README.md is what the declarations give (npm run config-readme writes it again)", async () => {
  assert.fixture(fs.readFileSync(CONFIG_README, "utf8"), configReadme((await readmeDeclarations()).claims));
});

test.run();
