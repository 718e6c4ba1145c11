/** Runs `promtool check metrics` (Debian package `prometheus`) on a Prometheus text body. */
import { spawnSync } from "node:child_process";

export const PROMTOOL = process.env.PROMTOOL ?? "promtool";

export function promtoolCheck(text: string): { ok: boolean; output: string } {
  const result = spawnSync(PROMTOOL, ["check", "metrics"], { input: text, encoding: "utf8" });
  if (result.error) throw new Error(`cannot run ${PROMTOOL} (install the Debian package 'prometheus'): ${result.error.message}`);
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}
