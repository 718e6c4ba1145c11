import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startSluice } from "../../helpers/sluice";
import { writeProviderPackage } from "./fixture-providers";

const test = suite("event stream declarations");

test("an event stream type declared twice is a startup error naming it", async () => {
  const providerPackage = writeProviderPackage("DuplicateTypeProvider");
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-state-"));
  try {
    const started = startSluice({
      overrides: { "plugins.packages": providerPackage, "broker.port": "0", "broker.storage": "memory", "streams.state.dir": stateDir },
    });
    const error = await started.then(
      async (sluice) => {
        await sluice.close();
        return undefined;
      },
      (failure: Error) => failure,
    );
    assert.ok(error, "Sluice started with an event stream type declared twice");
    assert.match(error.message, "twice");
    assert.match(error.message, "duplicate-type");
  } finally {
    fs.rmSync(providerPackage, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test.run();
