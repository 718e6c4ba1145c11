import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { formatZonedDateTime } from "../../../plugins/streams-api/zoned-date-time";

const zoned = suite("ISO_ZONED_DATE_TIME formatting");
const at = Date.UTC(2026, 10, 22, 18, 47, 43, 123);

zoned("UTC prints Z and the zone id", () => {
  assert.is(formatZonedDateTime(at, "UTC"), "2026-11-22T18:47:43.123Z[UTC]");
});

zoned("a zone east of UTC prints its offset and local time", () => {
  assert.is(formatZonedDateTime(at, "Europe/Paris"), "2026-11-22T19:47:43.123+01:00[Europe/Paris]");
  assert.is(formatZonedDateTime(Date.UTC(2026, 6, 1, 12), "Europe/Paris"), "2026-07-01T14:00:00+02:00[Europe/Paris]");
  assert.is(formatZonedDateTime(at, "Asia/Kathmandu"), "2026-11-23T00:32:43.123+05:45[Asia/Kathmandu]");
});

zoned("a zone west of UTC prints a negative offset, across the date line", () => {
  assert.is(formatZonedDateTime(Date.UTC(2026, 0, 1, 2, 0, 0, 500), "America/New_York"), "2025-12-31T21:00:00.5-05:00[America/New_York]");
});

zoned("the fraction drops trailing zeros and disappears at a whole second; seconds always print", () => {
  assert.is(formatZonedDateTime(Date.UTC(2026, 10, 22, 18, 47, 0, 120), "UTC"), "2026-11-22T18:47:00.12Z[UTC]");
  assert.is(formatZonedDateTime(Date.UTC(2026, 10, 22, 18, 47, 0, 0), "UTC"), "2026-11-22T18:47:00Z[UTC]");
  assert.is(formatZonedDateTime(Date.UTC(2026, 10, 22, 0, 0, 0, 7), "UTC"), "2026-11-22T00:00:00.007Z[UTC]");
});

zoned("without a zone it uses the process's time zone id", () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  assert.ok(formatZonedDateTime(at).endsWith(`[${zone}]`));
  assert.is(formatZonedDateTime(at), formatZonedDateTime(at, zone));
});

zoned("a process running in a non-UTC zone prints that zone's offset and id", () => {
  const script = `process.stdout.write(require(${JSON.stringify(require.resolve("../../../plugins/streams-api/zoned-date-time"))}).formatZonedDateTime(${at}))`;
  const child = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, TZ: "Asia/Kathmandu" }, encoding: "utf8" });
  assert.is(child.stdout, "2026-11-23T00:32:43.123+05:45[Asia/Kathmandu]", child.stderr);
});

zoned.run();
